/**
 * Folds RunEvents into a child's live run as they arrive, and gives its RunResult once it has ended
 * (docs/architecture.md). Pure: no I/O.
 */

import { REPORTED_LIMITS } from "../core/bounds.ts";
import { definitionName, type LaunchSpec } from "../core/launch-spec.ts";
import type { RunEvent, ToolEndEvent, Usage } from "../core/run-event.ts";
import type { LiveRun, RunResult, RunStatus, ToolActivity, TranscriptItem } from "../core/run-result.ts";
import { emptyUsage } from "../core/run-result.ts";

/** Transcript items kept per run (oldest dropped first). */
export const MAX_TRANSCRIPT_ITEMS = 200;
/** Characters of one tool's output kept in `details`. */
export const MAX_TOOL_OUTPUT_CHARS = 4_000;
/** Characters of one tool's arguments (as JSON) kept in `details`; larger ones become a preview string. */
export const MAX_TOOL_ARGS_CHARS = 2_000;
/** Tool calls kept per run (oldest dropped first). */
export const MAX_TOOLS = 200;
/** Diagnostics kept per run. */
export const MAX_DIAGNOSTICS = 50;
/** Characters of one assistant text kept in the transcript (the final answer itself is kept in full). */
export const MAX_TRANSCRIPT_TEXT_CHARS = 500;
/**
 * Characters of streamed text kept for a message that has not ended (its deltas); the rest is counted, not
 * kept. Only a child whose last message never ends falls back to this text.
 */
export const MAX_PARTIAL_TEXT_CHARS = 1_000_000;
/** Permission denials kept per run (the oldest dropped first). */
export const MAX_PERMISSION_DENIALS = 50;

/** The harness's own verdict, once its terminal event has arrived. */
export interface TerminalVerdict {
	status: "completed" | "failed" | "aborted";
	error?: string;
}

/**
 * One run as its events arrive (`live`, status `running`), the harness's terminal verdict once it has one,
 * and the RunResult once the run has ended ({@link RunState.finish}).
 */
export class RunState {
	/** The run while it runs, mutated in place: what `onUpdate` publishes. */
	readonly live: LiveRun;
	terminal: TerminalVerdict | undefined;
	/** The last model error seen (a later success does not clear it from history, only from the verdict). */
	lastError: string | undefined;
	private partialText = "";
	/** Characters of the unfinished message's deltas beyond MAX_PARTIAL_TEXT_CHARS, dropped. */
	private partialDropped = 0;

	constructor(spec: LaunchSpec, command: string) {
		this.live = {
			status: "running",
			harness: spec.harness,
			agent: definitionName(spec.provenance),
			taskName: spec.taskName,
			task: spec.task,
			cwd: spec.cwd,
			finalAnswer: "",
			transcript: [],
			tools: [],
			usage: emptyUsage(),
			exitCode: null,
			signal: null,
			stderrTail: "",
			diagnostics: [],
			durationMs: 0,
			startedAt: Date.now(),
			activity: "starting",
			command,
		};
	}

