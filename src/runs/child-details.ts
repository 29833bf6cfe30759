/**
 * The bounded per-child record a tool result's `details` carries (docs/tools.md §Result details). Pi writes
 * `details` into the parent's session file, so each child's share stays a few tens of KB whatever the child
 * printed: previews, counts, ids and paths. The whole answer is in the artifact file (`artifactPath`).
 */

import { clipChars } from "../core/bounds.ts";
import type { ChildRun } from "../core/child-run.ts";
import type { RunSnapshot } from "../core/run-result.ts";

/** Characters of the final answer kept in `details`; a longer answer also goes to an artifact file. */
export const DETAILS_ANSWER_CHARS = 2_000;
/** Characters of the task kept in `details` (the child's and the run's copy each). */
export const DETAILS_TASK_CHARS = 500;
/** Characters of one error, stderr tail, or failure reason kept in `details`. */
export const DETAILS_MESSAGE_CHARS = 1_000;
/** Transcript items kept in `details` (the latest), each text cut to DETAILS_ITEM_CHARS. */
export const DETAILS_TRANSCRIPT_ITEMS = 20;
/** Tool calls kept in `details` (the latest), each argument JSON and output cut to DETAILS_ITEM_CHARS. */
export const DETAILS_TOOLS = 10;
/** Characters of one transcript text, tool argument JSON, tool output or diagnostic kept in `details`. */
export const DETAILS_ITEM_CHARS = 200;
/** Diagnostics, permission denials and messages sent to the child kept in `details` (the latest). */
export const DETAILS_DIAGNOSTICS = 5;
/**
 * Upper bound on one child's JSON in `details`, bytes (64 KB): about 16,000 characters of text at most,
 * 3 bytes each in UTF-8 at worst, plus field names.
 */
export const MAX_CHILD_DETAILS_BYTES = 64 * 1024;

/**
 * A bounded copy of `child` for `details`: texts cut to the limits above (a cut text ends with
 * `… [N more characters]`), lists cut to their latest items. `result.finalAnswerBytes` then gives the
 * whole answer's size in bytes; `result.artifactPath` (when set) holds all of it. `result.structuredOutput`
 * is kept when its JSON (the final answer) fits DETAILS_ANSWER_CHARS, else only the artifact has it. Never shares mutable
 * state with `child`, so it is also a safe snapshot of a live run.
 */
export function childDetails(child: ChildRun): ChildRun {
	const bounded: ChildRun = { ...child, task: clip(child.task, DETAILS_TASK_CHARS) };
	if (child.error !== undefined) bounded.error = clip(child.error, DETAILS_MESSAGE_CHARS);
	if (child.result) bounded.result = resultDetails(child.result);
	return bounded;
}

function resultDetails<Run extends RunSnapshot>(run: Run): Run {
	const tools = run.tools.slice(-DETAILS_TOOLS);
	const bounded: Run = {
		...run,
		task: clip(run.task, DETAILS_TASK_CHARS),
		finalAnswer: clip(run.finalAnswer, DETAILS_ANSWER_CHARS),
		transcript: run.transcript
			.slice(-DETAILS_TRANSCRIPT_ITEMS)
			.map((item) =>
				item.kind === "text" ? { kind: "text", text: clip(item.text, DETAILS_ITEM_CHARS) } : { ...item },
			),
		tools: tools.map((tool) => ({
			...tool,
			args: boundJson(tool.args),
			...(tool.output === undefined ? {} : { output: clip(tool.output, DETAILS_ITEM_CHARS) }),
		})),
		usage: { ...run.usage },
		stderrTail: clipTail(run.stderrTail, DETAILS_MESSAGE_CHARS),
		diagnostics: run.diagnostics.slice(-DETAILS_DIAGNOSTICS).map((line) => clip(line, DETAILS_ITEM_CHARS)),
	};
	const dropped = (run.toolsDropped ?? 0) + (run.tools.length - tools.length);
	if (dropped > 0) bounded.toolsDropped = dropped;
	if (run.finalAnswer.length > DETAILS_ANSWER_CHARS) bounded.finalAnswerBytes = Buffer.byteLength(run.finalAnswer);
	// The structured result is bounded like the answer it is the JSON of: a larger one is in the artifact.
	if (run.structuredOutput !== undefined) {
		if (run.finalAnswer.length > DETAILS_ANSWER_CHARS) delete bounded.structuredOutput;
		else bounded.structuredOutput = structuredClone(run.structuredOutput);
	}
	if (run.error !== undefined) bounded.error = clip(run.error, DETAILS_MESSAGE_CHARS);
	if (run.finalAnswerWarning !== undefined)
		bounded.finalAnswerWarning = clip(run.finalAnswerWarning, DETAILS_ITEM_CHARS);
	if (run.permissionDenials) {
		bounded.permissionDenials = run.permissionDenials
			.slice(-DETAILS_DIAGNOSTICS)
			.map((denial) => ({ ...denial, input: boundJson(denial.input) }));
	}
	if (run.inputs) {
		bounded.inputs = run.inputs.slice(-DETAILS_DIAGNOSTICS).map((input) => ({
			...input,
			text: clip(input.text, DETAILS_ITEM_CHARS),
			...(input.answerBefore === undefined ? {} : { answerBefore: clip(input.answerBefore, DETAILS_ITEM_CHARS) }),
		}));
	}
	bounded.command = clip(run.command, DETAILS_MESSAGE_CHARS);
	// A copy: a live run changes what its child waits on.
	if (run.interactive) bounded.interactive = { ...run.interactive };
	return bounded;
}

/** `text`, or its first `max` characters and `… [N more characters]` (see `clipChars`). */
export const clip = clipChars;

/** The last `max` characters of `text`, marked when cut. */
function clipTail(text: string, max: number): string {
	if (text.length <= max) return text;
	const start = isLowSurrogate(text.charCodeAt(text.length - max)) ? text.length - max + 1 : text.length - max;
	return `[${start} earlier characters] …${text.slice(start)}`;
}

/** A value as given when its JSON is short, else a preview string of its JSON. */
function boundJson(value: unknown): unknown {
	const json = JSON.stringify(value);
	if (json === undefined || json.length <= DETAILS_ITEM_CHARS) return value;
	return clip(json, DETAILS_ITEM_CHARS);
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}
