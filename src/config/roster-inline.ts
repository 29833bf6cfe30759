/**
 * Native inline rosters (docs/rules.md §Rosters): a file that is exactly
 * `{ roster: { enabled?, roles? } }` with each role a full entry, and the personal settings file's
 * `roster`, which has the same entry shape. All problems are collected and thrown together.
 */
import { ConfigError } from "../core/config-error.ts";
import { Problems } from "../core/problems.ts";
import { resolveExisting, rosterBaseDir, settingsBaseDir, settingsFilePath } from "./paths.ts";
import type { LoadedRoster, RosterEntry } from "./roster-entry.ts";
import { checkUniqueNames } from "./roster-names.ts";
import { resolveResources } from "./roster-resources.ts";
import {
	inlineEntrySchema,
	inlineRosterFileSchema,
	type ParsedInlineEntry,
	type ParsedInlineRoster,
} from "./roster-schema.ts";
import { settingsDigest } from "./settings-digest.ts";
import { fieldProblems, locateProblem } from "./zod-issues.ts";

/**
 * Inline entries → RosterEntries: unique names (`checkUniqueNames`), `roster_file` Pi-only, every path resolved
 * against `baseDir` and checked; problems are added labelled with the entry (`roster.roles[i] "name"`).
 */
function buildInlineEntries(roles: ParsedInlineEntry[], baseDir: string, fileProblems: Problems): RosterEntry[] {
	checkUniqueNames(roles, fileProblems);
	return roles.map((role, index) => entryOf(role, baseDir, fileProblems.at(`roster.roles[${index}] "${role.name}"`)));
}

/** One inline entry that passed its schema → its RosterEntry, its Pi-only and path problems added to `problems`. */
function entryOf(role: ParsedInlineEntry, baseDir: string, problems: Problems): RosterEntry {
	const entry: RosterEntry = {
		name: role.name,
		description: role.description,
		harness: role.agent_type,
		model: role.model,
		effort: role.effort,
		digest: settingsDigest(role),
	};
	if (role.cwd !== undefined) entry.cwd = resolveExisting(baseDir, role.cwd, "dir", problems.at("cwd"));
	if (role.roster_file !== undefined) {
		if (role.agent_type !== "pi") {
			problems.add(
				`roster_file: is Pi-only, but agent_type is "${role.agent_type}"; remove roster_file from this entry`,
			);
		}
		entry.rosterFile = resolveExisting(baseDir, role.roster_file, "file", problems.at("roster_file"));
	}
	if (role.resources !== undefined) entry.resources = resolveResources(role.resources, baseDir, problems);
	return entry;
}

/**
 * The checks past the schema of a roster whose schema failed (an inline roster file's, the settings file's), so
 * one answer lists every problem: the duplicate-name check over every entry of `roles` with a readable name, and
 * the Pi-only and path checks of each entry that is well-formed on its own.
 */
export function checkMalformedRoles(roles: unknown, baseDir: string, problems: Problems): void {
	if (!Array.isArray(roles)) return;
	checkUniqueNames(roles, problems);
	roles.forEach((role, index) => {
		const entry = inlineEntrySchema().safeParse(role);
		if (entry.success) entryOf(entry.data, baseDir, problems.at(`roster.roles[${index}] "${entry.data.name}"`));
	});
}

/** A native inline roster file's parsed JSON → LoadedRoster. @throws ConfigError listing every problem. */
export function loadInline(raw: unknown, file: string): LoadedRoster {
	const problems = new Problems(file);
	const parsed = inlineRosterFileSchema().safeParse(raw);
	if (!parsed.success) {
		for (const problem of fieldProblems(parsed.error.issues)) problems.add(locateProblem(raw, problem));
		const roles = (raw as { roster?: { roles?: unknown } }).roster?.roles;
		checkMalformedRoles(roles, rosterBaseDir(file), problems);
		throw new ConfigError(problems.list);
	}
	const entries = buildInlineEntries(parsed.data.roster.roles, rosterBaseDir(file), problems);
	if (problems.size > 0) throw new ConfigError(problems.list);
	return { source: file, format: "inline", enabled: parsed.data.roster.enabled, entries };
}

/**
 * The personal roster from the settings file (`roster` key of `<agentDir>/extensions/agentshell.json`,
 * inline entry shape), with paths resolved against `<agentDir>/extensions`.
 * @throws ConfigError naming the settings file, entry and field for duplicate names, `roster_file` on a
 *   non-Pi entry, and missing paths (checked even when disabled).
 */
export function rosterFromSettings(settings: { roster: ParsedInlineRoster }, agentDir: string): LoadedRoster {
	const problems = new Problems(settingsFilePath(agentDir));
	const entries = buildInlineEntries(settings.roster.roles, settingsBaseDir(agentDir), problems);
	if (problems.size > 0) throw new ConfigError(problems.list);
	return { source: "settings", format: "settings", enabled: settings.roster.enabled, entries };
}
