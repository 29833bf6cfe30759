/**
 * Resolves a resume (`resume_session_id`) into a LaunchSpec under the rules of
 * docs/rules.md §Resumption:
 * - omitted selection settings reuse the saved launch, even when the parent's cwd differs;
 * - a roster-selected session keeps its harness, cwd, resources, roster source/entry, child roster and
 *   roster-defined model/effort; a changed entry or child roster is rejected, a disabled roster must be
 *   re-enabled first;
 * - an ad-hoc session with explicit resources or a child roster keeps its harness, cwd and selection;
 *   model and effort may change;
 * - a plain session keeps its harness and cwd (the native session lives there); model and effort may change;
 * - approval and tool controls come from the current call only;
 * - an unrecorded id accepts an explicit ordinary call, but no roster entry or resource selection;
 * - a session that is running now is never resumed.
 */
import { readFileSync } from "node:fs";
import { type AgentDefinition, parseAgentFile } from "../config/agents.ts";
import type { RosterState } from "../config/extension-state.ts";
import { requireExisting, resolveAdHocCwd, resolveAdHocPath } from "../config/paths.ts";
import { canonicalJson, recheckNormalizedEntry } from "../config/roster.ts";
import type { InteractiveOptions, LaunchSpec } from "../core/launch-spec.ts";
import type { LaunchRecord } from "../sessions/launch-record.ts";
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

/** What resume resolution needs from the launch records. */
export interface ResumeLookup {
	get(nativeSessionId: string): LaunchRecord | undefined;
	isActive(nativeSessionId: string): boolean;
}

/**
 * @param resolveAgent resolves `call.agent` as a new launch (for an unrecorded id given with `agent`).
 * @returns the spec, or `undefined` with every problem pushed to `problems`.
 */
export function resolveResumeCall(
	call: ChildCall,
	sessions: ResumeLookup,
	rosterState: RosterState,
	context: LaunchContext,
	problems: string[],
	resolveAgent: () => LaunchSpec | undefined,
): LaunchSpec | undefined {
	const id = call.resumeSessionId as string;
	const before = problems.length;
	if (sessions.isActive(id)) {
		problems.push(`resume_session_id "${id}": that session is running now; resume it after it has finished`);
	}
	const record = sessions.get(id);
	const spec = record
		? resumeRecorded(call, record, rosterState, context, problems)
		: resumeUnrecorded(call, id, context, problems, resolveAgent);
	if (!spec || problems.length > before) return undefined;
	spec.session = { kind: "resume", nativeSessionId: id };
	spec.interactive = resumedInteractive(call, record?.interactive, spec.interactive);
	if (!spec.interactive && (call.stayOpen !== undefined || call.inactivityTimeoutMs !== undefined)) {
		problems.push(
			`resume_session_id "${id}": stay_open and inactivity_timeout_ms apply only to an interactive run (give interactive: true)`,
		);
		return undefined;
	}
	return spec;
}

/**
 * Interactive settings of a resume (docs/rules.md §Resumption): omitted ones reuse the saved launch's, explicit
 * ones override; `interactive: false` runs headless.
 * @param fromCall what the call alone resolved to (its values over the settings defaults).
 */
function resumedInteractive(
	call: ChildCall,
	saved: InteractiveOptions | undefined,
	fromCall: InteractiveOptions | undefined,
): InteractiveOptions | undefined {
	if (call.interactive === false || (call.interactive === undefined && !saved)) return undefined;
	const base = saved ?? (fromCall as InteractiveOptions);
	return {
		stayOpen: call.stayOpen ?? base.stayOpen,
		inactivityTimeoutMs: call.inactivityTimeoutMs === undefined ? base.inactivityTimeoutMs : call.inactivityTimeoutMs,
	};
}

