/**
 * Pieces shared by the resolvers of new launches and resumes (`resolve-calls.ts`, `resolve-resume.ts`),
 * kept here so neither imports the other.
 */

import { resolveAdHocCwd, resolveAdHocPath } from "../config/paths.ts";
import { loadRosterFile, type RosterEntry, settingsDigest } from "../config/roster.ts";
import { discoverSkillFiles } from "../config/skills.ts";
import { LaunchError } from "../core/launch-error.ts";
import type { Harness, InteractiveOptions, LaunchSpec, Resources } from "../core/launch-spec.ts";
import type { ChildCall } from "./child-call.ts";
import type { LaunchContext } from "./launch-context.ts";
import { resolveResourceArgument } from "./resolve-resources.ts";

/** A new-session LaunchSpec with the call's own settings; resolvers add what their kind of call decides. */
export function baseSpec(call: ChildCall, harness: Harness, cwd: string, context: LaunchContext): LaunchSpec {
	return {
		harness,
		task: call.task,
		taskName: call.taskName,
		cwd,
		model: call.model,
		effort: call.effort,
		allowedTools: call.allowedTools,
		disallowedTools: call.disallowedTools,
		autoApprove: call.autoApprove ?? false,
		// Trust does not travel: the child's own cwd must be explicitly trusted.
		projectTrusted: context.trust(cwd),
		session: { kind: "new" },
		depth: context.depth + 1,
		limits: context.limits,
		provenance: {},
		interactive: call.interactive ? interactiveOptions(call, context) : undefined,
	};
}

/** A call's interactive options over the settings defaults (an explicit `null` timeout means never). */
function interactiveOptions(call: ChildCall, context: LaunchContext): InteractiveOptions {
	const defaults = context.interactiveDefaults ?? { stayOpen: false, inactivityTimeoutMs: null };
	return {
		stayOpen: call.stayOpen ?? defaults.stayOpen,
		inactivityTimeoutMs:
			call.inactivityTimeoutMs === undefined ? defaults.inactivityTimeoutMs : call.inactivityTimeoutMs,
	};
}

/**
 * Normalized codex/claude children get their skills as prompt references (docs/rules.md §Selected skills for codex and
 * claude children): discovered now, on every launch; the outbound selection is `skills: []`. Inline entries keep native
 * behaviour (the adapter rejects what it cannot honour).
 */
export function applySkillReferences(spec: LaunchSpec, entry: RosterEntry, problems: string[]): void {
	const resources = entry.resources;
	if (!resources || resources.skills.length === 0 || !entry.agentFile || entry.harness === "pi") return;
	const files = attempt(problems, () =>
		discoverSkillFiles(resources.skills, `roster entry "${entry.name}": resources.skills`),
	);
	if (files === undefined) return;
	spec.skillReferences = files;
	spec.resources = { ...resources, skills: [] } satisfies Resources;
	// The record keeps the entry's full selection, so a resume compares and re-derives against it.
	spec.selectedResources = resources;
}

/**
 * A child's roster is checked again when that child launches or resumes (docs/rules.md §Paths and child environments).
 * Returns the digest of its parsed contents (its entries' settings), or `undefined` with the problems pushed.
 */
export function validateChildRoster(file: string, problems: string[]): string | undefined {
	const roster = attempt(problems, () => loadRosterFile(file));
	return roster && settingsDigest({ enabled: roster.enabled, entries: roster.entries });
}

/** Runs `fn`; a LaunchError's problems are collected and `undefined` returned. Other errors propagate. */
export function attempt<T>(problems: string[], fn: () => T): T | undefined {
	try {
		return fn();
	} catch (error) {
		if (!(error instanceof LaunchError)) throw error;
		problems.push(...error.problems);
		return undefined;
	}
}

/** Like `attempt` for checks that return nothing: true when `fn` passed. */
export function check(problems: string[], fn: () => void): boolean {
	return (
		attempt(problems, () => {
			fn();
			return true;
		}) === true
	);
}

/** An ad-hoc run: cwd against the context cwd; resources and `roster_file` against the child cwd. */
export function resolveAdHocCall(
	call: ChildCall,
	harness: Harness,
	context: LaunchContext,
	problems: string[],
): LaunchSpec | undefined {
	const cwd = attempt(problems, () => resolveAdHocCwd(context.cwd, call.cwd));
	if (cwd === undefined) return undefined;
	const spec = baseSpec(call, harness, cwd, context);
	spec.resources = resolveResourceArgument(call.resources, cwd, "", problems);
	if (call.rosterFile !== undefined && call.rosterFile !== null) {
		if (harness !== "pi") {
			problems.push(
				`roster_file: is Pi-only; omit it or pass null for ${harness} (got ${JSON.stringify(call.rosterFile)})`,
			);
		} else {
			const file = attempt(problems, () => resolveAdHocPath(cwd, call.rosterFile as string, "file", "roster_file"));
			const digest = file === undefined ? undefined : validateChildRoster(file, problems);
			if (file !== undefined && digest !== undefined) {
				spec.rosterFile = file;
				spec.provenance.childRosterDigest = digest;
			}
		}
	}
	return spec;
}
