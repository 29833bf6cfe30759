/**
 * The text the parent model receives from a `subagent` call (docs/rules.md §Results): every child's answer (capped,
 * with its artifact path when cut), and for failures the reason, exit code or signal and stderr tail.
 * A summary line never stands in for an answer.
 */
import type { Usage as PiUsage } from "@earendil-works/pi-ai";
import type { CallMode, ChildRun } from "../core/child-run.ts";
import { printable } from "../core/printable.ts";
import type { Usage } from "../core/run-event.ts";
import { emptyUsage, type RunResult } from "../core/run-result.ts";
import { deliverAnswer, describeFailure, type OutputCaps } from "../runs/delivery.ts";
import { addUsage } from "../runs/run-state.ts";
import { sessionLine, unrecordedSessionLine } from "../ui/format.ts";

/** Label of a child in results and renders: `agent "task name"` or the harness. */
export function childLabel(child: ChildRun): string {
	const who = printable(child.agent ?? child.harness);
	return child.taskName ? `${who} "${printable(child.taskName)}"` : who;
}

/**
 * Builds the model-facing text and writes artifacts for truncated answers.
 * @param artifactDir directory for full answers; `callId` keeps file names unique.
 * @param recorded whether a native session id has a launch record (docs/rules.md §Resumption: only
 *   completed runs get one), so the text says how each child can be resumed; default: a completed child.
 */
export function buildResultText(
	mode: CallMode,
	children: ChildRun[],
	caps: OutputCaps,
	artifactDir: string,
	callId: string,
	recorded?: (nativeSessionId: string) => boolean,
): string {
	const sections = children.map((child) => {
		const head =
			mode === "single"
				? ""
				: `## ${mode === "chain" ? "Step" : "Task"} ${child.index + 1}: ${childLabel(child)} — ${child.phase}\n`;
		const result = child.result;
		if (child.phase === "skipped") {
			return `${head}never started${mode === "chain" ? " (an earlier step did not complete)" : " (the call was aborted first)"}`;
		}
		if (!result) return `${head}failed: ${child.error ?? "no result"}`;
		if (result.status === "running") return `${head}still running`;
		const answer = withEarlierAnswers(
			result,
			deliverAnswer(result, caps, artifactDir, `${callId}-${child.index + 1}`).text,
		);
		const id = result.nativeSessionId;
		const known = id !== undefined && (recorded ? recorded(id) : result.status === "completed");
		const session = id ? `\n\n${known ? sessionLine(id) : unrecordedSessionLine(id, result.harness)}` : "";
		const note =
			interactiveNote(result) +
			(result.outputFile ? `\n\n[answer also written to ${printable(result.outputFile)}]` : "") +
			(result.outputError ? `\n\n[${printable(result.outputError)}]` : "");
		if (result.status === "completed") return `${head}${answer || "(the child gave no text answer)"}${session}${note}`;
		const partial = answer ? `\n\nPartial output:\n${answer}` : "";
		return `${head}${describeFailure(result)}${partial}${session}${note}`;
	});
	if (mode === "single") return sections[0] ?? "";
	const done = children.filter((c) => c.phase === "completed").length;
	const summary = `${done}/${children.length} ${mode === "chain" ? "steps" : "tasks"} completed`;
	const stopped = mode === "chain" ? children.find((c) => c.phase !== "completed" && c.phase !== "skipped") : undefined;
	const stop = stopped
		? `; the chain stopped at step ${stopped.index + 1} (${childLabel(stopped)}: ${stopped.phase})`
		: "";
	return `${summary}${stop}\n\n${sections.join("\n\n")}`;
}

/**
 * `last` (the last turn's own answer, "" for none) preceded by the answers a child gave before each follow-up
 * it took (docs/background-jobs.md §Talking to running children), so the result has every turn's answer,
 * each under its own heading; `last` alone when it took none. A last turn without text says so rather than
 * borrowing an earlier turn's answer.
 */
function withEarlierAnswers(result: RunResult, last: string): string {
	const followUps = (result.inputs ?? []).filter((input) => input.mode === "follow_up" && input.status === "delivered");
	if (followUps.length === 0) return last;
	const parts = followUps.map(
		(input, i) =>
			`Answer before follow-up ${i + 1} (${JSON.stringify(input.text)}):\n${input.answerBefore || "(no text answer)"}`,
	);
	return `${parts.join("\n\n")}\n\nAnswer after the last follow-up:\n${last || "(no text answer)"}`;
}

/**
 * For a child that ran in its TUI: whether the tmux session was kept (`stay_open`) and then its attach
 * command, and the inactivity warning. "" for headless children.
 */
export function interactiveNote(result: RunResult): string {
	const info = result.interactive;
	if (!info) return "";
	const warning = info.warning ? `\nWarning: ${info.warning}` : "";
	// No attach command for a session that is gone (docs/interactive.md).
	if (!info.keptOpen) return `\n\nInteractive session ${info.session}: removed when the run ended.${warning}`;
	return `\n\nInteractive session ${info.session}: kept open (stay_open); attach with \`${info.attachCommand}\`. Resuming this session is refused while it may still run.${warning}`;
}

/** The children's usage added up (tokens; cost in USD, unknown when no child reported one). */
export function sumUsage(children: ChildRun[]): Usage {
	const total = emptyUsage();
	for (const child of children) if (child.result) addUsage(total, child.result.usage);
	return total;
}

/** Sums children's usage as Pi's `Usage`, so it counts in the parent session's totals (extensions.md "Usage accounting"). */
export function totalUsage(children: ChildRun[]): PiUsage {
	const usage = sumUsage(children);
	const { inputTokens: input, outputTokens: output, cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite } = usage;
	return {
		input,
		output,
		cacheRead,
		cacheWrite,
		totalTokens: input + output + cacheRead + cacheWrite,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: usage.costUsd ?? 0 },
	};
}
