/**
 * Resolves the children of a `subagent` call into LaunchSpecs (DESIGN.md §2 `src/launch/`). Every rule
 * is checked here, before anything is spawned, and the problems of all children are reported together:
 * names exist, paths exist, roster entries are enabled, unchanged since load and not contradicted,
 * `roster_file` is Pi-only, the depth allows a child, and project agents pass the trust gate.
 */

import { type AgentDefinition, type AgentScope, discoverAgents, formatAgentFileErrors } from "../config/agents.ts";
import {
	canonicalJson,
	type LoadedRoster,
	loadRosterFile,
	type RosterEntry,
	recheckNormalizedEntry,
} from "../config/roster.ts";
import { discoverSkillFiles } from "../config/skills.ts";
import type { ChildCall } from "./child-call.ts";
import { assertDepthAllows } from "./depth.ts";
import type { LaunchContext } from "./launch-context.ts";
import { LaunchError } from "./launch-error.ts";
import type { Harness, LaunchSpec, Resources } from "./launch-spec.ts";
import { requireExisting, resolveAdHocCwd, resolveAdHocPath } from "./paths.ts";
import { DEFAULT_RESOURCES, resolveResourceArgument } from "./resolve-resources.ts";
import { assertTrusted } from "./trust.ts";

/** The roster as the current extension load sees it. */
export interface RosterState {
	roster?: LoadedRoster;
	/** Why the roster could not be loaded. */
	error?: string;
	/** Effective enabled flag (the file's, or the in-memory toggle under an override). */
	enabled: boolean;
}

/**
 * @throws LaunchError listing every problem of every child (each prefixed `task N:` / `step N:` in
 *   multi-child calls), the depth refusal, or a refused/declined trust prompt.
 */
export async function resolveChildCalls(
	calls: ChildCall[],
	labels: string[],
	scope: AgentScope,
	context: LaunchContext,
	rosterState: RosterState,
): Promise<LaunchSpec[]> {
	assertDepthAllows(context);
	let discovery: ReturnType<typeof discoverAgents> | undefined;
	const agents = () => {
		discovery ??= discoverAgents({ cwd: context.cwd, agentDir: context.agentDir, scope });
		return discovery;
	};
	const problems: string[] = [];
	const specs: LaunchSpec[] = [];
	const projectAgents = new Map<string, AgentDefinition>();
	calls.forEach((call, index) => {
		const local: string[] = [];
		const label = labels[index] ? `${labels[index]}: ` : "";
		let spec: LaunchSpec | undefined;
		if (call.agent !== undefined) spec = resolveAgentCall(call, agents(), scope, context, local);
		else if (call.rosterEntry !== undefined) spec = resolveRosterCall(call, rosterState, context, local);
		else spec = resolveAdHocCall(call, call.agentType as Harness, context, local);
		if (local.length > 0 || !spec) {
			problems.push(...local.map((problem) => `${label}${problem}`));
			return;
		}
		if (spec.provenance.agentSource === "project" && spec.provenance.agentFile) {
			const agent = agents().agents.find((a) => a.filePath === spec.provenance.agentFile);
			if (agent) projectAgents.set(agent.filePath, agent);
		}
		specs.push(spec);
	});
	if (problems.length > 0) throw new LaunchError(problems);
	await assertTrusted(
		[...projectAgents.values()].map((agent) => ({ what: `project agent "${agent.name}"`, file: agent.filePath })),
		context,
	);
	return specs;
}

function baseSpec(call: ChildCall, harness: Harness, cwd: string, context: LaunchContext): LaunchSpec {
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
		projectTrusted: context.projectTrusted,
		session: { kind: "new" },
		depth: context.depth + 1,
		limits: context.limits,
		provenance: {},
	};
}

/** A Markdown agent definition; ad-hoc settings (resources, roster_file, tool lists) may be added. */
function resolveAgentCall(
	call: ChildCall,
	discovery: ReturnType<typeof discoverAgents>,
	scope: AgentScope,
	context: LaunchContext,
	problems: string[],
): LaunchSpec | undefined {
	const agent = discovery.agents.find((a) => a.name === call.agent);
	if (!agent) {
		const available = discovery.agents.map((a) => `${a.name} (${a.source})`).join(", ") || "none";
		const broken = formatAgentFileErrors(discovery.errors);
		problems.push(
			`unknown agent "${call.agent}" in scope "${scope}". Available: ${available}.${broken.length > 0 ? ` Files that failed to load: ${broken.join("; ")}` : ""}`,
		);
	}
	const spec = resolveAdHocCall(call, agent?.harness ?? "pi", context, problems);
	if (!agent || !spec) return undefined;
	spec.model = call.model ?? agent.model;
	spec.effort = call.effort ?? agent.effort;
	spec.allowedTools = call.allowedTools ?? agent.tools;
	spec.systemPromptAddition = agent.systemPrompt || undefined;
	spec.provenance = { agentName: agent.name, agentFile: agent.filePath, agentSource: agent.source };
	return spec;
}

/** An ad-hoc run: cwd against the context cwd; resources and `roster_file` against the child cwd. */
function resolveAdHocCall(
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
			if (file !== undefined && validateChildRoster(file, problems)) spec.rosterFile = file;
		}
	}
	return spec;
}

