/**
 * Native inline rosters (docs/rules.md §Rosters): a file that is exactly
 * `{ roster: { enabled?, roles? } }` with each role a full entry, and the personal settings file's
 * `roster`, which has the same entry shape. All problems are collected and thrown together.
 */
import { ConfigError } from "../core/config-error.ts";
import { Problems } from "../core/problems.ts";
import { resolveExisting, rosterBaseDir, settingsBaseDir, settingsFilePath } from "./paths.ts";
import type { LoadedRoster, RosterEntry } from "./roster-entry.ts";
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
 * Inline entries → RosterEntries: unique names, `roster_file` Pi-only, every path resolved against
 * `baseDir` and checked; problems are added labelled with the entry (`roster.roles[i] "name"`).
 */
function buildInlineEntries(
	roles: Array<ParsedInlineEntry | undefined>,
	baseDir: string,
	fileProblems: Problems,
): RosterEntry[] {
	const entries: RosterEntry[] = [];
	const firstIndex = new Map<string, number>();
	roles.forEach((role, index) => {
		if (role === undefined) return;
		const problems = fileProblems.at(`roster.roles[${index}] "${role.name}"`);
		const earlier = firstIndex.get(role.name);
		if (earlier !== undefined) {
			problems.add(`name: duplicate name "${role.name}" (already used by roster.roles[${earlier}])`);
		} else {
			firstIndex.set(role.name, index);
		}
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
		entries.push(entry);
	});
	return entries;
}

/** A native inline roster file's parsed JSON → LoadedRoster. @throws ConfigError listing every problem. */
export function loadInline(raw: unknown, file: string): LoadedRoster {
	const problems = new Problems(file);
	const parsed = inlineRosterFileSchema().safeParse(raw);
	if (!parsed.success) {
		for (const problem of fieldProblems(parsed.error.issues)) problems.add(locateProblem(raw, problem));
		// List every problem at once: entries that are well-formed on their own still get their
		// duplicate-name, Pi-only and path checks.
		const roles = (raw as { roster?: { roles?: unknown } }).roster?.roles;
		if (Array.isArray(roles)) {
			const wellFormed = roles.map((role) => {
				const entry = inlineEntrySchema().safeParse(role);
				return entry.success ? entry.data : undefined;
			});
			buildInlineEntries(wellFormed, rosterBaseDir(file), problems);
		}
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
