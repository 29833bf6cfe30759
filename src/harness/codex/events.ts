/**
 * The codex record parser: `codex exec --json` records (`records.ts`) → RunEvents.
 */
import type { EventParser } from "../../core/harness-adapter.ts";
import type { RunEvent, Usage } from "../../core/run-event.ts";
import type { CodexItem, CodexRecord, CodexToolItem, CodexUsage } from "./records.ts";

/** What the parser knows about a resumed thread. */
export interface CodexResume {
	threadId: string;
	/** The thread's cumulative usage before this run; `undefined` counts from zero. */
	baseline: CodexUsage | undefined;
}

/**
 * codex records → RunEvents. `turn.completed` is terminal (an exec run is one turn) and carries the
 * thread's cumulative usage, which is turned into this run's delta. Codex reports no cost (`costUsd` stays
 * undefined) and no model in its stream.
 */
export class CodexEventParser implements EventParser {
	private readonly resume: CodexResume | undefined;
	private readonly readUsage: ((threadId: string) => CodexUsage | undefined) | undefined;
	private previous: CodexUsage;
	private readonly started = new Set<string>();
	private threadId: string | undefined;
	private usageReported = false;

	/**
	 * @param readUsage reads the thread's cumulative usage from codex's own records (its rollout file), for a
	 *   run that ends without `turn.completed` (a failed, aborted or timed-out turn still spent tokens).
	 */
	constructor(resume?: CodexResume, readUsage?: (threadId: string) => CodexUsage | undefined) {
		this.resume = resume;
		this.readUsage = readUsage;
		this.previous = resume?.baseline ?? {};
	}

	/** The usage codex recorded for a turn that never reached `turn.completed`. */
	finish(): RunEvent[] {
		if (this.usageReported || !this.threadId || !this.readUsage) return [];
		const total = this.readUsage(this.threadId);
		return total ? [this.usageDelta(total)] : [];
	}

	parse(raw: unknown): RunEvent[] {
		const record = raw as CodexRecord;
		switch (record?.type) {
			case "thread.started":
				return this.threadStarted(record.thread_id);
			case "item.started":
				return this.itemStarted(record.item);
			case "item.completed":
				return this.itemCompleted(record.item);
			case "turn.completed":
				return [this.usageDelta(record.usage ?? {}), { type: "done", status: "completed" }];
			case "turn.failed": {
				const message = readableError(record.error?.message ?? "codex reported a failed turn");
				return [
					{ type: "error", message },
					{ type: "done", status: "failed", error: message },
				];
			}
			case "error":
				return [{ type: "error", message: readableError(record.message ?? "codex reported an error") }];
			default:
				// turn.started, item.updated (todo_list progress), item.plan.delta: nothing a RunResult keeps.
				return [];
		}
	}

	private threadStarted(threadId: unknown): RunEvent[] {
		if (typeof threadId !== "string") return [];
		this.threadId = threadId;
		const events: RunEvent[] = [{ type: "session", nativeSessionId: threadId }];
		if (this.resume && threadId !== this.resume.threadId) {
			// `exec resume` silently starts a new thread when it cannot match; never pass that off as the old one.
			const message = `codex started a new thread ${threadId} instead of resuming ${this.resume.threadId}`;
			events.push({ type: "error", message }, { type: "done", status: "failed", error: message });
		}
		return events;
	}

	private itemStarted(item: CodexItem | undefined): RunEvent[] {
		if (!item || !isCodexToolItem(item)) return [];
		this.started.add(item.id);
		return [toolStart(item)];
	}

	private itemCompleted(item: CodexItem | undefined): RunEvent[] {
		if (!item) return [];
		switch (item.type) {
			case "agent_message":
				return [{ type: "assistant_text", text: item.text ?? "", final: true }];
			case "reasoning":
				return item.text ? [{ type: "thinking", text: item.text }] : [];
			case "plan":
				return item.text ? [{ type: "thinking", text: item.text }] : [];
			case "error":
				return [{ type: "diagnostic", message: `codex: ${item.message}` }];
		}
		// Some items (web_search, a todo_list created at the end) complete without having started.
		const events = this.started.delete(item.id) ? [] : [toolStart(item)];
		events.push(toolEnd(item));
		return events;
	}

