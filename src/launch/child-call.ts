/**
 * One child of a `subagent` call as the launch layer sees it: a Markdown agent definition, a roster entry,
 * an ad-hoc run of a harness, or a resume of a native session (`kind`), plus the task and per-call
 * settings. Tool arguments map onto these one to one (snake_case → camelCase).
 */
import type { Harness } from "../core/launch-spec.ts";

/**
 * A child that runs an agent definition; `agentType` runs it on that harness (docs/agent-libraries.md
 * §Running a file on another harness).
 */
export interface AgentCall extends ChildSettings {
	kind: "agent";
	agent: string;
	agentType?: Harness;
}

/** A child that runs a roster entry; `agentType` may repeat the entry's harness (it must then agree). */
export interface RosterEntryCall extends ChildSettings {
	kind: "roster_entry";
	rosterEntry: string;
	agentType?: Harness;
}

/** An ad-hoc child of a harness. */
export interface AdHocCall extends ChildSettings {
	kind: "ad_hoc";
	agentType: Harness;
}

/**
 * A resume of a native session (docs/rules.md §Resumption). It may name how the session was launched (each
 * must then agree with the saved launch) or leave that to the launch record.
 */
export interface ResumeCall extends ChildSettings {
	kind: "resume";
	resumeSessionId: string;
	agent?: string;
	rosterEntry?: string;
	agentType?: Harness;
}

export type ChildCall = AgentCall | RosterEntryCall | AdHocCall | ResumeCall;

/** What every kind of child call may set. */
export interface ChildSettings {
	task: string;
	taskName?: string;
	/** Resolved against the tool context's cwd. */
	cwd?: string;
	model?: string;
	effort?: string;
	/** Raw resource selection; `null` and omission both mean "not set" (docs/rules.md §Calling the tool). */
	resources?: unknown;
	/** Raw child roster file; `null` and omission both mean "not set". Pi only. */
	rosterFile?: string | null;
	allowedTools?: string[];
	disallowedTools?: string[];
	/** This call only; never restored on resume. Default false. */
	autoApprove?: boolean;
	/** Run the harness's TUI in tmux (docs/interactive.md). */
	interactive?: boolean;
	/** Interactive only; omitted: the settings default. */
	stayOpen?: boolean;
	/** Interactive only, ms; `null`: never; omitted: the settings default. */
	inactivityTimeoutMs?: number | null;
	/** JSON Schema of the child's structured result (docs/structured-output.md); checked by the tool. */
	outputSchema?: Record<string, unknown>;
}
