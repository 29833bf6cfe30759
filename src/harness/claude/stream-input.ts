/**
 * Claude's stream-json stdin protocol for a child kept in conversation (docs/background-jobs.md
 * §Talking to running children; `claude --help`: `--input-format stream-json`, `--replay-user-messages`). The task and every
 * send are user messages; claude takes one at each turn boundary (a message sent mid-turn starts the next
 * turn) and replays it when it does. A stop is an `interrupt` control request, answered by a
 * `control_response` of the same request id.
 */
import type { InputCodec, InputSignal } from "../../core/child-input.ts";

interface ClaudeInputRecord {
	type?: string;
	isReplay?: boolean;
	message?: { content?: string | Array<{ type: string; text?: string }> };
	response?: { subtype?: string; request_id?: string; error?: string };
}

/** A stream-json user message line. */
function userLine(text: string): string {
	return JSON.stringify({ type: "user", message: { role: "user", content: text } });
}

/** The claude codec for one run of `task`. */
export function createClaudeInputCodec(task: string): InputCodec {
	return {
		startLines: () => [userLine(task)],
		// Claude answers a user message only by replaying it when its turn starts: nothing to wait for here.
		encodeSend: (_id, text) => ({ line: userLine(text), awaitsAck: false }),
		encodeTurn: userLine,
		encodeStop: (id) => ({
			line: JSON.stringify({ type: "control_request", request_id: id, request: { subtype: "interrupt" } }),
			awaitsAck: true,
		}),
		read: readClaudeRecord,
		accepted: (mode) => ({
			status: "queued",
			ack: `claude: ${mode} written as a user message; claude takes it at its next turn boundary (a running turn is not interrupted) and confirms by replaying it`,
		}),
		queuedSurvivesTurnEnd: true,
	};
}

function readClaudeRecord(raw: unknown): InputSignal[] {
	const record = raw as ClaudeInputRecord;
	if (record?.type === "user" && record.isReplay === true) {
		const content = record.message?.content;
		const text =
			typeof content === "string"
				? content
				: (content ?? [])
						.filter((part) => part.type === "text")
						.map((part) => part.text ?? "")
						.join("");
		return [{ kind: "echo", text }];
	}
	const response = record?.type === "control_response" ? record.response : undefined;
	if (typeof response?.request_id === "string") {
		const ok = response.subtype === "success";
		return [
			{ kind: "ack", id: response.request_id, ok, detail: ok ? "interrupt accepted" : (response.error ?? "refused") },
		];
	}
	return [];
}
