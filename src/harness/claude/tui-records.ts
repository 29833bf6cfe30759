/**
 * claude's transcript (`$CLAUDE_CONFIG_DIR/projects/<cwd as a name>/<session id>.jsonl`) → RunEvents. Its
 * `assistant` and `user` records have the shape of `-p`'s stream-json records and go through the headless
 * parser; records of sub-agents (`isSidechain`) are skipped. The `system` record `turn_duration`, written
 * when a turn has ended, becomes the headless `result` record: this run's usage (per message, each message
 * counted once) and the verdict (an API error as the last message fails the run).
 */

import type { TuiRecordReader } from "../../core/harness-adapter.ts";
import type { RunEvent } from "../../core/run-event.ts";
import { RecordTail } from "../record-tail.ts";
import { ClaudeEventParser } from "./events.ts";
import type { ClaudeUsage } from "./records.ts";
import { findClaudeTranscript } from "./transcript.ts";

interface TranscriptRecord {
	type?: string;
	subtype?: string;
	isSidechain?: boolean;
	isApiErrorMessage?: boolean;
	error?: string;
	message?: { id?: string; model?: string; usage?: ClaudeUsage; content?: unknown };
}

/**
 * @param resumed the transcript already holds earlier turns: read only what this run appends.
 */
export function claudeRecordReader(configDir: string, sessionId: string, resumed: boolean): TuiRecordReader {
	const tail = new RecordTail(() => findClaudeTranscript(configDir, sessionId), resumed);
	const parser = new ClaudeEventParser();
	const usage = new Map<string, ClaudeUsage>();
	let lastError: string | undefined;
	return {
		poll() {
			const events: RunEvent[] = [];
			for (const raw of tail.read()) {
				const record = raw as TranscriptRecord;
				if (record.isSidechain) continue;
				if (record.type === "assistant") {
					const message = record.message;
					if (message?.id && message.usage) usage.set(message.id, message.usage);
					lastError =
						record.isApiErrorMessage || record.error || message?.model === "<synthetic>"
							? textOf(message?.content) || "claude reported an API error"
							: undefined;
					events.push(...parser.parse(record));
					// An API error (after claude's own retries) ends the turn without a `turn_duration` record.
					if (record.isApiErrorMessage) events.push(...parser.parse(resultRecord(usage, lastError)));
				} else if (record.type === "user") {
					events.push(...parser.parse(record));
				} else if (record.type === "system" && record.subtype === "turn_duration") {
					events.push(...parser.parse(resultRecord(usage, lastError)));
				}
			}
			return events;
		},
	};
}

/** The headless `result` record a finished turn stands for. Cost is not recorded in the transcript. */
function resultRecord(usage: Map<string, ClaudeUsage>, error: string | undefined) {
	const total: Required<ClaudeUsage> = {
		input_tokens: 0,
		output_tokens: 0,
		cache_read_input_tokens: 0,
		cache_creation_input_tokens: 0,
	};
	for (const each of usage.values()) {
		total.input_tokens += each.input_tokens ?? 0;
		total.output_tokens += each.output_tokens ?? 0;
		total.cache_read_input_tokens += each.cache_read_input_tokens ?? 0;
		total.cache_creation_input_tokens += each.cache_creation_input_tokens ?? 0;
	}
	return {
		type: "result",
		subtype: "success",
		is_error: error !== undefined,
		result: error,
		usage: total,
		num_turns: usage.size,
	};
}

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((block) => block?.type === "text")
		.map((block) => block.text ?? "")
		.join("");
}