function resumeUnrecorded(
	call: ChildCall,
	id: string,
	context: LaunchContext,
	problems: string[],
	resolveAgent: () => LaunchSpec | undefined,
): LaunchSpec | undefined {
	const where = `resume_session_id "${id}"`;
	const added = [
		call.rosterEntry !== undefined && "roster_entry",
		call.resources !== undefined && call.resources !== null && "resources",
		call.rosterFile !== undefined && call.rosterFile !== null && "roster_file",
	].filter(Boolean);
	if (added.length > 0) {
		problems.push(
			`${where}: this parent has no launch record of that session, so ${added.join(", ")} cannot be added to it; start a new session for a selected role or resources`,
		);
		return undefined;
	}
	if (call.agent !== undefined) {
		const spec = resolveAgent();
		// codex keeps developer instructions in its thread (see resumeRecorded).
		if (spec?.harness === "codex") delete spec.systemPromptAddition;
		return spec && inSessionCwd(spec, call, id, context, problems);
	}
	if (call.agentType === undefined) {
		problems.push(
			`${where}: this parent (on this branch) has no launch record of that session; give agent_type to resume it as an ordinary ad-hoc session`,
		);
		return undefined;
	}
	const spec = resolveAdHocCall(call, call.agentType, context, problems);
	return spec && inSessionCwd(spec, call, id, context, problems);
}

/**
 * A session without a launch record resumes where it lives: the directory its harness recorded for it.
 * An explicit `cwd` must agree. When the harness has no record of the session either, the spec stays as
 * resolved (the adapter reports a missing session where it can).
 */
function inSessionCwd(
	spec: LaunchSpec,
	call: ChildCall,
	id: string,
	context: LaunchContext,
	problems: string[],
): LaunchSpec | undefined {
	const own = context.sessionCwd?.(spec.harness, id);
	if (own === undefined || own === spec.cwd) return spec;
	if (call.cwd !== undefined) {
		problems.push(
			`resume_session_id "${id}": cwd ${JSON.stringify(spec.cwd)} disagrees with the directory the ${spec.harness} session was started in, ${JSON.stringify(own)} (from its own session record); omit cwd or pass that directory`,
		);
		return undefined;
	}
	if (!check(problems, () => requireExisting(own, "dir", `resume_session_id "${id}": the session's own cwd`))) {
		return undefined;
	}
	spec.cwd = own;
	spec.projectTrusted = context.trust(own);
	return spec;
}

function resumeRecorded(
	call: ChildCall,
	record: LaunchRecord,
	rosterState: RosterState,
	context: LaunchContext,
	problems: string[],
): LaunchSpec | undefined {
	const where = `resume_session_id "${record.nativeSessionId}"`;
	const conflict = (field: string, given: unknown, saved: unknown) =>
		problems.push(
			`${where}: ${field} ${JSON.stringify(given)} conflicts with the session's saved ${saved === undefined ? "launch, which has none" : JSON.stringify(saved)}; omit ${field} or start a new session`,
		);
	if (call.agentType !== undefined && call.agentType !== record.harness)
		conflict("agent_type", call.agentType, record.harness);
	if (call.agent !== undefined && call.agent !== record.agentName) conflict("agent", call.agent, record.agentName);
	if (call.rosterEntry !== undefined && call.rosterEntry !== record.rosterEntry) {
		conflict("roster_entry", call.rosterEntry, record.rosterEntry);
	}
	if (call.cwd !== undefined) {
		const given = attempt(problems, () => resolveAdHocCwd(context.cwd, call.cwd));
		if (given !== undefined && given !== record.cwd) conflict("cwd", given, record.cwd);
	}
	check(problems, () => requireExisting(record.cwd, "dir", `${where}: the saved cwd`));
	const givenResources = resolveResourceArgument(call.resources, record.cwd, `${where}: `, problems);
	const givenRosterFile =
		call.rosterFile === undefined || call.rosterFile === null
			? undefined
			: attempt(problems, () => resolveAdHocPath(record.cwd, call.rosterFile as string, "file", "roster_file"));
	if (record.kind === "plain") {
		if (givenResources || givenRosterFile) {
			problems.push(
				`${where}: the session was started without resources or a child roster; they cannot be added on resume, start a new session`,
			);
		}
	} else {
		if (givenResources && canonicalJson(givenResources) !== canonicalJson(record.resources ?? DEFAULT_RESOURCES)) {
			conflict("resources", givenResources, record.resources ?? DEFAULT_RESOURCES);
		}
		if (givenRosterFile && givenRosterFile !== record.rosterFile)
			conflict("roster_file", givenRosterFile, record.rosterFile);
	}
	if (record.kind === "roster") {
		if (call.model !== undefined && call.model !== record.model) conflict("model", call.model, record.model);
		if (call.effort !== undefined && call.effort !== record.effort) conflict("effort", call.effort, record.effort);
	}

	const spec = baseSpec(call, record.harness, record.cwd, context);
	spec.model = record.kind === "roster" ? record.model : (call.model ?? record.model);
	spec.effort = record.kind === "roster" ? record.effort : (call.effort ?? record.effort);
	spec.resources = record.resources;
	spec.rosterFile = record.rosterFile;
	spec.taskName = call.taskName ?? record.taskName;
	let agentDigest: string | undefined;
	if (record.agentFile) {
		const agent = currentAgent(record, where, problems);
		agentDigest = agent?.digest;
		// pi and claude build their system prompt on every start; codex keeps its developer instructions
		// in the thread it resumes, so passing them again would repeat them.
		if (agent?.systemPrompt && record.harness !== "codex") spec.systemPromptAddition = agent.systemPrompt;
	}
	spec.provenance = {
		agentName: record.agentName,
		agentFile: record.agentFile,
		agentSource: record.agentSource,
		rosterSource: record.rosterSource,
		rosterEntry: record.rosterEntry,
		agentDefinitionFile: record.agentDefinitionFile,
		definitionDigest: record.definitionDigest,
		agentDigest,
		childRosterDigest: record.childRosterDigest,
	};
	if (record.rosterFile) {
		const digest = validateChildRoster(record.rosterFile, problems);
		if (digest !== undefined && record.childRosterDigest !== undefined && digest !== record.childRosterDigest) {
			problems.push(
				`${where}: the child roster ${record.rosterFile} changed since the session started (its entries' settings differ); start a new session to use it`,
			);
		}
	}
	if (record.kind === "roster") checkRosterEntry(record, rosterState, where, problems, spec);
	return spec;
}

