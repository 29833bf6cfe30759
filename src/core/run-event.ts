/**
 * Normalized child stream items (docs/architecture.md). Each harness adapter maps its native records onto
 * these; everything above `harness/` sees only RunEvents. One named type per variant.
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

/** The native session id (pi header id, codex thread id, claude session id). */
export interface SessionEvent {
	type: "session";
	nativeSessionId: string;
}

/** Assistant text. `final` marks a complete message text rather than a streaming delta. */
export interface AssistantTextEvent {
	type: "assistant_text";
	text: string;
	final: boolean;
	model?: string;
}

/** Reasoning text the harness chose to show. */
export interface ThinkingEvent {
	type: "thinking";
	text: string;
}

/** A tool call started; `args` as the model sent them. */
export interface ToolStartEvent {
	type: "tool_start";
	toolCallId: string;
	toolName: string;
	args: unknown;
}

/** A tool call ended with its output text. */
export interface ToolEndEvent {
	type: "tool_end";
	toolCallId: string;
	toolName: string;
	output: string;
	isError: boolean;
}

/** Usage of one assistant message / turn, to be added to the run's totals. `model` as reported by the child. */
export interface UsageEvent {
	type: "usage";
	usage: Partial<Usage>;
	model?: string;
}

/** The model's turn ended with an error (provider error, failed turn). Not necessarily terminal. */
export interface ErrorEvent {
	type: "error";
	message: string;
}

/** A non-fatal note from the harness (e.g. codex's "model metadata not found"), kept in `RunResult.diagnostics`. */
export interface DiagnosticEvent {
	type: "diagnostic";
	message: string;
}

/** The harness refused a tool call for lack of permission (claude `result.permission_denials`). */
export interface PermissionDeniedEvent {
	type: "permission_denied";
	denial: PermissionDenial;
}

/**
 * The child submitted a structured result through its harness's mechanism (pi: the `submit_result` tool's
 * arguments; claude: the `result` record's `structured_output`); docs/structured-output.md. Not yet
 * validated: the run layer checks it against the spec's `outputSchema`.
 */
export interface StructuredOutputEvent {
	type: "structured_output";
	value: unknown;
}

/** Terminal event: the harness finished its work. `status` is the harness's own verdict. */
export interface DoneEvent {
	type: "done";
	status: "completed" | "failed" | "aborted";
	error?: string;
}

/** Every run event; `type` tells the variants apart. */
export type RunEvent =
	| SessionEvent
	| AssistantTextEvent
	| ThinkingEvent
	| ToolStartEvent
	| ToolEndEvent
	| UsageEvent
	| ErrorEvent
	| DiagnosticEvent
	| PermissionDeniedEvent
	| StructuredOutputEvent
	| DoneEvent;
