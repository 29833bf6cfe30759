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
 * - a session that is running now is never resumed (refused where it is claimed, `LaunchRecords.claimResumes`).
 */
import type { AgentFormat } from "../config/agent-definition.ts";
import { type AgentDefinition, parseAgentFileAs } from "../config/agents.ts";
import type { RosterState } from "../config/extension-state.ts";
import { checkExisting, resolveAdHocCwd, resolveAdHocPath } from "../config/paths.ts";
import { recheckNormalizedEntry } from "../config/roster-normalized.ts";
import { canonicalJson } from "../config/settings-digest.ts";
import type { AgentProvenance, InteractiveOptions, LaunchSpec, RosterEntryProvenance } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import { readUserFile } from "../core/user-file.ts";
import type { LaunchRecord } from "../sessions/launch-record.ts";
import type { ResumeCall } from "./child-call.ts";
import type { LaunchContext } from "./launch-context.ts";
import {
	baseSpec,
	resolveAdHocCall,
	skillSelection,
	usableRosterEntry,
	validateChildRoster,
} from "./resolve-helpers.ts";
import { DEFAULT_RESOURCES, resolveResourceArgument } from "./resolve-resources.ts";

/**
 * What resume resolution needs from the launch records. A session that is running now is refused where it
 * is claimed (`LaunchRecords.claimResumes`), not here.
 */
export interface ResumeLookup {
	get(nativeSessionId: string): LaunchRecord | undefined;
}

/**
 * @param resolveAgent resolves the agent definition it is given as a new launch (for an unrecorded id
 *   given with `agent`).
 * @returns the spec, or `undefined` with every problem added to `problems`.
 */
export function resolveResumeCall(
	call: ResumeCall,
	sessions: ResumeLookup,
	rosterState: RosterState,
	context: LaunchContext,
	problems: Problems,
	resolveAgent: (agent: string) => LaunchSpec | undefined,
): LaunchSpec | undefined {
	const id = call.resumeSessionId;
	const before = problems.size;
	const record = sessions.get(id);
	const spec = record
		? resumeRecorded(call, record, rosterState, context, problems)
		: resumeUnrecorded(call, id, context, problems, resolveAgent);
	if (!spec || problems.size > before) return undefined;
	const interactive = resumedInteractive(call, record?.interactive, spec.interactive);
	if (!interactive && (call.stayOpen !== undefined || call.inactivityTimeoutMs !== undefined)) {
		problems.add(
			`resume_session_id "${id}": stay_open and inactivity_timeout_ms apply only to an interactive run (give interactive: true)`,
		);
		return undefined;
	}
	return { ...spec, interactive, session: { kind: "resume", nativeSessionId: id } };
}

/**
 * Interactive settings of a resume (docs/rules.md §Resumption): omitted ones reuse the saved launch's, explicit
 * ones override; `interactive: false` runs headless.
 * @param fromCall what the call alone resolved to (its values over the settings defaults).
 */
function resumedInteractive(
	call: ResumeCall,
	saved: InteractiveOptions | undefined,
	fromCall: InteractiveOptions | undefined,
): InteractiveOptions | undefined {
	if (call.interactive === false || (call.interactive === undefined && !saved)) return undefined;
	const base = saved ?? (fromCall as InteractiveOptions);
	return {
		stayOpen: call.stayOpen ?? base.stayOpen,
		inactivityTimeoutMs: call.inactivityTimeoutMs === undefined ? base.inactivityTimeoutMs : call.inactivityTimeoutMs,
		// Not recorded: today's setting.
		dialogTimeoutMs: fromCall?.dialogTimeoutMs,
	};
}

