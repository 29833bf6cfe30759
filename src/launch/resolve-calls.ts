/**
 * Resolves the children of a `subagent` call into LaunchSpecs (docs/architecture.md). Every rule
 * is checked here, before anything is spawned, and the problems of all children are reported together:
 * names exist, paths exist, roster entries are enabled, unchanged since load and not contradicted,
 * `roster_file` is Pi-only, the depth allows a child, and project agents pass the trust gate.
 */

import { type AgentScope, discoverAgents } from "../config/agents.ts";
import { checkDepth } from "../config/depth.ts";
import type { RosterState } from "../config/extension-state.ts";
import { checkExisting, resolveAdHocCwd, resolveAdHocPath, settingsFilePath } from "../config/paths.ts";
import { recheckNormalizedEntry } from "../config/roster-normalized.ts";
import { canonicalJson } from "../config/settings-digest.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import type { ChildCall, RosterEntryCall } from "./child-call.ts";
import type { LaunchContext } from "./launch-context.ts";
import { resolveAgentCall } from "./resolve-agent.ts";
import {
	baseSpec,
	resolveAdHocCall,
	skillSelection,
	usableRosterEntry,
	validateChildRoster,
} from "./resolve-helpers.ts";
import { DEFAULT_RESOURCES, resolveResourceArgument } from "./resolve-resources.ts";
import { type ResumeLookup, resolveResumeCall } from "./resolve-resume.ts";
import { checkTrusted, type ProjectControlled, projectDirOf } from "./trust.ts";

/**
 * @param accepts the caller's checks of the resolved specs that do not depend on a confirmation (the harnesses'
 *   own validation, interactive runs), given each spec's label, run before the trust prompt: no one is asked about a
 *   launch that is refused anyway (a codex agent from an untrusted project, say). It checks the children that
 *   resolved even when another did not, so a call's problems are listed at once. False (with its problems added)
 *   refuses.
 * @returns one spec per call, or `undefined` when anything is wrong, with every problem of every child
 *   (each labelled `task N` / `step N` in multi-child calls), the depth refusal, what `accepts` found, or a
 *   refused or declined trust prompt added to `problems`.
 */
export async function resolveChildCalls(
	calls: ChildCall[],
	labels: string[],
	scope: AgentScope,
	context: LaunchContext,
	rosterState: RosterState,
	sessions: ResumeLookup,
	problems: Problems,
	accepts: (specs: LaunchSpec[], labels: string[]) => boolean | Promise<boolean> = () => true,
): Promise<LaunchSpec[] | undefined> {
	if (!checkDepth(context, problems)) return undefined;
	const options = { cwd: context.cwd, agentDir: context.agentDir, scope, env: context.env };
	let discovery: ReturnType<typeof discoverAgents> | undefined;
	const agents = () => {
		discovery ??= discoverAgents(options);
		return discovery;
	};
	const specs: LaunchSpec[] = [];
	const labelsOfSpecs: string[] = [];
	const projectControlled = new Map<string, ProjectControlled>();
	calls.forEach((call, index) => {
		const local = problems.at(labels[index]);
		let spec: LaunchSpec | undefined;
		switch (call.kind) {
			case "resume":
				spec = resolveResumeCall(call, sessions, rosterState, context, local, (agent) =>
					resolveAgentCall(call, agent, agents(), options, context, local),
				);
				break;
			case "agent":
				spec = resolveAgentCall(call, call.agent, agents(), options, context, local);
				break;
			case "roster_entry":
				spec = resolveRosterCall(call, rosterState, context, local);
				break;
			case "ad_hoc":
				spec = resolveAdHocCall(call, call.agentType, context, local);
				break;
		}
		if (local.size > 0 || !spec) return;
		const item = projectItem(spec);
		if (item) projectControlled.set(`${item.file}\0${item.digest}`, item);
		specs.push(spec);
		labelsOfSpecs.push(labels[index]);
	});
	const accepted = specs.length === 0 || (await accepts(specs, labelsOfSpecs));
	// A problem anywhere in the subject (another part of a graph, say) refuses it: no one is asked about trust.
	if (problems.subjectSize > 0 || !accepted) return undefined;
	return (await checkTrusted([...projectControlled.values()], context, problems)) ? specs : undefined;
}

