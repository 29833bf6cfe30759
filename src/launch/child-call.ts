/**
 * One child of a `subagent` call as the launch layer sees it: exactly one of `agent` (a Markdown agent
 * definition), `rosterEntry` (a roster entry) or `agentType` (an ad-hoc run of a harness), plus the
 * task and per-call settings. Tool arguments map onto this one to one (snake_case → camelCase).
 */
import type { Harness } from "../core/launch-spec.ts";

export interface ChildCall {
	agent?: string;
	rosterEntry?: string;
	agentType?: Harness;
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
	/** Continue this native session instead of starting one (docs/rules.md §Resumption). */
	resumeSessionId?: string;
}