	/** Applies one event. Returns true when the event changes what a renderer would show. */
	apply(event: RunEvent): boolean {
		const result = this.live;
		if (result.activity === "starting") result.activity = "waiting";
		result.lastEventAt = Date.now();
		switch (event.type) {
			case "session":
				this.setSessionId(event.nativeSessionId);
				return true;
			case "assistant_text":
				if (event.model) result.model = reported(event.model, "model");
				if (!event.final) {
					this.addPartial(event.text);
					// The first delta of a message changes what a renderer shows; the rest do not.
					if (result.activity === "writing") return false;
					result.activity = "writing";
					return true;
				}
				this.partialText = "";
				this.partialDropped = 0;
				result.activity = "waiting";
				if (event.text.trim().length > 0) {
					result.finalAnswer = event.text;
					this.pushTranscript({ kind: "text", text: truncate(event.text, MAX_TRANSCRIPT_TEXT_CHARS) });
				}
				return true;
			case "thinking":
			case "structured_output":
				return false;
			case "tool_start":
				result.activity = "tool";
				this.pushTool({
					toolCallId: reported(event.toolCallId, "toolCallId"),
					toolName: reported(event.toolName, "toolName"),
					args: boundArgs(event.args),
					pending: true,
				});
				this.pushTranscript({ kind: "tool", toolCallId: reported(event.toolCallId, "toolCallId") });
				return true;
			case "tool_end":
				this.endTool(event);
				return true;
			case "usage":
				if (event.model) result.model = reported(event.model, "model");
				addUsage(result.usage, event.usage);
				return true;
			case "error":
				this.lastError = reported(event.message, "error");
				return true;
			case "diagnostic":
				this.addDiagnostic(event.message);
				return false;
			case "permission_denied": {
				const toolName = reported(event.denial.toolName, "toolName");
				const input = boundArgs(event.denial.input);
				const denial = { ...event.denial, toolName, input };
				result.permissionDenials = [...(result.permissionDenials ?? []), denial].slice(-MAX_PERMISSION_DENIALS);
				this.addDiagnostic(`permission denied: ${toolName}${input === undefined ? "" : ` ${JSON.stringify(input)}`}`);
				return true;
			}
			case "done":
				// A failure already reported stands: a later "completed" (codex finishing the turn of a thread it
				// started instead of the one to resume) must not turn it into a success.
				if (this.terminal && this.terminal.status !== "completed") return false;
				this.terminal = {
					status: event.status,
					error: event.error === undefined ? undefined : reported(event.error, "error"),
				};
				return true;
		}
	}

	/**
	 * The child's native session id, unless it is longer than REPORTED_LIMITS allows: a cut id would name
	 * another session, so such an id is dropped with a diagnostic and the run cannot be resumed.
	 */
	private setSessionId(id: string): void {
		const limit = REPORTED_LIMITS.nativeSessionId;
		if (id.length <= limit) {
			this.live.nativeSessionId = id;
			return;
		}
		this.addDiagnostic(
			`the child reported a native session id of ${id.length} characters, more than the limit of ${limit}; it is ignored (this run cannot be resumed)`,
		);
	}

	/**
	 * A further turn of the same run starts (the structured result's repair turn): the verdict of the turn
	 * that ended no longer stands.
	 */
	reopenTurn(): void {
		this.terminal = undefined;
	}

	/** A tool call has ended: its pending entry gets the (bounded) output, or an entry is added for it. */
	private endTool(event: ToolEndEvent): void {
		const result = this.live;
		const toolCallId = reported(event.toolCallId, "toolCallId");
		const tool = findPendingTool(result.tools, toolCallId);
		const output = truncate(event.output, MAX_TOOL_OUTPUT_CHARS);
		if (tool) {
			tool.output = output;
			tool.isError = event.isError;
			tool.pending = false;
		} else {
			this.pushTool({
				toolCallId,
				toolName: reported(event.toolName, "toolName"),
				args: undefined,
				output,
				isError: event.isError,
				pending: false,
			});
		}
		if (!result.tools.some((t) => t.pending)) result.activity = "waiting";
	}

	/** Keeps a non-JSON stdout line or a protocol fault (bounded: the oldest are dropped; a line keeps 1,000 characters). */
	addDiagnostic(line: string): void {
		const diagnostics = this.live.diagnostics;
		if (diagnostics.length >= MAX_DIAGNOSTICS) diagnostics.shift();
		diagnostics.push(detach(line.length > 1_000 ? `${line.slice(0, 1_000)}…` : line));
	}