	/** This run's usage: the cumulative thread total minus the previous total seen. */
	private usageDelta(total: CodexUsage): RunEvent {
		this.usageReported = true;
		const before = this.previous;
		this.previous = total;
		const diff = (pick: (u: CodexUsage) => number | undefined) => Math.max(0, (pick(total) ?? 0) - (pick(before) ?? 0));
		const cached = diff((u) => u.cached_input_tokens);
		const usage: Partial<Usage> = {
			// Codex's input_tokens include the cached part; RunEvent counts them apart.
			inputTokens: Math.max(0, diff((u) => u.input_tokens) - cached),
			cacheReadTokens: cached,
			cacheWriteTokens: diff((u) => u.cache_write_input_tokens),
			outputTokens: diff((u) => u.output_tokens),
			turns: 1,
		};
		return { type: "usage", usage };
	}
}

function isCodexToolItem(item: CodexItem): item is CodexToolItem {
	return !["agent_message", "reasoning", "plan", "error"].includes(item.type);
}

/** The tool name shown for an item: its type, or `mcp:<server>/<tool>` and `collab:<tool>`. */
function toolName(item: CodexToolItem): string {
	if (item.type === "mcp_tool_call") return `mcp:${item.server}/${item.tool}`;
	if (item.type === "collab_tool_call") return `collab:${item.tool ?? "call"}`;
	return item.type;
}

function toolArgs(item: CodexToolItem): unknown {
	switch (item.type) {
		case "command_execution":
			return { command: item.command };
		case "file_change":
			return { changes: item.changes };
		case "mcp_tool_call":
			return item.arguments;
		case "collab_tool_call":
			return { prompt: item.prompt, receivers: item.receiver_thread_ids };
		case "web_search":
			return { query: item.query };
		case "todo_list":
			return { items: item.items };
	}
}

function toolStart(item: CodexToolItem): RunEvent {
	return { type: "tool_start", toolCallId: item.id, toolName: toolName(item), args: toolArgs(item) };
}

function toolEnd(item: CodexToolItem): RunEvent {
	const failed = item.type !== "web_search" && item.type !== "todo_list" && item.status !== "completed";
	const end = (output: string, isError = failed): RunEvent => ({
		type: "tool_end",
		toolCallId: item.id,
		toolName: toolName(item),
		output,
		isError,
	});
	switch (item.type) {
		case "command_execution":
			return end(item.aggregated_output ?? "", failed || (item.exit_code ?? 0) !== 0);
		case "file_change":
			return end((item.changes ?? []).map((change) => `${change.kind} ${change.path}`).join("\n"));
		case "mcp_tool_call": {
			const text = (item.result?.content ?? []).map((part) => part.text ?? `[${part.type}]`).join("");
			return end(item.error?.message ?? text, failed || item.error !== null);
		}
		case "todo_list":
			return end((item.items ?? []).map((todo) => `[${todo.completed ? "x" : " "}] ${todo.text}`).join("\n"));
		case "collab_tool_call":
		case "web_search":
			return end("");
	}
}

/**
 * Codex passes a provider's HTTP error body through as JSON text (`{"error":{"message",…}}`); the
 * provider's own message is what a user can act on.
 */
export function readableError(message: string): string {
	const start = message.indexOf("{");
	if (start < 0) return message;
	try {
		const body = JSON.parse(message.slice(start)) as { error?: { message?: unknown; type?: unknown } };
		const inner = body.error?.message;
		if (typeof inner !== "string") return message;
		const type = typeof body.error?.type === "string" ? ` (${body.error.type})` : "";
		return `${message.slice(0, start)}${inner}${type}`.trim();
	} catch {
		return message;
	}
}
