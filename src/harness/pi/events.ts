/**
 * The pi record parser: Pi's `--mode rpc` records (the `--mode json` events plus command responses,
 * `records.ts`) → RunEvents.
 */
import type { EventParser } from "../../core/harness-adapter.ts";
import type { RunEvent } from "../../core/run-event.ts";
import { missingAllowedTools, SUBMIT_RESULT_TOOL } from "../tool-names.ts";
import type {
	PiAssistantMessage,
	PiRecord,
	PiResponse,
	PiToolEndRecord,
	PiToolResultMessage,
	PiUsage,
} from "./records.ts";
import { PI_REPAIR_ID, PI_STATE_ID, PI_TASK_ID } from "./rpc.ts";

/** Pi records → RunEvents. `agent_settled` is terminal; the verdict comes from the last assistant message. */
export class PiEventParser implements EventParser {
	private lastAssistant: PiAssistantMessage | undefined;
	private readonly allowedTools: readonly string[] | undefined;
	private toolsChecked = false;

	/**
	 * @param allowedTools the allowlist of a new session, checked against the tools its first system
	 *   message reports (`undefined` for a resume, whose system messages list only added tools).
	 */
	constructor(allowedTools?: readonly string[]) {
		this.allowedTools = allowedTools;
	}

	parse(raw: unknown): RunEvent[] {
		const record = raw as PiRecord;
		switch (record?.type) {
			case "session":
				return typeof record.id === "string" ? [{ type: "session", nativeSessionId: record.id }] : [];
			case "response":
				return this.response(record);
			case "message_start": {
				if (record.message?.role !== "system" || this.toolsChecked) return [];
				// The first system message of a new session lists every tool; later ones list additions only.
				// A child offered no tools at all reports no `toolsAdded` (Pi 1.6), which is an empty list.
				this.toolsChecked = true;
				const offered = (record.message.toolsAdded ?? []).map((tool) => tool.name ?? "");
				const missing = missingAllowedTools("pi", this.allowedTools, offered);
				return missing ? [missing] : [];
			}
			case "message_update": {
				const event = record.assistantMessageEvent;
				if (event?.type === "text_delta" && event.delta)
					return [{ type: "assistant_text", text: event.delta, final: false }];
				if (event?.type === "thinking_delta" && event.delta) return [{ type: "thinking", text: event.delta }];
				return [];
			}
			case "message_end":
				if (record.message?.role === "assistant") return this.assistantEnd(record.message);
				return record.message?.role === "toolResult" ? toolResultUsage(record.message) : [];
			case "tool_execution_start":
				return [{ type: "tool_start", toolCallId: record.toolCallId, toolName: record.toolName, args: record.args }];
			case "tool_execution_end":
				return toolEnd(record);
			case "agent_settled":
				return [this.settled(record.aborted === true)];
			default:
				return [];
		}
	}

	/** RPC mode has no session header: the id comes from `get_state`; a refused task ends the run. */
	private response(record: PiResponse): RunEvent[] {
		const sessionId = record.data?.sessionId;
		if (record.id === PI_STATE_ID && typeof sessionId === "string")
			return [{ type: "session", nativeSessionId: sessionId }];
		if ((record.id === PI_TASK_ID || record.id === PI_REPAIR_ID) && record.success === false) {
			const what = record.id === PI_TASK_ID ? "the task" : "the output_schema repair turn";
			const error = `pi refused ${what}: ${record.error ?? "no reason given"}`;
			return [
				{ type: "error", message: error },
				{ type: "done", status: "failed", error },
			];
		}
		return [];
	}

	private assistantEnd(message: PiAssistantMessage): RunEvent[] {
		this.lastAssistant = message;
		const model = message.provider && message.model ? `${message.provider}/${message.model}` : message.model;
		const events: RunEvent[] = [];
		const text = (message.content ?? []).flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
		events.push({ type: "assistant_text", text, final: true, model });
		if (message.usage) {
			events.push({
				type: "usage",
				model,
				usage: { ...tokensOf(message.usage), contextTokens: message.usage.totalTokens, turns: 1 },
			});
		}
		if (message.stopReason === "error") {
			events.push({ type: "error", message: message.errorMessage ?? "the model returned an error" });
		}
		return events;
	}

	private settled(aborted: boolean): RunEvent {
		if (aborted || this.lastAssistant?.stopReason === "aborted") {
			return {
				type: "done",
				status: "aborted",
				error: this.lastAssistant?.errorMessage ?? "the child aborted its run",
			};
		}
		if (this.lastAssistant?.stopReason === "error") {
			return {
				type: "done",
				status: "failed",
				error: this.lastAssistant.errorMessage ?? "the model returned an error",
			};
		}
		return { type: "done", status: "completed" };
	}
}

/**
 * A tool call's end; a successful `submit_result` call (the extension's `details.value`, the arguments
 * after pi's own validation) is also the child's structured result.
 */
function toolEnd(record: PiToolEndRecord): RunEvent[] {
	const output = (record.result?.content ?? [])
		.map((part) => (part.type === "text" ? (part.text ?? "") : `[${part.type}]`))
		.join("");
	const isError = record.isError === true;
	const events: RunEvent[] = [
		{ type: "tool_end", toolCallId: record.toolCallId, toolName: record.toolName, output, isError },
	];
	const details = record.result?.details as { value?: unknown } | undefined;
	if (record.toolName === SUBMIT_RESULT_TOOL && !isError && details && "value" in details) {
		events.push({ type: "structured_output", value: details.value });
	}
	return events;
}

/** Tokens and cost of one Pi usage record. */
function tokensOf(usage: PiUsage) {
	return {
		inputTokens: usage.input ?? 0,
		outputTokens: usage.output ?? 0,
		cacheReadTokens: usage.cacheRead ?? 0,
		cacheWriteTokens: usage.cacheWrite ?? 0,
		costUsd: usage.cost?.total,
	};
}

/**
 * What a tool of the child spent itself, such as a `subagent` call's children and, through their own
 * results, every descendant: added to the child's usage like Pi adds it to its session totals. No turn, no
 * model and no context size: those belong to the child's own assistant messages.
 */
function toolResultUsage(message: PiToolResultMessage): RunEvent[] {
	return message.usage ? [{ type: "usage", usage: tokensOf(message.usage) }] : [];
}
