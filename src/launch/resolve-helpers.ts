/**
 * Pieces shared by the resolvers of new launches and resumes (`resolve-calls.ts`, `resolve-resume.ts`),
 * kept here so neither imports the other.
 */

import type { RosterState } from "../config/extension-state.ts";
import { resolveAdHocCwd, resolveAdHocPath } from "../config/paths.ts";
import { loadRosterFile } from "../config/roster.ts";
import type { LoadedRoster, RosterEntry } from "../config/roster-entry.ts";
import { settingsDigest } from "../config/settings-digest.ts";
import { discoverSkillFiles } from "../config/skills.ts";
import type { Harness, InteractiveOptions, LaunchSpec, Resources } from "../core/launch-spec.ts";
import { didYouMean } from "../core/nearest-name.ts";
import type { Problems } from "../core/problems.ts";
import type { ChildSettings } from "./child-call.ts";
import type { LaunchContext } from "./launch-context.ts";
import { resolveResourceArgument } from "./resolve-resources.ts";

/** A new-session LaunchSpec with the call's own settings; each resolver spreads it into the complete spec it returns. */
export function baseSpec(call: ChildSettings, harness: Harness, cwd: string, context: LaunchContext): LaunchSpec {
	return {
		harness,
		task: call.task,
		taskName: call.taskName,
		cwd,
		model: call.model,
		effort: call.effort,
		allowedTools: call.allowedTools,
		approvedTools: call.allowedTools,
		disallowedTools: call.disallowedTools,
		autoApprove: call.autoApprove ?? false,
		// Trust does not travel: the child's own cwd must be explicitly trusted.
		projectTrusted: context.trust(cwd),
		session: { kind: "new" },
		depth: context.depth + 1,
		limits: context.limits,
		provenance: { kind: "ad_hoc" },
		interactive: call.interactive ? interactiveOptions(call, context) : undefined,
		outputSchema: call.outputSchema,
	};
}

/** A call's interactive options over the settings defaults (an explicit `null` timeout means never). */
function interactiveOptions(call: ChildSettings, context: LaunchContext): InteractiveOptions {
	const defaults = context.interactiveDefaults ?? { stayOpen: false, inactivityTimeoutMs: null };
	return {
		stayOpen: call.stayOpen ?? defaults.stayOpen,
		inactivityTimeoutMs:
			call.inactivityTimeoutMs === undefined ? defaults.inactivityTimeoutMs : call.inactivityTimeoutMs,
		dialogTimeoutMs: defaults.dialogTimeoutMs,
	};
}

/**
 * Normalized codex/claude children get their skills as prompt references (docs/rules.md §Selected skills
 * for codex and claude children): discovered now, on every launch; the outbound selection is `skills: []`. Inline entries keep native behaviour (the adapter rejects what it cannot honour).
 * @returns the selection and references to launch with, or `undefined` when the entry's own selection
 *   applies unchanged (or discovery failed, with the problems added).
 */
export function skillSelection(
	entry: RosterEntry,
	problems: Problems,
): Pick<LaunchSpec, "resources" | "skillReferences" | "selectedResources"> | undefined {
	const resources = entry.resources;
	if (!resources || resources.skills.length === 0 || !entry.agentFile || entry.harness === "pi") return undefined;
	const before = problems.size;
	const files = discoverSkillFiles(resources.skills, `roster entry "${entry.name}": resources.skills`, problems);
	if (problems.size > before) return undefined;
	// The record keeps the entry's full selection, so a resume compares and re-derives against it.
	return {
		skillReferences: files,
		resources: { ...resources, skills: [] } satisfies Resources,
		selectedResources: resources,
	};
}

/**
 * A child's roster is checked again when that child launches or resumes (docs/rules.md §Paths and
 * child environments). Returns the digest of its parsed contents (its entries' settings), or `undefined`
 * with the problems added.
 */
export function validateChildRoster(file: string, problems: Problems): string | undefined {
	const roster = problems.attempt(() => loadRosterFile(file));
	return roster && settingsDigest({ enabled: roster.enabled, entries: roster.entries });
}

/** An ad-hoc run: cwd against the context cwd; resources and `roster_file` against the child cwd. */
export function resolveAdHocCall(
	call: ChildSettings,
	harness: Harness,
	context: LaunchContext,
	problems: Problems,
): LaunchSpec | undefined {
	const cwd = resolveAdHocCwd(context.cwd, call.cwd, problems);
	if (cwd === undefined) return undefined;
	const resources = resolveResourceArgument(call.resources, cwd, problems);
	const childRoster = call.rosterFile == null ? undefined : resolveChildRoster(call.rosterFile, harness, cwd, problems);
	return {
		...baseSpec(call, harness, cwd, context),
		resources,
		rosterFile: childRoster?.file,
		provenance: childRoster ? { kind: "ad_hoc", childRosterDigest: childRoster.digest } : { kind: "ad_hoc" },
	};
}

/** An ad-hoc `roster_file` (Pi only), resolved against the child cwd and checked, with its digest. */
function resolveChildRoster(
	raw: string,
	harness: Harness,
	cwd: string,
	problems: Problems,
): { file: string; digest: string } | undefined {
	if (harness !== "pi") {
		problems.add(`roster_file: is Pi-only; omit it or pass null for ${harness} (got ${JSON.stringify(raw)})`);
		return undefined;
	}
	const file = resolveAdHocPath(cwd, raw, "file", problems.at("roster_file"));
	const digest = file === undefined ? undefined : validateChildRoster(file, problems);
	return file !== undefined && digest !== undefined ? { file, digest } : undefined;
}

/**
 * The roster entry `name` when it can be used now, for a new call and a resume alike (docs/rules.md §Calling
 * the tool, §Resumption): the roster is loaded, holds the entry and is enabled. Each problem names the
 * entry; a resume's collector adds its `resume_session_id` label.
 * @param settingsFile the settings file, named as the roster searched when the personal roster is in force.
 * @returns the entry and the roster it came from, or `undefined` with the problem added.
 */
export function usableRosterEntry(
	state: RosterState,
	name: string,
	problems: Problems,
	settingsFile?: string,
): { entry: RosterEntry; roster: LoadedRoster } | undefined {
	const roster = state.roster;
	if (!roster) {
		// One line a problem: a roster file with several problems names each (with its field) on its own.
		for (const problem of state.problems ?? [state.error ?? "no roster"]) {
			problems.add(`roster entry "${name}": the roster could not be loaded: ${problem}`);
		}
		return undefined;
	}
	const source = rosterLabel(roster);
	const entry = roster.entries.find((e) => e.name === name);
	if (!entry) {
		const names = roster.entries.map((e) => e.name);
		const searched =
			roster.source === "settings"
				? `${settingsFile ?? "the settings file"} (its "roster"; no PI_AGENTSHELL_ROSTER_FILE is set)`
				: `${roster.source} (selected by PI_AGENTSHELL_ROSTER_FILE)`;
		problems.add(
			`unknown roster entry "${name}" in ${source}${didYouMean(name, names)}. Entries: ${names.join(", ") || "none"}. Roster searched: ${searched}`,
		);
		return undefined;
	}
	if (!state.enabled) {
		problems.add(`roster entry "${name}": the roster (${source}) is disabled; enable it with /agentshell-roster`);
		return undefined;
	}
	return { entry, roster };
}

/** A roster's source as messages name it: its file, or the personal roster in the settings file. */
export function rosterLabel(roster: LoadedRoster): string {
	return roster.source === "settings" ? "the personal roster in the settings file" : roster.source;
}