/**
 * The Markdown agent a session started from, as its file is now (its instructions are part of the role;
 * an edit applies from the next launch on, as it would for a new session; a project agent's edit must pass
 * the trust gate again).
 */
function currentAgent(record: LaunchRecord, where: string, problems: string[]): AgentDefinition | undefined {
	const file = record.agentFile as string;
	let content: string;
	try {
		content = readFileSync(file, "utf8");
	} catch (error) {
		problems.push(
			`${where}: the session's agent definition ${file} cannot be read (${(error as NodeJS.ErrnoException).code}); start a new session`,
		);
		return undefined;
	}
	const parsed = parseAgentFile(content, file, record.agentSource ?? "user");
	if (!parsed.ok) {
		problems.push(...parsed.problems.map((problem) => `${where}: ${file}: ${problem}`));
		return undefined;
	}
	return parsed.agent;
}

/** The roster entry of a roster-selected session must still be there, enabled and unchanged. */
function checkRosterEntry(
	record: LaunchRecord,
	state: RosterState,
	where: string,
	problems: string[],
	spec: LaunchSpec,
): void {
	const roster = state.roster;
	if (!roster) {
		problems.push(`${where}: the roster could not be loaded: ${state.error ?? "no roster"}`);
		return;
	}
	if (roster.source !== record.rosterSource) {
		problems.push(
			`${where}: the session was started from roster ${record.rosterSource}, but the roster in force is ${roster.source}; select that roster again to resume it`,
		);
		return;
	}
	const entry = roster.entries.find((e) => e.name === record.rosterEntry);
	if (!entry) {
		problems.push(
			`${where}: roster entry "${record.rosterEntry}" is no longer in ${roster.source}; start a new session`,
		);
		return;
	}
	if (!state.enabled) {
		problems.push(`${where}: the roster (${roster.source}) is disabled; re-enable it with /agentshell-roster first`);
		return;
	}
	if (entry.digest !== record.definitionDigest || entry.agentFile !== record.agentDefinitionFile) {
		problems.push(
			`${where}: roster entry "${entry.name}" changed since the session started; a changed role cannot resume it, start a new session`,
		);
		return;
	}
	if (!check(problems, () => recheckNormalizedEntry(entry))) return;
	applySkillReferences(spec, entry, problems);
}
