/**
 * `codex exec --json` records (codex-cli 0.171.0; `exec_events.rs` in openai/codex, verified in
 * docs/harness-support.md §How each CLI is driven). Wire types only; the mapping to RunEvents is in `events.ts`.
 */

/**
 * Token counts of `turn.completed`. **Cumulative for the whole thread** (earlier processes and resumes
 * included), not per turn. `input_tokens` includes `cached_input_tokens`.
 */
export interface CodexUsage {
	input_tokens?: number;
	cached_input_tokens?: number;
	cache_write_input_tokens?: number;
	output_tokens?: number;
	reasoning_output_tokens?: number;
}

/** Lifecycle of a tool-like item. A command denied by the sandbox produces no item at all. */
export type CodexItemStatus = "in_progress" | "completed" | "failed" | "declined";

/** The `item` of `item.started` / `item.updated` / `item.completed`. `id` is `item_<n>`, per process. */
export type CodexItem =
	| { id: string; type: "agent_message"; text: string }
	| { id: string; type: "reasoning"; text: string }
	| {
			id: string;
			type: "command_execution";
			command: string;
			aggregated_output: string;
			exit_code: number | null;
			status: CodexItemStatus;
	  }
	| {
			id: string;
			type: "file_change";
			changes: Array<{ path: string; kind: "add" | "delete" | "update" }>;
			status: CodexItemStatus;
	  }
	| {
			id: string;
			type: "mcp_tool_call";
			server: string;
			tool: string;
			arguments: unknown;
			result: { content?: Array<{ type: string; text?: string }>; structured_content?: unknown } | null;
			error: { message: string } | null;
			status: CodexItemStatus;
	  }
	| {
			id: string;
			type: "collab_tool_call";
			tool?: string;
			sender_thread_id?: string;
			receiver_thread_ids?: string[];
			prompt?: string | null;
			status: CodexItemStatus;
	  }
	| { id: string; type: "web_search"; query: string }
	| { id: string; type: "todo_list"; items: Array<{ text: string; completed: boolean }> }
	| { id: string; type: "plan"; text: string }
	/** Non-fatal: e.g. "Model metadata for `x` not found. Defaulting to fallback metadata". */
	| { id: string; type: "error"; message: string };

export type CodexRecord =
	| { type: "thread.started"; thread_id: string }
	| { type: "turn.started" }
	| { type: "item.started"; item: CodexItem }
	| { type: "item.updated"; item: CodexItem }
	| { type: "item.completed"; item: CodexItem }
	| { type: "turn.completed"; usage?: CodexUsage }
	| { type: "turn.failed"; error?: { message?: string } }
	/** A stream-level error; not terminal by itself ("Reconnecting… waiting for network" repeats forever). */
	| { type: "error"; message?: string };
