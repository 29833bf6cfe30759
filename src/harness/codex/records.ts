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

/** The assistant's answer text. */
export interface CodexAgentMessageItem {
	id: string;
	type: "agent_message";
	text: string;
}

/** A reasoning summary. */
export interface CodexReasoningItem {
	id: string;
	type: "reasoning";
	text: string;
}

/** A shell command and its output. */
export interface CodexCommandItem {
	id: string;
	type: "command_execution";
	command: string;
	aggregated_output: string;
	exit_code: number | null;
	status: CodexItemStatus;
}

/** Files the model added, deleted or updated. */
export interface CodexFileChangeItem {
	id: string;
	type: "file_change";
	changes: Array<{ path: string; kind: "add" | "delete" | "update" }>;
	status: CodexItemStatus;
}

/** A call of an MCP server's tool. */
export interface CodexMcpToolCallItem {
	id: string;
	type: "mcp_tool_call";
	server: string;
	tool: string;
	arguments: unknown;
	result: { content?: Array<{ type: string; text?: string }>; structured_content?: unknown } | null;
	error: { message: string } | null;
	status: CodexItemStatus;
}

/** A call of codex's own sub-agent tools. */
export interface CodexCollabToolCallItem {
	id: string;
	type: "collab_tool_call";
	tool?: string;
	sender_thread_id?: string;
	receiver_thread_ids?: string[];
	prompt?: string | null;
	status: CodexItemStatus;
}

/** A web search and its query. */
export interface CodexWebSearchItem {
	id: string;
	type: "web_search";
	query: string;
}

/** The model's to-do list. */
export interface CodexTodoListItem {
	id: string;
	type: "todo_list";
	items: Array<{ text: string; completed: boolean }>;
}

/** A plan the model wrote. */
export interface CodexPlanItem {
	id: string;
	type: "plan";
	text: string;
}

/** A non-fatal error, e.g. "Model metadata for `x` not found. Defaulting to fallback metadata". */
export interface CodexErrorItem {
	id: string;
	type: "error";
	message: string;
}

/** The `item` of `item.started` / `item.updated` / `item.completed`. `id` is `item_<n>`, per process. */
export type CodexItem =
	| CodexAgentMessageItem
	| CodexReasoningItem
	| CodexCommandItem
	| CodexFileChangeItem
	| CodexMcpToolCallItem
	| CodexCollabToolCallItem
	| CodexWebSearchItem
	| CodexTodoListItem
	| CodexPlanItem
	| CodexErrorItem;

/** A tool-like item: one the run reports as a tool call. */
export type CodexToolItem =
	| CodexCommandItem
	| CodexFileChangeItem
	| CodexMcpToolCallItem
	| CodexCollabToolCallItem
	| CodexWebSearchItem
	| CodexTodoListItem;

/** The thread exists: its id is the native session id. */
export interface CodexThreadStartedRecord {
	type: "thread.started";
	thread_id: string;
}

/** A turn has started. */
export interface CodexTurnStartedRecord {
	type: "turn.started";
}

/** An item started, changed or completed. */
export interface CodexItemRecord {
	type: "item.started" | "item.updated" | "item.completed";
	item: CodexItem;
}

/** The terminal record of a successful turn, with the thread's cumulative usage. */
export interface CodexTurnCompletedRecord {
	type: "turn.completed";
	usage?: CodexUsage;
}

/** The terminal record of a failed turn. */
export interface CodexTurnFailedRecord {
	type: "turn.failed";
	error?: { message?: string };
}

/** A stream-level error; not terminal by itself ("Reconnecting… waiting for network" repeats forever). */
export interface CodexStreamErrorRecord {
	type: "error";
	message?: string;
}

/** Every stdout record; `type` tells the variants apart. */
export type CodexRecord =
	| CodexThreadStartedRecord
	| CodexTurnStartedRecord
	| CodexItemRecord
	| CodexTurnCompletedRecord
	| CodexTurnFailedRecord
	| CodexStreamErrorRecord;
