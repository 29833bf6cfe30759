/**
 * One child of a `subagent` call as the launch layer sees it: exactly one of `agent` (a Markdown agent
 * definition), `rosterEntry` (a roster entry) or `agentType` (an ad-hoc run of a harness), plus the
 * task and per-call settings. Tool arguments map onto this one to one (snake_case → camelCase).
 */
import type { Harness } from "./launch-spec.ts";

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
	/** Raw resource selection; `null` and omission both mean "not set" (spec §Calling the existing tool). */
	resources?: unknown;
	/** Raw child roster file; `null` and omission both mean "not set". Pi only. */
	rosterFile?: string | null;
	allowedTools?: string[];
	disallowedTools?: string[];
	/** This call only; never restored on resume. Default false. */
	autoApprove?: boolean;
}

/** `agent "scout"`, `roster entry "x"` or `ad-hoc codex`, for messages. */
export function describeChildCall(call: ChildCall): string {
	if (call.agent !== undefined) return `agent "${call.agent}"`;
	if (call.rosterEntry !== undefined) return `roster entry "${call.rosterEntry}"`;
	return `ad-hoc ${call.agentType ?? "?"}`;
}
