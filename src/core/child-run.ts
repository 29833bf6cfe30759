/**
 * Call-level child types: how one `subagent` call runs its children and where each child stands. The
 * scheduler (`runs/`) fills them in; tools and ui read them.
 */
import type { Harness } from "./launch-spec.ts";
import type { RunSnapshot, RunStatus } from "./run-result.ts";

/** How a call runs its children: one child, children at once, or steps in order. */
export type CallMode = "single" | "parallel" | "chain";

/** Where one child stands. `skipped`: it never started (an abort, or an earlier chain step failed). */
export type ChildPhase = "pending" | "running" | RunStatus | "skipped";

/** One child of a call, live while the call runs. */
export interface ChildRun {
	/** 0-based position in the call. */
	index: number;
	harness: Harness;
	agent?: string;
	taskName?: string;
	/** A graph node's child: its node key (a coordinator's part: `<key> item 3`), a name to reach it by as well. */
	nodeKey?: string;
	/** The task as given (for chain steps, the template before `{previous}` is substituted). */
	task: string;
	model?: string;
	phase: ChildPhase;
	/** When the child started running, ms since the Unix epoch (before its process has reported anything). */
	startedAt?: number;
	/** Present once the child has started: its live run while it runs, its RunResult once it has ended. */
	result?: RunSnapshot;
	/** Why the child failed without a result (its launch was refused at run time). */
	error?: string;
}