function resumeUnrecorded(
	call: ResumeCall,
	id: string,
	context: LaunchContext,
	problems: Problems,
	resolveAgent: (agent: string) => LaunchSpec | undefined,
): LaunchSpec | undefined {
	const where = `resume_session_id "${id}"`;
	const added = [
		call.rosterEntry !== undefined && "roster_entry",
		call.resources !== undefined && call.resources !== null && "resources",
		call.rosterFile !== undefined && call.rosterFile !== null && "roster_file",
	].filter(Boolean);
	if (added.length > 0) {
		problems.add(
			`${where}: this parent has no launch record of that session, so ${added.join(", ")} cannot be added to it; start a new session for a selected role or resources`,
		);
		return undefined;
	}
	if (call.agent !== undefined) {
		const spec = resolveAgent(call.agent);
		if (!spec) return undefined;
		// codex keeps developer instructions in its thread (see resumeRecorded).
		const { systemPromptAddition, ...withoutBody } = spec;
		const resumed = spec.harness === "codex" ? withoutBody : { ...withoutBody, systemPromptAddition };
		return inSessionCwd(resumed, call, id, context, problems);
	}
	if (call.agentType === undefined) {
		problems.add(
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
	call: ResumeCall,
	id: string,
	context: LaunchContext,
	problems: Problems,
): LaunchSpec | undefined {
	const own = context.sessionCwd?.(spec.harness, id);
	if (own === undefined || own === spec.cwd) return spec;
	const where = problems.at(`resume_session_id "${id}"`);
	if (call.cwd !== undefined) {
		where.add(
			`cwd ${JSON.stringify(spec.cwd)} disagrees with the directory the ${spec.harness} session was started in, ${JSON.stringify(own)} (from its own session record); omit cwd or pass that directory`,
		);
		return undefined;
	}
	if (!checkExisting(own, "dir", where.at("the session's own cwd"))) return undefined;
	return { ...spec, cwd: own, projectTrusted: context.trust(own) };
}

/** The saved launch of `record` with what this call may change; checks that nothing it locks is contradicted. */
function resumeRecorded(
	call: ResumeCall,
	record: LaunchRecord,
	rosterState: RosterState,
	context: LaunchContext,
	problems: Problems,
): LaunchSpec | undefined {
	const where = `resume_session_id "${record.nativeSessionId}"`;
	const saved = problems.at(where);
	checkAgainstRecord(call, record, context, saved);
	const provenance = record.provenance;
	const agent = provenance.kind === "agent" ? currentAgent(provenance, saved) : undefined;
	if (record.rosterFile) checkChildRoster(record.rosterFile, record, saved);
	const roster = record.kind === "roster";
	let skills: Pick<LaunchSpec, "resources" | "skillReferences"> | undefined;
	if (provenance.kind === "roster_entry") skills = checkRosterEntry(provenance, rosterState, saved);
	else if (roster) saved.add("the launch record names no roster entry; start a new session");
	return {
		...baseSpec(call, record.harness, record.cwd, context),
		model: roster ? record.model : (call.model ?? record.model),
		effort: roster ? record.effort : (call.effort ?? record.effort),
		resources: record.resources,
		rosterFile: record.rosterFile,
		taskName: call.taskName ?? record.taskName,
		// pi and claude build their system prompt on every start; codex keeps its developer instructions in
		// the thread it resumes, so passing them again would repeat them.
		systemPromptAddition: record.harness === "codex" ? undefined : agent?.systemPrompt || undefined,
		...skills,
		// The agent file as it is now: a project agent's edit must pass the trust gate again.
		provenance: provenance.kind === "agent" ? { ...provenance, agentDigest: agent?.digest } : provenance,
	};
}

/** Adds a problem for each argument of `call` that contradicts what `record` locks. */
function checkAgainstRecord(call: ResumeCall, record: LaunchRecord, context: LaunchContext, problems: Problems): void {
	const conflict = (field: string, given: unknown, saved: unknown) =>
		problems.add(
			`${field} ${JSON.stringify(given)} conflicts with the session's saved ${saved === undefined ? "launch, which has none" : JSON.stringify(saved)}; omit ${field} or start a new session`,
		);
	const { provenance } = record;
	const agentName = provenance.kind === "agent" ? provenance.agentName : undefined;
	const rosterEntry = provenance.kind === "roster_entry" ? provenance.rosterEntry : undefined;
	if (call.agentType !== undefined && call.agentType !== record.harness)
		conflict("agent_type", call.agentType, record.harness);
	if (call.agent !== undefined && call.agent !== agentName) conflict("agent", call.agent, agentName);
	if (call.rosterEntry !== undefined && call.rosterEntry !== rosterEntry) {
		conflict("roster_entry", call.rosterEntry, rosterEntry);
	}
	if (call.cwd !== undefined) {
		const given = resolveAdHocCwd(context.cwd, call.cwd, problems);
		if (given !== undefined && given !== record.cwd) conflict("cwd", given, record.cwd);
	}
	checkExisting(record.cwd, "dir", problems.at("the saved cwd"));
	const givenResources = resolveResourceArgument(call.resources, record.cwd, problems);
	const givenRosterFile =
		call.rosterFile === undefined || call.rosterFile === null
			? undefined
			: resolveAdHocPath(record.cwd, call.rosterFile, "file", problems.at("roster_file"));
	if (record.kind === "plain") {
		if (givenResources || givenRosterFile) {
			problems.add(
				"the session was started without resources or a child roster; they cannot be added on resume, start a new session",
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
}

/** The child roster of the session must still parse to what it was at launch. */
function checkChildRoster(file: string, record: LaunchRecord, problems: Problems): void {
	const digest = validateChildRoster(file, problems);
	const atLaunch = record.provenance.childRosterDigest;
	if (digest !== undefined && atLaunch !== undefined && digest !== atLaunch) {
		problems.add(
			`the child roster ${file} changed since the session started (its entries' settings differ); start a new session to use it`,
		);
	}
}

/**
 * The Markdown agent a session started from, as its file is now (its instructions are part of the role;
 * an edit applies from the next launch on, as it would for a new session; a project agent's edit must pass
 * the trust gate again).
 */
function currentAgent(provenance: AgentProvenance, problems: Problems): AgentDefinition | undefined {
	const file = provenance.agentFile;
	const read = readUserFile(file);
	if ("problem" in read) {
		problems.add(`the session's agent definition ${file} cannot be read (it ${read.problem}); start a new session`);
		return undefined;
	}
	const format = (provenance.agentFormat ?? "pi") as AgentFormat;
	return parseAgentFileAs(format, read.text, file, provenance.agentSource, problems.at(file));
}

/**
 * The roster entry of a roster-selected session must still be there, enabled and unchanged.
 * @returns the entry's skill selection for this launch (see `skillSelection`).
 */
function checkRosterEntry(
	provenance: RosterEntryProvenance,
	state: RosterState,
	problems: Problems,
): Pick<LaunchSpec, "resources" | "skillReferences"> | undefined {
	const { rosterSource, rosterEntry, definitionDigest, agentDefinitionFile } = provenance;
	// The source first: an entry of the same name in another roster is another role.
	if (state.roster && state.roster.source !== rosterSource) {
		problems.add(
			`the session was started from roster ${rosterSource}, but the roster in force is ${state.roster.source}; select that roster again to resume it`,
		);
		return undefined;
	}
	const usable = usableRosterEntry(state, rosterEntry, problems);
	if (!usable) return undefined;
	const { entry } = usable;
	if (entry.digest !== definitionDigest || entry.agentFile !== agentDefinitionFile) {
		problems.add(
			`roster entry "${entry.name}" changed since the session started; a changed role cannot resume it, start a new session`,
		);
		return undefined;
	}
	if (!recheckNormalizedEntry(entry, problems)) return undefined;
	return skillSelection(entry, problems);
}