/**
 * The trust item of a launch from a project agent, new or resumed: the file and the digest of the
 * content the child will run (a resume of a changed file says so).
 */
function projectItem(spec: LaunchSpec): ProjectControlled | undefined {
	const p = spec.provenance;
	if (p.kind !== "agent" || p.agentSource !== "project" || !p.agentDigest) return undefined;
	const changed = p.definitionDigest !== undefined && p.definitionDigest !== p.agentDigest;
	return {
		what: `project agent ${JSON.stringify(p.agentName)}`,
		file: p.agentFile,
		projectDir: projectDirOf(p.agentFile),
		digest: p.agentDigest,
		note: changed ? "changed since the resumed session started from it" : undefined,
	};
}

/** A roster entry: its settings apply; manual repeats must agree (docs/rules.md §Calling the tool). */
function resolveRosterCall(
	call: RosterEntryCall,
	state: RosterState,
	context: LaunchContext,
	problems: Problems,
): LaunchSpec | undefined {
	const usable = usableRosterEntry(state, call.rosterEntry, problems, settingsFilePath(context.agentDir));
	if (!usable) return undefined;
	const { entry, roster } = usable;
	const before = problems.size;
	const unchanged = recheckNormalizedEntry(entry, problems);
	const conflict = (field: string, given: unknown, expected: unknown) =>
		problems.add(
			`roster entry "${entry.name}": ${field} ${JSON.stringify(given)} conflicts with the entry's ${JSON.stringify(expected ?? null)}; omit ${field} or repeat the entry's value`,
		);
	if (call.agentType !== undefined && call.agentType !== entry.harness)
		conflict("agent_type", call.agentType, entry.harness);
	if (call.model !== undefined && call.model !== entry.model) conflict("model", call.model, entry.model);
	if (call.effort !== undefined && call.effort !== entry.effort) conflict("effort", call.effort, entry.effort);
	let cwd = entry.cwd;
	if (call.cwd !== undefined) {
		const given = resolveAdHocCwd(context.cwd, call.cwd, problems);
		if (given !== undefined && entry.cwd !== undefined && given !== entry.cwd) conflict("cwd", given, entry.cwd);
		cwd ??= given;
	}
	cwd ??= context.cwd;
	// Checked at load, but it may have gone since.
	if (entry.cwd !== undefined) checkExisting(entry.cwd, "dir", problems.at(`roster entry "${entry.name}": cwd`));
	const givenResources = resolveResourceArgument(call.resources, cwd, problems.at(`roster entry "${entry.name}"`));
	if (givenResources && canonicalJson(givenResources) !== canonicalJson(entry.resources ?? DEFAULT_RESOURCES)) {
		conflict("resources", givenResources, entry.resources ?? DEFAULT_RESOURCES);
	}
	if (call.rosterFile !== undefined && call.rosterFile !== null) {
		if (entry.harness !== "pi") {
			problems.add(`roster entry "${entry.name}": roster_file is Pi-only; omit it or pass null for ${entry.harness}`);
		} else {
			const given = resolveAdHocPath(cwd, call.rosterFile, "file", problems.at("roster_file"));
			if (given !== undefined && given !== entry.rosterFile) conflict("roster_file", given, entry.rosterFile);
		}
	}
	// A normalized pi entry's roster is its own agent.json: when the recheck above failed on it, say so once.
	const childRosterDigest =
		entry.rosterFile && (unchanged || entry.rosterFile !== entry.agentFile)
			? validateChildRoster(entry.rosterFile, problems)
			: undefined;
	if (problems.size > before) return undefined;

	const skills = skillSelection(entry, problems);
	return {
		...baseSpec(call, entry.harness, cwd, context),
		model: entry.model,
		effort: entry.effort,
		rosterFile: entry.harness === "pi" ? entry.rosterFile : undefined,
		resources: entry.resources,
		...skills,
		provenance: {
			kind: "roster_entry",
			rosterSource: roster.source,
			rosterEntry: entry.name,
			agentDefinitionFile: entry.agentFile,
			definitionDigest: entry.digest,
			childRosterDigest,
		},
	};
}
