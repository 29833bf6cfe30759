/**
 * pi's session file (`<session dir>/<timestamp>_<id>.jsonl`, Pi docs/session-format.md) → RunEvents. Each
 * `message` entry is a complete message: assistant messages go through the headless parser as
 * `message_end`, tool calls and results become tool events, and an assistant message whose stop reason is
 * not `toolUse` ends the turn.
 */

import type { TuiRecordReader } from "../../core/harness-adapter.ts";
import type { RunEvent } from "../../core/run-event.ts";
import { RecordTail } from "../record-tail.ts";
import { PiEventParser } from "./events.ts";
import type { PiAssistantMessage } from "./records.ts";
import { findPiSessionFile } from "./session-file.ts";

interface SessionEntry {
	type?: string;
	id?: string;
	message?: PiMessage;
}

type PiMessage =
	| (PiAssistantMessage & { role: "assistant" })
	| {
			role: "toolResult";
			toolCallId: string;
			toolName: string;
			content?: { type: string; text?: string }[];
			isError?: boolean;
	  }
	| { role: "user" | "system" };

interface ToolCallPart {
	type: "toolCall";
	id: string;
	name: string;
	arguments: unknown;
}

/**
 * @param sessionDir the child's `--session-dir`.
 * @param nativeSessionId the id given with `--session-id` (new) or the resumed session's.
 * @param resumed the file already holds earlier turns: read only what this run appends.
 */
export function piRecordReader(sessionDir: string, nativeSessionId: string, resumed: boolean): TuiRecordReader {
	const tail = new RecordTail(() => findPiSessionFile(sessionDir, nativeSessionId), resumed);
	const parser = new PiEventParser();
	// pi writes a user message when its agent starts on the prompt (its session file is created then).
	let promptTaken = false;
	return {
		poll() {
			const events: RunEvent[] = [];
			for (const record of tail.read()) {
				const entry = record as SessionEntry;
				if (entry.type === "message" && entry.message?.role === "user") promptTaken = true;
				events.push(...entryEvents(entry, parser));
			}
			return events;
		},
		promptTaken: () => promptTaken,
	};
}

function entryEvents(entry: SessionEntry, parser: PiEventParser): RunEvent[] {
	const message = entry.message;
	if (entry.type !== "message" || !message) return [];
	if (message.role === "toolResult") {
		return parser.parse({
			type: "tool_execution_end",
			toolCallId: message.toolCallId,
			toolName: message.toolName,
			result: { content: message.content ?? [] },
			isError: message.isError === true,
		});
	}
	if (message.role !== "assistant") return [];
	const events = parser.parse({ type: "message_end", message });
	for (const part of (message.content ?? []) as unknown as ToolCallPart[]) {
		if (part.type !== "toolCall") continue;
		events.push(
			...parser.parse({ type: "tool_execution_start", toolCallId: part.id, toolName: part.name, args: part.arguments }),
		);
	}
	// A turn goes on after tool calls; any other stop reason (stop, length, error, aborted) ends it.
	if (message.stopReason !== "toolUse") events.push(...parser.parse({ type: "agent_settled", aborted: false }));
	return events;
}
