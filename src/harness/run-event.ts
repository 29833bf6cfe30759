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
	/** Terminal event: the harness finished its work. `status` is the harness's own verdict. */
	| { type: "done"; status: "completed" | "failed" | "aborted"; error?: string };
