/**
 * The subset of Pi's `--mode json` records the pi adapter reads (docs/json.md of Pi 1.6).
 * Wire types only; the mapping to RunEvents is in `events.ts`.
 */

/** Token counts and cost (USD) of one assistant message. */
export interface PiUsage {
	input?: number;
	output?: number;
	cacheRead?: number;
	cacheWrite?: number;
	totalTokens?: number;
	cost?: { total?: number };
}

/** One content part of an assistant message: text, reasoning, or a tool call. */
export type PiContent =
	| { type: "text"; text: string }
	| { type: "thinking"; thinking: string }
	| { type: "toolCall"; id: string; name: string; arguments: unknown };

/** A complete assistant message, as `message_end` carries it. */
export interface PiAssistantMessage {
	role: "assistant";
	content: PiContent[];
	model?: string;
	provider?: string;
	usage?: PiUsage;
	stopReason?: "pending" | "stop" | "length" | "toolUse" | "error" | "aborted" | "deferred";
	errorMessage?: string;
}

/** The session header, first on stdout: the native session id and its cwd. */
export interface PiSessionRecord {
	type: "session";
	id: string;
	cwd?: string;
}

/** The first `message_start` of a run is the system message; `toolsAdded` lists the tools the child offers. */
export interface PiMessageStartRecord {
	type: "message_start";
	message?: { role?: string; toolsAdded?: Array<{ name?: string }> };
}

/** A streamed change of the assistant message being written (`text_delta`, `thinking_delta`, …). */
export interface PiMessageUpdateRecord {
	type: "message_update";
	assistantMessageEvent?: { type: string; delta?: string };
}

/**
 * A tool result message. `usage` is what the tool itself spent (for example a `subagent` call's children,
 * and through them every descendant): Pi counts it in the session's totals, and so does this adapter.
 */
export interface PiToolResultMessage {
	role: "toolResult";
	usage?: PiUsage;
}

/** A message is complete: an assistant message with its usage, a tool result, or a user or system message. */
export interface PiMessageEndRecord {
	type: "message_end";
	message: PiAssistantMessage | PiToolResultMessage | { role: "user" | "system" };
}

/** A tool call starts running, with its arguments. */
export interface PiToolStartRecord {
	type: "tool_execution_start";
	toolCallId: string;
	toolName: string;
	args?: unknown;
}

/** A tool call has finished, with its output. */
export interface PiToolEndRecord {
	type: "tool_execution_end";
	toolCallId: string;
	toolName: string;
	/** `details` is the tool's own (submit_result: `{ value }`, the structured result). */
	result?: { content?: Array<{ type: string; text?: string }>; details?: unknown };
	isError?: boolean;
}

/** The terminal record: the run has settled (`aborted` when it was cut short). */
export interface PiSettledRecord {
	type: "agent_settled";
	aborted?: boolean;
}

/** Every stdout record the adapter reads; `type` tells the variants apart. */
export type PiRecord =
	| PiSessionRecord
	| PiMessageStartRecord
	| PiMessageUpdateRecord
	| PiMessageEndRecord
	| PiToolStartRecord
	| PiToolEndRecord
	| PiSettledRecord
	| PiResponse;

/** An RPC `response` record (Pi's docs/rpc-commands.md): the answer to one stdin command, by `id`. */
export interface PiResponse {
	type: "response";
	id?: string;
	success?: boolean;
	error?: string;
	data?: { sessionId?: unknown };
}
