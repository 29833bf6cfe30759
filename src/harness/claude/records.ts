/**
 * `claude -p --output-format stream-json --verbose` records (Claude Code 2.1.332, verified against the
 * pinned binary; docs/harness-support.md §How each CLI is driven). Wire types only; the mapping to RunEvents is
 * in `events.ts`. Every record carries `session_id`; fields not read here are left out.
 */

/** Token counts of one message or of a whole invocation (`result.usage`). */
export interface ClaudeUsage {
	input_tokens?: number;
	cache_creation_input_tokens?: number;
	cache_read_input_tokens?: number;
	output_tokens?: number;
}

/** One content block. Each `assistant` record carries a single block; blocks of one message share `message.id`. */
export type ClaudeContentBlock =
	| { type: "text"; text: string }
	| { type: "thinking"; thinking: string; signature?: string }
	| { type: "redacted_thinking"; data?: string }
	| { type: "tool_use"; id: string; name: string; input: unknown }
	| {
			type: "tool_result";
			tool_use_id: string;
			content: string | Array<{ type: string; text?: string }>;
			is_error?: boolean;
	  };

/** One entry of `result.permission_denials`: a tool call refused for lack of permission. */
export interface ClaudePermissionDenial {
	tool_name: string;
	tool_use_id?: string;
	tool_input?: unknown;
}

/** Session start and status notes: `init` first; also `api_retry`, `status`, `thinking_tokens`, `compact_boundary`, … */
export interface ClaudeSystemRecord {
	type: "system";
	subtype: string;
	session_id?: string;
	/** init: the tools the session offers, after `--tools` / `--disallowedTools`. */
	tools?: string[];
	model?: string;
	permissionMode?: string;
	/** api_retry */
	attempt?: number;
	max_retries?: number;
	error?: string;
}

/** One content block of an assistant message. */
export interface ClaudeAssistantRecord {
	type: "assistant";
	message: {
		id: string;
		/** `<synthetic>` for messages claude makes up itself (API errors). */
		model?: string;
		content: ClaudeContentBlock[];
		usage?: ClaudeUsage;
	};
	/** Set on messages of a sub-agent (Task tool) inside the session. */
	parent_tool_use_id?: string | null;
	session_id?: string;
	/** Set when the message reports an API error, e.g. `"unknown"`. */
	error?: string;
}

/** A user-side message: the task, or tool results. */
export interface ClaudeUserRecord {
	type: "user";
	message: { role: "user"; content: string | ClaudeContentBlock[] };
	parent_tool_use_id?: string | null;
	session_id?: string;
}

/** The terminal record of an invocation. */
export interface ClaudeResultRecord {
	type: "result";
	/** `success`, `error_during_execution`, `error_max_turns`, `error_max_budget_usd`, … */
	subtype: string;
	/** True for API errors even when `subtype` is `success`. */
	is_error: boolean;
	api_error_status?: number | null;
	/** The final answer, or the error text (`API Error: 400 …`). */
	result?: string;
	/** With `--json-schema`: the StructuredOutput tool's input, the structured result (`result` is its JSON text). */
	structured_output?: unknown;
	/** Problems of `error_*` subtypes, e.g. `No conversation found with session ID: …`. */
	errors?: string[];
	num_turns?: number;
	session_id?: string;
	/** USD, computed by claude from its price table. */
	total_cost_usd?: number;
	/** This invocation only (not the session's history). */
	usage?: ClaudeUsage;
	permission_denials?: ClaudePermissionDenial[];
}

/** Every stdout record; `type` tells the variants apart. */
export type ClaudeRecord = ClaudeSystemRecord | ClaudeAssistantRecord | ClaudeUserRecord | ClaudeResultRecord;
