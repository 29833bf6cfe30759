/**
 * One child's run (docs/architecture.md): the live state published while it runs (`LiveRun`, never with a
 * final status) and the outcome once it has ended (`RunResult`), both as shown in the tool result's
 * `details`.
 */

import type { SentInput } from "./child-input.ts";
import type { Harness } from "./launch-spec.ts";
import type { PermissionDenial, Usage } from "./run-event.ts";

export type RunStatus = "completed" | "failed" | "aborted" | "timed_out";

/**
 * What a running child is doing, from its own stream: `starting` until its first record, `waiting` for the
 * model (a request in flight, thinking included), `tool` while one of its tool calls runs, `writing` while
 * its answer text streams.
 */
export type ChildActivity = "starting" | "waiting" | "tool" | "writing";

/** One tool call the child made, in order. `args` and `output` are bounded. */
export interface ToolActivity {
	toolCallId: string;
	toolName: string;
	args: unknown;
	output?: string;
	isError?: boolean;
	/** Still running when the run ended. */
	pending: boolean;
}

/**
 * The child's messages in order, for rendering: its complete assistant texts, and its tool calls by id
 * (details in `tools`). Bounded: the oldest items are dropped first.
 */
export type TranscriptItem = { kind: "text"; text: string } | { kind: "tool"; toolCallId: string };

/**
 * What one child's run reports, while it runs and once it has ended. Texts are bounded as their fields say;
 * `usage` is in tokens and USD; `durationMs` in ms.
 */
export interface RunReport {
	harness: Harness;
	/** Agent definition or roster entry name; absent for ad-hoc runs. */
	agent?: string;
	taskName?: string;
	task: string;
	cwd: string;
	/** Last non-empty assistant text. */
	finalAnswer: string;
	/**
	 * The child's structured result, set only when the spec had an `outputSchema` and the result validated
	 * against it (docs/structured-output.md); a result that did not validate after the repair turn fails
	 * the run instead, its raw text kept in `finalAnswer`.
	 */
	structuredOutput?: unknown;
	/** Set when the final answer had to fall back (e.g. to partial text of an unfinished message). */
	finalAnswerWarning?: string;
	transcript: TranscriptItem[];
	/** Tool calls in order, bounded (the oldest are dropped first; `toolsDropped` counts them). */
	tools: ToolActivity[];
	toolsDropped?: number;
	usage: Usage;
	/** Model as reported by the child's own assistant messages; `undefined` until one arrives. */
	model?: string;
	nativeSessionId?: string;
	/** pid of the child, which led its own process group. */
	pid?: number;
	exitCode: number | null;
	signal: string | null;
	/** Bounded tail of stderr. */
	stderrTail: string;
	/** Non-JSON stdout lines and protocol faults. Bounded. */
	diagnostics: string[];
	/** Tool calls the harness refused for lack of permission (claude); absent when there were none. */
	permissionDenials?: PermissionDenial[];
	/** Messages sent to the child while it ran, in order, with what became of each; absent when none. */
	inputs?: SentInput[];
	/**
	 * Absolute path of the file with the full answer, when the text for the model or `details` shows only
	 * part of it (docs/tools.md §Artifacts).
	 */
	artifactPath?: string;
	/** Why that file could not be written, when it could not. */
	artifactError?: string;
	/** Absolute path the final answer was also written to (an agent's `output` key). */
	outputFile?: string;
	/** Why the answer could not be written to the agent's `output` file. */
	outputError?: string;
	/** In `details` only: the whole answer's size in bytes when `finalAnswer` there is a preview. */
	finalAnswerBytes?: number;
	/** Wall time, ms. */
	durationMs: number;
	/** When the run started, ms since the Unix epoch (live renders show the elapsed time from it). */
	startedAt?: number;
	/** When the child's stream last reported anything, ms since the Unix epoch (for "last activity N s ago"). */
	lastEventAt?: number;
	/** What the child is doing now; meaningful while it runs. */
	activity?: ChildActivity;
	/** The command that ran, for error messages: `file arg…` with the task text elided. */
	command: string;
	/** Set for a run in the harness's TUI (docs/interactive.md). */
	interactive?: InteractiveInfo;
}

/** A child's run while it runs: published live (and mutated in place) until it ends. */
export interface LiveRun extends RunReport {
	status: "running";
	/** A running child has no final reason yet. */
	error?: never;
}

/** A child's run once it has ended. */
export interface RunResult extends RunReport {
	status: RunStatus;
	/** Why the run did not complete; absent on success. */
	error?: string;
}

/** A child's run as `details` show it: still running, or ended. */
export type RunSnapshot = LiveRun | RunResult;

/** Where an interactive child ran, and what became of its tmux session. */
export interface InteractiveInfo {
	/** The private tmux socket and the session name. */
	socket: string;
	session: string;
	/** `tmux -S <socket> attach -t <name>`. */
	attachCommand: string;
	/** The tmux session (and the harness in it) was kept for the user (`stay_open`). */
	keptOpen: boolean;
	/** Set when the run was ended for inactivity (`inactivity_timeout_ms`). */
	warning?: string;
	/**
	 * While the harness's TUI shows a first-run dialog (docs/interactive.md "First-run dialogs"): what it waits
	 * on, e.g. `its claude_code folder trust dialog: "<the dialog's line>"`.
	 */
	waitingOn?: string;
}

/** Usage with every count at 0 and cost unknown. */
export function emptyUsage(): Usage {
	return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, turns: 0 };
}
