/**
 * Resolves the children of a `subagent` call into LaunchSpecs (docs/architecture.md). Every rule
 * is checked here, before anything is spawned, and the problems of all children are reported together:
 * names exist, paths exist, roster entries are enabled, unchanged since load and not contradicted,
 * `roster_file` is Pi-only, the depth allows a child, and project agents pass the trust gate.
 */

import { type AgentScope, describeAgent, discoverAgents, formatAgentFileErrors } from "../config/agents.ts";
import { assertDepthAllows } from "../config/depth.ts";
import type { RosterState } from "../config/extension-state.ts";
import { requireExisting, resolveAdHocCwd, resolveAdHocPath } from "../config/paths.ts";
import { canonicalJson, recheckNormalizedEntry } from "../config/roster.ts";
import { LaunchError } from "../core/launch-error.ts";
import type { Harness, LaunchSpec } from "../core/launch-spec.ts";
import type { ChildCall } from "./child-call.ts";
import type { LaunchContext } from "./launch-context.ts";
import {
	applySkillReferences,
	attempt,
	baseSpec,
	check,
	resolveAdHocCall,
	validateChildRoster,
} from "./resolve-helpers.ts";

import { DEFAULT_RESOURCES, resolveResourceArgument } from "./resolve-resources.ts";
import { type ResumeLookup, resolveResumeCall } from "./resolve-resume.ts";
import { assertTrusted, type ProjectControlled, projectDirOf } from "./trust.ts";

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
	sessions: ResumeLookup,
): Promise<LaunchSpec[]> {
	assertDepthAllows(context);
	let discovery: ReturnType<typeof discoverAgents> | undefined;
	const agents = () => {
		discovery ??= discoverAgents({ cwd: context.cwd, agentDir: context.agentDir, scope });
		return discovery;
	};
	const problems: string[] = [];
	const specs: LaunchSpec[] = [];
	const projectControlled = new Map<string, ProjectControlled>();
	calls.forEach((call, index) => {
		const local: string[] = [];
		const label = labels[index] ? `${labels[index]}: ` : "";
		let spec: LaunchSpec | undefined;
		if (call.resumeSessionId !== undefined) {
			spec = resolveResumeCall(call, sessions, rosterState, context, local, () =>
				call.agent === undefined ? undefined : resolveAgentCall(call, agents(), scope, context, local),
			);
		} else if (call.agent !== undefined) spec = resolveAgentCall(call, agents(), scope, context, local);
		else if (call.rosterEntry !== undefined) spec = resolveRosterCall(call, rosterState, context, local);
		else spec = resolveAdHocCall(call, call.agentType as Harness, context, local);
		if (local.length > 0 || !spec) {
			problems.push(...local.map((problem) => `${label}${problem}`));
			return;
		}
		const item = projectItem(spec);
		if (item) projectControlled.set(`${item.file}\0${item.digest}`, item);
		specs.push(spec);
	});
	if (problems.length > 0) throw new LaunchError(problems);
	await assertTrusted([...projectControlled.values()], context);
	return specs;
}

/**
 * The trust item of a launch from a project agent, new or resumed: the file and the digest of the
 * content the child will run (a resume of a changed file says so).
 */
function projectItem(spec: LaunchSpec): ProjectControlled | undefined {
	const p = spec.provenance;
	if (p.agentSource !== "project" || !p.agentFile || !p.agentDigest) return undefined;
	const changed = p.definitionDigest !== undefined && p.definitionDigest !== p.agentDigest;
	return {
		what: `project agent "${p.agentName}"`,
		file: p.agentFile,
		projectDir: projectDirOf(p.agentFile),
		digest: p.agentDigest,
		note: changed ? "changed since the resumed session started from it" : undefined,
	};
}

/** A Markdown agent definition; ad-hoc settings (resources, roster_file, tool lists) may be added. */
export function resolveAgentCall(
	call: ChildCall,
	discovery: ReturnType<typeof discoverAgents>,
	scope: AgentScope,
	context: LaunchContext,
	problems: string[],
): LaunchSpec | undefined {
	const agent = discovery.agents.find((a) => a.name === call.agent);
	if (!agent) {
		const available = discovery.agents.map(describeAgent).join(", ") || "none";
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
	spec.disallowedTools = call.disallowedTools ?? agent.disallowedTools;
	spec.systemPromptAddition = agent.systemPrompt || undefined;
	spec.provenance = {
		agentName: agent.name,
		agentFile: agent.filePath,
		agentSource: agent.source,
		definitionDigest: agent.digest,
		agentDigest: agent.digest,
	};
	return spec;
}

/** A roster entry: its settings apply; manual repeats must agree (docs/rules.md §Calling the tool). */
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
	const unchanged = check(problems, () => recheckNormalizedEntry(entry));
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
	// A normalized pi entry's roster is its own agent.json: when the recheck above failed on it, say so once.
	const childRosterDigest =
		entry.rosterFile && (unchanged || entry.rosterFile !== entry.agentFile)
			? validateChildRoster(entry.rosterFile, problems)
			: undefined;
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
		childRosterDigest,
	};
	return spec;
}
