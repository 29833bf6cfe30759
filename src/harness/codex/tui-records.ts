/**
 * codex's rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<thread id>.jsonl`) → RunEvents.
 * `session_meta` names the thread, `response_item` records carry the assistant's messages and tool calls,
 * `event_msg` `token_count` the thread's cumulative usage and `task_complete` / `turn_aborted` the end of a
 * turn. Usage becomes this run's delta through the headless parser (`turn.completed` semantics).
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import type { TuiRecordReader } from "../../core/harness-adapter.ts";
import type { RunEvent } from "../../core/run-event.ts";
import { RecordTail } from "../record-tail.ts";
import { CodexEventParser, readableError } from "./events.ts";
import type { CodexUsage } from "./records.ts";
import { readThreadUsage } from "./rollout.ts";

interface RolloutRecord {
	type?: string;
	payload?: Payload;
}

interface Payload {
	type?: string;
	id?: string;
	role?: string;
	content?: { type: string; text?: string }[];
	name?: string;
	arguments?: string;
	input?: string;
	call_id?: string;
	output?: unknown;
	message?: string;
	last_agent_message?: string | null;
	/** `task_complete` of a failed turn. */
	error?: { message?: string } | null;
	info?: { total_token_usage?: CodexUsage } | null;
}

/**
 * The rollout file the codex process `pid` has open for writing (Linux `/proc/<pid>/fd` and `fdinfo`): exact
 * even when several codex children share one `CODEX_HOME` and cwd. codex also opens older threads' rollouts
 * to read them (a rollout of an earlier run in the same home was once taken for this run's, which then
 * "completed" with that run's answer), so a rollout open only for reading is not this run's. `undefined` until
 * codex has started (`pid`) and created its rollout.
 */
export function rolloutOpenedBy(pid: number | undefined): string | undefined {
	if (pid === undefined) return undefined;
	let fds: string[];
	try {
		fds = readdirSync(`/proc/${pid}/fd`);
	} catch {
		return undefined;
	}
	for (const fd of fds) {
		try {
			const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
			if (/\/rollout-[^/]*\.jsonl$/.test(target) && openForWriting(pid, fd)) return target;
		} catch {
			// closed meanwhile
		}
	}
	return undefined;
}

/** O_ACCMODE of open(2): the access mode bits of a file descriptor's flags. */
const ACCESS_MODE = 0o3;

/**
 * Whether descriptor `fd` of process `pid` was opened to write (`O_WRONLY` or `O_RDWR` in the octal `flags:` of
 * `/proc/<pid>/fdinfo/<fd>`).
 * @throws when the descriptor is gone (closed meanwhile).
 */
function openForWriting(pid: number, fd: string): boolean {
	const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8"))?.[1];
	return flags !== undefined && (Number.parseInt(flags, 8) & ACCESS_MODE) !== 0;
}

/**
 * @param locate finds the rollout (see {@link rolloutOpenedBy} and `findThreadRollout`).
 * @param resume the thread being resumed: its rollout is read from its current end, usage counts from its
 *   current total.
 */
export function codexRecordReader(
	codexHome: string,
	locate: () => string | undefined,
	resume: string | undefined,
): TuiRecordReader {
	const tail = new RecordTail(locate, resume !== undefined);
	const parser = new CodexEventParser(
		resume === undefined ? undefined : { threadId: resume, baseline: readThreadUsage(codexHome, resume) },
	);
	let total: CodexUsage = {};
	if (resume !== undefined) parser.parse({ type: "thread.started", thread_id: resume });
	return {
		poll() {
			const events: RunEvent[] = [];
			for (const raw of tail.read()) {
				const record = raw as RolloutRecord;
				const payload = record.payload ?? {};
				if (record.type === "session_meta")
					events.push(...parser.parse({ type: "thread.started", thread_id: payload.id }));
				else if (record.type === "response_item") events.push(...responseItem(payload));
				else if (record.type === "event_msg") {
					if (payload.type === "token_count" && payload.info?.total_token_usage) total = payload.info.total_token_usage;
					else events.push(...eventMessage(parser, payload, total));
				}
			}
			return events;
		},
	};
}

/**
 * An `event_msg` other than `token_count`: an error, or the end of a turn with this run's usage and the
 * verdict (a failed turn carries `error` in `task_complete`; `turn_aborted` is an interrupted one).
 */
function eventMessage(parser: CodexEventParser, payload: Payload, total: CodexUsage): RunEvent[] {
	const usageOnly = () =>
		parser.parse({ type: "turn.completed", usage: total }).filter((event) => event.type !== "done");
	switch (payload.type) {
		case "error":
			return [{ type: "error", message: payload.message ?? "codex reported an error" }];
		case "task_complete": {
			if (!payload.error) return parser.parse({ type: "turn.completed", usage: total });
			const message = readableError(payload.error.message ?? "codex reported a failed turn");
			return [...usageOnly(), { type: "error", message }, { type: "done", status: "failed", error: message }];
		}
		case "turn_aborted":
			return [...usageOnly(), { type: "done", status: "aborted", error: "the turn was interrupted in codex's TUI" }];
		default:
			return [];
	}
}

function responseItem(payload: Payload): RunEvent[] {
	switch (payload.type) {
		case "message": {
			if (payload.role !== "assistant") return [];
			const text = (payload.content ?? [])
				.map((part) => (part.type === "output_text" ? (part.text ?? "") : ""))
				.join("");
			return [{ type: "assistant_text", text, final: true }];
		}
		case "function_call":
		case "custom_tool_call":
			return [
				{
					type: "tool_start",
					toolCallId: payload.call_id ?? "",
					toolName: payload.name ?? payload.type,
					args: payload.arguments !== undefined ? parseJson(payload.arguments) : payload.input,
				},
			];
		case "function_call_output":
		case "custom_tool_call_output":
			return [
				{
					type: "tool_end",
					toolCallId: payload.call_id ?? "",
					toolName: "",
					output: typeof payload.output === "string" ? payload.output : JSON.stringify(payload.output ?? ""),
					isError: false,
				},
			];
		default:
			return [];
	}
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
