/**
 * The subset of Pi's `--mode json` records the pi adapter reads (docs/json.md of Pi 1.6).
 * Wire types only; the mapping to RunEvents is in `events.ts`.
 */

export interface PiUsage {
	input?: number;
	output?: number;
	cacheRead?: number;
	cacheWrite?: number;
	totalTokens?: number;
	cost?: { total?: number };
}

export type PiContent =
	| { type: "text"; text: string }
	| { type: "thinking"; thinking: string }
	| { type: "toolCall"; id: string; name: string; arguments: unknown };

export interface PiAssistantMessage {
	role: "assistant";
	content: PiContent[];
	model?: string;
	provider?: string;
	usage?: PiUsage;
	stopReason?: "pending" | "stop" | "length" | "toolUse" | "error" | "aborted" | "deferred";
	errorMessage?: string;
}

/**
 * A tool result message. `usage` is what the tool itself spent (for example a `subagent` call's children,
 * and through them every descendant): Pi counts it in the session's totals, and so does this adapter.
 */
export interface PiToolResultMessage {
	role: "toolResult";
	usage?: PiUsage;
}

export type PiRecord =
	| { type: "session"; id: string; cwd?: string }
	/** The first `message_start` of a run is the system message; `toolsAdded` lists the tools the child offers. */
	| { type: "message_start"; message?: { role?: string; toolsAdded?: Array<{ name?: string }> } }
	| { type: "message_update"; assistantMessageEvent?: { type: string; delta?: string } }
	| { type: "message_end"; message: PiAssistantMessage | PiToolResultMessage | { role: "user" | "system" } }
	| { type: "tool_execution_start"; toolCallId: string; toolName: string; args?: unknown }
	| {
			type: "tool_execution_end";
			toolCallId: string;
			toolName: string;
			result?: { content?: Array<{ type: string; text?: string }> };
			isError?: boolean;
	  }
	| { type: "agent_settled"; aborted?: boolean }
	| PiResponse;

/** An RPC `response` record (docs/rpc-commands.md): the answer to one stdin command, by `id`. */
export interface PiResponse {
	type: "response";
	id?: string;
	success?: boolean;
	error?: string;
	data?: { sessionId?: unknown };
}