	/**
	 * Settles the final answer: the last non-empty complete assistant text, or (with a warning) the
	 * partial text of a message that never ended.
	 */
	settleAnswer(): void {
		const result = this.live;
		if (!result.finalAnswer && this.partialText.trim().length > 0) {
			const dropped = this.partialDropped;
			result.finalAnswer = dropped > 0 ? `${this.partialText}… [${dropped} more characters]` : this.partialText;
			result.finalAnswerWarning =
				dropped > 0
					? `the child's last message did not finish; this is the first ${MAX_PARTIAL_TEXT_CHARS} characters of its partial text`
					: "the child's last message did not finish; this is its partial text";
		}
	}

	/**
	 * The RunResult of the ended run: what the live run holds now, with its final status and the reason
	 * (none for `completed`). See `settleRun` for how a run's ending becomes these.
	 */
	finish(status: RunStatus, error?: string): RunResult {
		const result: RunResult = { ...this.live, status };
		if (error && status !== "completed") result.error = error;
		return result;
	}

	/** Keeps streamed text up to MAX_PARTIAL_TEXT_CHARS and counts the rest. */
	private addPartial(text: string): void {
		const room = MAX_PARTIAL_TEXT_CHARS - this.partialText.length;
		if (room >= text.length) this.partialText += detach(text);
		else {
			if (room > 0) this.partialText += detach(text.slice(0, room));
			this.partialDropped += text.length - Math.max(0, room);
		}
	}

	private pushTool(tool: ToolActivity): void {
		const tools = this.live.tools;
		if (tools.length >= MAX_TOOLS) {
			tools.shift();
			this.live.toolsDropped = (this.live.toolsDropped ?? 0) + 1;
		}
		tools.push(tool);
	}

	private pushTranscript(item: TranscriptItem): void {
		const transcript = this.live.transcript;
		if (transcript.length >= MAX_TRANSCRIPT_ITEMS) transcript.shift();
		transcript.push(item);
	}
}

/** A string a child reported, cut to its REPORTED_LIMITS bound (core/bounds.ts) and detached. */
function reported(text: string, field: Exclude<keyof typeof REPORTED_LIMITS, "nativeSessionId">): string {
	return truncate(text, REPORTED_LIMITS[field]);
}

/**
 * `text`, or its first `max` characters and a count of the rest, as a string of its own. A string parsed
 * from a record (and any slice of it) may be a view into the whole stdout chunk it came from; kept for
 * long, such views keep those chunks alive and grow the old generation with every message.
 */
function truncate(text: string, max: number): string {
	return detach(text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters]` : text);
}

/** A copy of `text` that shares no memory with the string it was cut from (lossless, lone surrogates included). */
function detach(text: string): string {
	return Buffer.from(text, "utf16le").toString("utf16le");
}

/** Arguments as given, or a preview string when their JSON is longer than MAX_TOOL_ARGS_CHARS (a `write` carries a whole file). */
function boundArgs(args: unknown): unknown {
	const json = JSON.stringify(args);
	if (json === undefined || json.length <= MAX_TOOL_ARGS_CHARS) return args;
	return truncate(json, MAX_TOOL_ARGS_CHARS);
}

function findPendingTool(tools: ToolActivity[], toolCallId: string): ToolActivity | undefined {
	for (let i = tools.length - 1; i >= 0; i--) {
		if (tools[i].toolCallId === toolCallId) return tools[i];
	}
	return undefined;
}

/** Adds `delta` into `total` in place. Cost stays `undefined` until some event reports one. */
export function addUsage(total: Usage, delta: Partial<Usage>): void {
	total.inputTokens += delta.inputTokens ?? 0;
	total.outputTokens += delta.outputTokens ?? 0;
	total.cacheReadTokens += delta.cacheReadTokens ?? 0;
	total.cacheWriteTokens += delta.cacheWriteTokens ?? 0;
	total.turns += delta.turns ?? 0;
	if (delta.costUsd !== undefined) total.costUsd = (total.costUsd ?? 0) + delta.costUsd;
	if (delta.contextTokens !== undefined) total.contextTokens = delta.contextTokens;
}
