/**
 * Folds RunEvents into a RunResult as they arrive (docs/architecture.md). Pure: no I/O.
 */

import type { LaunchSpec } from "../core/launch-spec.ts";
import type { RunEvent, ToolEndEvent, Usage } from "../core/run-event.ts";
import type { RunResult, RunStatus, ToolActivity, TranscriptItem } from "../core/run-result.ts";
import { emptyUsage } from "../core/run-result.ts";

/** Transcript items kept per run (oldest dropped first). */
const MAX_TRANSCRIPT_ITEMS = 200;
/** Characters of one tool's output kept in `details`. */
const MAX_TOOL_OUTPUT_CHARS = 4_000;
/** Characters of one tool's arguments (as JSON) kept in `details`; larger ones become a preview string. */
export const MAX_TOOL_ARGS_CHARS = 2_000;
/** Tool calls kept per run (oldest dropped first). */
export const MAX_TOOLS = 200;
/** Diagnostics kept per run. */
const MAX_DIAGNOSTICS = 50;

/** The harness's own verdict, once its terminal event has arrived. */
export interface TerminalVerdict {
	status: "completed" | "failed" | "aborted";
	error?: string;
}

/** The RunResult of one run as its events arrive, and the harness's terminal verdict once it has one. */
export class RunState {
	readonly result: RunResult;
	terminal: TerminalVerdict | undefined;
	/** The last model error seen (a later success does not clear it from history, only from the verdict). */
	lastError: string | undefined;
	private partialText = "";

	constructor(spec: LaunchSpec, command: string) {
		this.result = {
			status: "completed",
			harness: spec.harness,
			agent: spec.provenance.rosterEntry ?? spec.provenance.agentName,
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
		const result = this.result;
		if (result.activity === "starting") result.activity = "waiting";
		switch (event.type) {
			case "session":
				result.nativeSessionId = event.nativeSessionId;
				return true;
			case "assistant_text":
				if (event.model) result.model = event.model;
				if (!event.final) {
					this.partialText += event.text;
					// The first delta of a message changes what a renderer shows; the rest do not.
					if (result.activity === "writing") return false;
					result.activity = "writing";
					return true;
				}
				this.partialText = "";
				result.activity = "waiting";
				if (event.text.trim().length > 0) {
					result.finalAnswer = event.text;
					this.pushTranscript({ kind: "text", text: event.text });
				}
				return true;
			case "thinking":
				return false;
			case "tool_start":
				result.activity = "tool";
				this.pushTool({
					toolCallId: event.toolCallId,
					toolName: event.toolName,
					args: boundArgs(event.args),
					pending: true,
				});
				this.pushTranscript({ kind: "tool", toolCallId: event.toolCallId });
				return true;
			case "tool_end":
				this.endTool(event);
				return true;
			case "usage":
				if (event.model) result.model = event.model;
				addUsage(result.usage, event.usage);
				return true;
			case "error":
				this.lastError = event.message;
				return true;
			case "diagnostic":
				this.addDiagnostic(event.message);
				return false;
			case "permission_denied": {
				const { toolName, input } = event.denial;
				result.permissionDenials = [...(result.permissionDenials ?? []), event.denial];
				this.addDiagnostic(`permission denied: ${toolName}${input === undefined ? "" : ` ${JSON.stringify(input)}`}`);
				return true;
			}
			case "done":
				// A failure already reported stands: a later "completed" (codex finishing the turn of a thread it
				// started instead of the one to resume) must not turn it into a success.
				if (this.terminal && this.terminal.status !== "completed") return false;
				this.terminal = { status: event.status, error: event.error };
				return true;
		}
	}

	/** A tool call has ended: its pending entry gets the (bounded) output, or an entry is added for it. */
	private endTool(event: ToolEndEvent): void {
		const result = this.result;
		const tool = findPendingTool(result.tools, event.toolCallId);
		const output =
			event.output.length > MAX_TOOL_OUTPUT_CHARS
				? `${event.output.slice(0, MAX_TOOL_OUTPUT_CHARS)}… [${event.output.length - MAX_TOOL_OUTPUT_CHARS} more characters]`
				: event.output;
		if (tool) {
			tool.output = output;
			tool.isError = event.isError;
			tool.pending = false;
		} else {
			this.pushTool({
				toolCallId: event.toolCallId,
				toolName: event.toolName,
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
		const diagnostics = this.result.diagnostics;
		if (diagnostics.length >= MAX_DIAGNOSTICS) diagnostics.shift();
		diagnostics.push(line.length > 1_000 ? `${line.slice(0, 1_000)}…` : line);
	}

	/**
	 * Settles the final answer: the last non-empty complete assistant text, or (with a warning) the
	 * partial text of a message that never ended.
	 */
	settleAnswer(): void {
		const result = this.result;
		if (!result.finalAnswer && this.partialText.trim().length > 0) {
			result.finalAnswer = this.partialText;
			result.finalAnswerWarning = "the child's last message did not finish; this is its partial text";
		}
	}

	/** Sets the final status and its reason (`error` is removed for `completed`). */
	setStatus(status: RunStatus, error?: string): void {
		this.result.status = status;
		if (error) this.result.error = error;
		else delete this.result.error;
	}

	private pushTool(tool: ToolActivity): void {
		const tools = this.result.tools;
		if (tools.length >= MAX_TOOLS) {
			tools.shift();
			this.result.toolsDropped = (this.result.toolsDropped ?? 0) + 1;
		}
		tools.push(tool);
	}

	private pushTranscript(item: TranscriptItem): void {
		const transcript = this.result.transcript;
		if (transcript.length >= MAX_TRANSCRIPT_ITEMS) transcript.shift();
		transcript.push(item);
	}
}

/** Arguments as given, or a preview string when their JSON is longer than MAX_TOOL_ARGS_CHARS (a `write` carries a whole file). */
function boundArgs(args: unknown): unknown {
	const json = JSON.stringify(args);
	if (json === undefined || json.length <= MAX_TOOL_ARGS_CHARS) return args;
	return `${json.slice(0, MAX_TOOL_ARGS_CHARS)}… [${json.length - MAX_TOOL_ARGS_CHARS} more characters]`;
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
