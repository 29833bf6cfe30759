/**
 * Pi's RPC stdin protocol for a child kept in conversation (docs/background-jobs.md §Talking to running children; Pi
 * docs/rpc.md and docs/rpc-commands.md): the task is a JSON `prompt` command, so it arrives byte for byte
 * (piped stdin would be trimmed); sends are `steer` / `follow_up` commands and a stop is `abort`, each
 * answered by a `response` record of the same id.
 */
import type { InputCodec, InputSignal, SendMode } from "../../core/child-input.ts";

/** The id of the start-up `get_state` command; its response carries the native session id. */
export const PI_STATE_ID = "pi-native-subagents-state";
/** The id of the task's `prompt` command. */
export const PI_TASK_ID = "pi-native-subagents-task";

/** The id of a repair turn's `prompt` command (docs/structured-output.md). */
export const PI_REPAIR_ID = "pi-native-subagents-repair";

/** The id of a warm child's readiness `get_state` (docs/settings.md §Warm pi children). */
export const PI_WARM_ID = "pi-native-subagents-warm";

/** A warm pi child's readiness probe: a `get_state` command, answered once pi reads its stdin. */
export const piWarmProbe = {
	line: JSON.stringify({ id: PI_WARM_ID, type: "get_state" }),
	isAnswer: (record: unknown) => {
		const response = record as PiRpcRecord | null;
		return response?.type === "response" && response.id === PI_WARM_ID;
	},
};

/** Dialog methods of Pi's extension UI sub-protocol, which block until answered (Pi's docs/rpc-extension-ui.md). */
const DIALOGS = new Set(["select", "confirm", "input", "editor"]);

interface PiRpcRecord {
	type?: string;
	id?: string;
	command?: string;
	success?: boolean;
	error?: string;
	method?: string;
	data?: { disposition?: string };
	message?: { role?: string; content?: string | Array<{ type: string; text?: string }> };
}

/** The pi codec for one run of `task`. */
export function createPiInputCodec(task: string): InputCodec {
	return {
		startLines: () => [
			JSON.stringify({ id: PI_STATE_ID, type: "get_state" }),
			JSON.stringify({ id: PI_TASK_ID, type: "prompt", message: task }),
		],
		encodeSend: (id: string, text: string, mode: SendMode) => ({
			line: JSON.stringify({ id, type: mode, message: text }),
			awaitsAck: true,
		}),
		encodeStop: (id: string) => ({ line: JSON.stringify({ id, type: "abort" }), awaitsAck: true }),
		// Once pi's run has settled it is idle: a `prompt` starts the next run in the same session.
		encodeTurn: (text: string) => JSON.stringify({ id: PI_REPAIR_ID, type: "prompt", message: text }),
		read: readPiRecord,
		accepted: (mode, detail) => ({
			status: "queued",
			ack:
				mode === "steer"
					? `pi: steer ${detail}; it reaches the model before pi's next model call in this run`
					: `pi: follow_up ${detail}; it starts a new turn when the current one ends`,
		}),
		queuedSurvivesTurnEnd: false,
	};
}

function readPiRecord(raw: unknown): InputSignal[] {
	const record = raw as PiRpcRecord;
	if (record?.type === "response" && typeof record.id === "string") {
		const detail = record.success ? (record.data?.disposition ?? "accepted") : (record.error ?? "rejected");
		return [{ kind: "ack", id: record.id, ok: record.success === true, detail }];
	}
	if (record?.type === "message_end" && record.message?.role === "user") {
		return [{ kind: "echo", text: userText(record.message.content) }];
	}
	if (record?.type === "extension_ui_request" && typeof record.id === "string" && DIALOGS.has(record.method ?? "")) {
		return [{ kind: "reply", line: JSON.stringify({ type: "extension_ui_response", id: record.id, cancelled: true }) }];
	}
	return [];
}

function userText(content: string | Array<{ type: string; text?: string }> | undefined): string {
	if (typeof content === "string") return content;
	return (content ?? [])
		.filter((part) => part.type === "text")
		.map((part) => part.text ?? "")
		.join("");
}