/** A roster entry: its settings apply; manual repeats must agree (spec §Calling the existing tool). */
function resolveRosterCall(
	call: ChildCall,
	state: RosterState,
	context: LaunchContext,
	problems: string[],
): LaunchSpec | undefined {
	const roster = state.roster;
	if (!roster) {
		problems.push(`roster entry "${call.rosterEntry}": the roster could not be loaded: ${state.error ?? "no roster"}`);
		return undefined;
	}
	const source = roster.source === "settings" ? "the personal roster in the settings file" : roster.source;
	const entry = roster.entries.find((e) => e.name === call.rosterEntry);
	if (!entry) {
		const names = roster.entries.map((e) => e.name).join(", ") || "none";
		problems.push(`unknown roster entry "${call.rosterEntry}" in ${source}. Entries: ${names}`);
		return undefined;
	}
	if (!state.enabled) {
		problems.push(
			`roster entry "${entry.name}": the roster (${source}) is disabled; enable it with /agentshell-roster`,
		);
		return undefined;
	}
	const before = problems.length;
	check(problems, () => recheckNormalizedEntry(entry));
	const conflict = (field: string, given: unknown, expected: unknown) =>
		problems.push(
			`roster entry "${entry.name}": ${field} ${JSON.stringify(given)} conflicts with the entry's ${JSON.stringify(expected ?? null)}; omit ${field} or repeat the entry's value`,
		);
	if (call.agentType !== undefined && call.agentType !== entry.harness)
		conflict("agent_type", call.agentType, entry.harness);
	if (call.model !== undefined && call.model !== entry.model) conflict("model", call.model, entry.model);
	if (call.effort !== undefined && call.effort !== entry.effort) conflict("effort", call.effort, entry.effort);
	let cwd = entry.cwd;
	if (call.cwd !== undefined) {
		const given = attempt(problems, () => resolveAdHocCwd(context.cwd, call.cwd));
		if (given !== undefined && entry.cwd !== undefined && given !== entry.cwd) conflict("cwd", given, entry.cwd);
		cwd ??= given;
	}
	cwd ??= context.cwd;
	// Checked at load, but it may have gone since.
	if (entry.cwd !== undefined)
		check(problems, () => requireExisting(entry.cwd as string, "dir", `roster entry "${entry.name}": cwd`));
	const givenResources = resolveResourceArgument(call.resources, cwd, `roster entry "${entry.name}": `, problems);
	if (givenResources && canonicalJson(givenResources) !== canonicalJson(entry.resources ?? DEFAULT_RESOURCES)) {
		conflict("resources", givenResources, entry.resources ?? DEFAULT_RESOURCES);
	}
	if (call.rosterFile !== undefined && call.rosterFile !== null) {
		if (entry.harness !== "pi") {
			problems.push(`roster entry "${entry.name}": roster_file is Pi-only; omit it or pass null for ${entry.harness}`);
		} else {
			const given = attempt(problems, () => resolveAdHocPath(cwd, call.rosterFile as string, "file", "roster_file"));
			if (given !== undefined && given !== entry.rosterFile) conflict("roster_file", given, entry.rosterFile);
		}
	}
	// A normalized pi entry's roster is its own agent.json, which the recheck above has just validated.
	if (entry.rosterFile && entry.rosterFile !== entry.agentFile) validateChildRoster(entry.rosterFile, problems);
	if (problems.length > before) return undefined;

	const spec = baseSpec(call, entry.harness, cwd, context);
	spec.model = entry.model;
	spec.effort = entry.effort;
	spec.rosterFile = entry.harness === "pi" ? entry.rosterFile : undefined;
	spec.resources = entry.resources;
	applySkillReferences(spec, entry, problems);
	spec.provenance = {
		rosterSource: roster.source,
		rosterEntry: entry.name,
		agentDefinitionFile: entry.agentFile,
		definitionDigest: entry.digest,
	};
	return spec;
}

/**
 * Normalized codex/claude children get their skills as prompt references (spec §Selected skills for
 * normalized Codex and Claude children): discovered now, on every launch; the outbound selection is
 * `skills: []`. Inline entries keep native behaviour (the adapter rejects what it cannot honour).
 */
function applySkillReferences(spec: LaunchSpec, entry: RosterEntry, problems: string[]): void {
	const resources = entry.resources;
	if (!resources || resources.skills.length === 0 || !entry.agentFile || entry.harness === "pi") return;
	const files = attempt(problems, () =>
		discoverSkillFiles(resources.skills, `roster entry "${entry.name}": resources.skills`),
	);
	if (files === undefined) return;
	spec.skillReferences = files;
	spec.resources = { ...resources, skills: [] } satisfies Resources;
}

/** A child's roster is checked again when that child launches (spec §Paths and child environments). */
function validateChildRoster(file: string, problems: string[]): boolean {
	return check(problems, () => loadRosterFile(file));
}

/** Runs `fn`; a LaunchError's problems are collected and `undefined` returned. Other errors propagate. */
function attempt<T>(problems: string[], fn: () => T): T | undefined {
	try {
		return fn();
	} catch (error) {
		if (!(error instanceof LaunchError)) throw error;
		problems.push(...error.problems);
		return undefined;
	}
}

/** Like `attempt` for checks that return nothing: true when `fn` passed. */
function check(problems: string[], fn: () => void): boolean {
	return (
		attempt(problems, () => {
			fn();
			return true;
		}) === true
	);
}
