/**
 * The claude record parser: `claude -p --output-format stream-json --verbose` records (`records.ts`) →
 * RunEvents.
 */
import type { EventParser } from "../../core/harness-adapter.ts";
import type { RunEvent } from "../../core/run-event.ts";
import { missingAllowedTools, ruleToolName } from "../tool-names.ts";
import type {
	ClaudeAssistantRecord,
	ClaudeContentBlock,
	ClaudeRecord,
	ClaudeResultRecord,
	ClaudeUsage,
} from "./records.ts";

/** The assistant message being assembled from per-block `assistant` records. */
interface OpenMessage {
	id: string;
	text: string;
	model: string | undefined;
}

/** Claude's placeholder model for messages it makes up itself (API errors). */
const SYNTHETIC_MODEL = "<synthetic>";

/**
 * claude records → RunEvents. Blocks of one message (one `assistant` record each, sharing `message.id`)
 * are streamed as text deltas and closed as one final text when the next message, a tool result or the
 * `result` arrives. `result` is terminal and carries the status, this invocation's usage and cost, and the
 * permission denials. Records of sub-agents (`parent_tool_use_id` set) are not the child's own answer and
 * are skipped.
 */
export class ClaudeEventParser implements EventParser {
	/** Whether an assistant text has been emitted (then `result.result` only repeats it). */
	private answered = false;
	private open: OpenMessage | undefined;
	private sessionSeen = false;
	/** `total_cost_usd` of the last result, USD. */
	private costSoFar = 0;
	private model: string | undefined;
	private contextTokens: number | undefined;
	private readonly toolNames = new Map<string, string>();
	private readonly allowedTools: readonly string[] | undefined;

	/** @param allowedTools the spec's allowlist, checked against the tools claude's `init` record offers. */
	constructor(allowedTools?: readonly string[]) {
		this.allowedTools = allowedTools;
	}

	parse(raw: unknown): RunEvent[] {
		const record = raw as ClaudeRecord;
		const events = this.session(record);
		switch (record?.type) {
			case "system":
				if (record.subtype === "init" && record.tools) {
					const missing = missingAllowedTools("claude_code", this.allowedTools, record.tools, ruleToolName);
					if (missing) events.push(missing);
				}
				if (record.subtype === "api_retry") {
					events.push({
						type: "diagnostic",
						message: `claude: API retry ${record.attempt ?? "?"}/${record.max_retries ?? "?"} (${record.error ?? "error"})`,
					});
				}
				return events;
			case "assistant":
				if (record.parent_tool_use_id) return events;
				return [...events, ...this.assistant(record)];
			case "user":
				if (record.parent_tool_use_id) return events;
				return [...events, ...this.close(), ...this.toolResults(record.message?.content)];
			case "result":
				return [...events, ...this.close(), ...this.result(record)];
			default:
				return events;
		}
	}

	/** Every record carries `session_id`; the first one seen is the native session id. */
	private session(record: ClaudeRecord | undefined): RunEvent[] {
		if (this.sessionSeen || typeof record?.session_id !== "string") return [];
		this.sessionSeen = true;
		return [{ type: "session", nativeSessionId: record.session_id }];
	}

