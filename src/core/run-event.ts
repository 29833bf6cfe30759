/**
 * Normalized child stream items (DESIGN.md §2). Each harness adapter maps its native records onto
 * these; everything above `harness/` sees only RunEvents.
 */

/** Token and cost counts. Tokens are counts; `costUsd` is USD, `undefined` when the harness reports none. */
export interface Usage {
	inputTokens: number;
	outputTokens: number;
	cacheReadTokens: number;
	cacheWriteTokens: number;
	/** USD; `undefined` means unknown (never invented). */
	costUsd?: number;
	/** Tokens in the context window after the latest turn, when known. */
	contextTokens?: number;
	/** Assistant turns. */
	turns: number;
}

/** One tool call the harness refused to run because permission was not granted. */
export interface PermissionDenial {
	toolName: string;
	toolCallId?: string;
	/** The tool's arguments as the model sent them. */
	input?: unknown;
}

export type RunEvent =
	/** The native session id (pi header id, codex thread id, claude session id). */
	| { type: "session"; nativeSessionId: string }
	/** Assistant text. `final` marks a complete message text rather than a streaming delta. */
	| { type: "assistant_text"; text: string; final: boolean; model?: string }
	| { type: "thinking"; text: string }
	| { type: "tool_start"; toolCallId: string; toolName: string; args: unknown }
	| { type: "tool_end"; toolCallId: string; toolName: string; output: string; isError: boolean }
	/** Usage of one assistant message / turn, to be added to the run's totals. `model` as reported by the child. */
	| { type: "usage"; usage: Partial<Usage>; model?: string }
	/** The model's turn ended with an error (provider error, failed turn). Not necessarily terminal. */
	| { type: "error"; message: string }
	/** A non-fatal note from the harness (e.g. codex's "model metadata not found"), kept in `RunResult.diagnostics`. */
	| { type: "diagnostic"; message: string }
	/** The harness refused a tool call for lack of permission (claude `result.permission_denials`). */
	| { type: "permission_denied"; denial: PermissionDenial }
	/** Terminal event: the harness finished its work. `status` is the harness's own verdict. */
	| { type: "done"; status: "completed" | "failed" | "aborted"; error?: string };