	private assistant(record: ClaudeAssistantRecord): RunEvent[] {
		const message = record.message;
		if (!message) return [];
		if (message.model === SYNTHETIC_MODEL || record.error) {
			// Claude's own error text ("API Error: 400 …"), not the model's answer; `result` carries the verdict.
			const text = textOf(message.content);
			return [...this.close(), ...(text ? [{ type: "error" as const, message: text }] : [])];
		}
		const events: RunEvent[] = this.open && this.open.id !== message.id ? this.close() : [];
		if (message.model) this.model = message.model;
		const usage = message.usage;
		if (usage) {
			this.contextTokens =
				(usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
		}
		this.open ??= { id: message.id, text: "", model: message.model };
		for (const block of message.content ?? []) events.push(...this.block(block));
		return events;
	}

	private block(block: ClaudeContentBlock): RunEvent[] {
		switch (block.type) {
			case "text":
				if (!this.open || !block.text) return [];
				this.open.text += block.text;
				return [{ type: "assistant_text", text: block.text, final: false, model: this.open.model }];
			case "thinking":
				return block.thinking ? [{ type: "thinking", text: block.thinking }] : [];
			case "tool_use":
				this.toolNames.set(block.id, block.name);
				return [{ type: "tool_start", toolCallId: block.id, toolName: block.name, args: block.input }];
			default:
				return [];
		}
	}

	/** Ends the open message: its text blocks joined are one complete assistant text. */
	private close(): RunEvent[] {
		const open = this.open;
		this.open = undefined;
		if (!open || open.text.length === 0) return [];
		this.answered = true;
		return [{ type: "assistant_text", text: open.text, final: true, model: open.model }];
	}

	private toolResults(content: string | ClaudeContentBlock[] | undefined): RunEvent[] {
		if (!Array.isArray(content)) return [];
		return content.flatMap((block): RunEvent[] =>
			block.type === "tool_result"
				? [
						{
							type: "tool_end",
							toolCallId: block.tool_use_id,
							toolName: this.toolNames.get(block.tool_use_id) ?? "unknown",
							output: typeof block.content === "string" ? block.content : textOf(block.content),
							isError: block.is_error === true,
						},
					]
				: [],
		);
	}

	private result(record: ClaudeResultRecord): RunEvent[] {
		const events: RunEvent[] = (record.permission_denials ?? []).map((denial) => ({
			type: "permission_denied",
			denial: { toolName: denial.tool_name, toolCallId: denial.tool_use_id, input: denial.tool_input },
		}));
		const usage = usageOf(record, this.contextTokens);
		// `total_cost_usd` counts every turn of the process so far (stream-json input runs several): add the delta.
		if (usage.costUsd !== undefined) {
			const total = usage.costUsd;
			usage.costUsd = total - this.costSoFar;
			this.costSoFar = total;
		}
		events.push({ type: "usage", model: this.model, usage });
		const answered = this.answered;
		// The next turn (a queued user message) answers afresh.
		this.answered = false;
		// `is_error` decides: API errors come with subtype "success" (docs/harness-support.md §What comes back).
		if (!record.is_error && record.subtype === "success") {
			// `result` repeats the final text; it is the answer only when no assistant text came before it.
			if (!answered && record.result) events.push({ type: "assistant_text", text: record.result, final: true });
			if (record.structured_output !== undefined) {
				events.push({ type: "structured_output", value: record.structured_output });
			}
			events.push({ type: "done", status: "completed" });
			return events;
		}
		const message =
			(record.errors && record.errors.length > 0 ? record.errors.join("; ") : undefined) ??
			(record.result || undefined) ??
			`claude ended with ${record.subtype}${record.api_error_status ? ` (HTTP ${record.api_error_status})` : ""}`;
		events.push({ type: "error", message }, { type: "done", status: "failed", error: message });
		return events;
	}
}

/** This invocation's usage from `result`: tokens, claude's own USD cost, and its turn count. */
function usageOf(record: ClaudeResultRecord, contextTokens: number | undefined) {
	const usage: ClaudeUsage = record.usage ?? {};
	return {
		inputTokens: usage.input_tokens ?? 0,
		outputTokens: usage.output_tokens ?? 0,
		cacheReadTokens: usage.cache_read_input_tokens ?? 0,
		cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
		costUsd: typeof record.total_cost_usd === "number" ? record.total_cost_usd : undefined,
		contextTokens,
		turns: record.num_turns ?? 0,
	};
}

function textOf(content: ReadonlyArray<{ type: string; text?: string }> | undefined): string {
	return (content ?? [])
		.filter((block) => block.type === "text")
		.map((block) => block.text ?? "")
		.join("");
}
