/**
 * Plain-text formatting of usage, tool calls and status for renders (docs/rules.md §Results). Pure.
 */

import type { SendReceipt, StopReceipt } from "../core/child-input.ts";
import type { ChildPhase } from "../core/child-run.ts";
import { printable } from "../core/printable.ts";
import type { Usage } from "../core/run-event.ts";
import type { ChildActivity, RunSnapshot } from "../core/run-result.ts";

/** `1.2k` style counts. */
export function formatTokens(count: number): string {
	if (count < 1_000) return String(count);
	if (count < 10_000) return `${(count / 1_000).toFixed(1)}k`;
	if (count < 1_000_000) return `${Math.round(count / 1_000)}k`;
	return `${(count / 1_000_000).toFixed(1)}M`;
}

/**
 * `3 turns ↑1.2k ↓340 R1k W0 $0.0123 ctx:5k <model>`: one run's usage and the model it reported; what is
 * not known yet (no usage, no model) is left out, so a child that reported nothing gives "".
 */
export function formatUsage(usage: Usage, model?: string): string {
	const totals = formatUsageTotals(usage);
	return [totals === NONE_REPORTED ? "" : totals, model ?? ""].filter(Boolean).join(" ");
}

const NONE_REPORTED = "none reported";

/** `3 turns ↑1.2k ↓340 R1k W0 $0.0123 5k in context`; parts that are zero or unknown are left out. */
export function formatUsageTotals(usage: Usage): string {
	const parts: string[] = [];
	if (usage.turns) parts.push(`${usage.turns} turn${usage.turns === 1 ? "" : "s"}`);
	if (usage.inputTokens) parts.push(`↑${formatTokens(usage.inputTokens)}`);
	if (usage.outputTokens) parts.push(`↓${formatTokens(usage.outputTokens)}`);
	if (usage.cacheReadTokens) parts.push(`R${formatTokens(usage.cacheReadTokens)}`);
	if (usage.cacheWriteTokens) parts.push(`W${formatTokens(usage.cacheWriteTokens)}`);
	if (usage.costUsd !== undefined) parts.push(formatCost(usage.costUsd));
	// The size of the child's context window in use at its last turn, not a count spent.
	if (usage.contextTokens) parts.push(`${formatTokens(usage.contextTokens)} in context`);
	return parts.length > 0 ? parts.join(" ") : NONE_REPORTED;
}

/** `$0.0123`, `$1.25`; `$0` for nothing and `<$0.0001` for a cost too small to show in four decimals (USD). */
export function formatCost(usd: number): string {
	if (usd === 0) return "$0";
	if (usd < 0.0001) return "<$0.0001";
	return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** `1 task`, `3 tasks`: `count` and `noun`, with an `s` unless the count is 1. */
export function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** One-line description of a tool call: `$ cmd` for shell tools, `name {args}` otherwise. */
export function formatToolCall(toolName: string, args: unknown): string {
	const record = (args && typeof args === "object" ? args : {}) as Record<string, unknown>;
	const command = record.command ?? record.cmd;
	if (typeof command === "string") return `$ ${oneLine(command, 100)}`;
	const path = record.path ?? record.file_path;
	if (typeof path === "string") return `${printable(toolName)} ${oneLine(path, 200)}`;
	const json = args === undefined ? "" : JSON.stringify(args);
	return `${printable(toolName)} ${oneLine(json ?? "", 100)}`.trim();
}

/** `text` on one line (whitespace runs become a space, other control characters `printable`), cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
	const line = printable(text.replace(/\s+/g, " ").trim());
	return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export const PHASE_ICONS: Record<ChildPhase, string> = {
	pending: "◦",
	running: "⏳",
	completed: "✓",
	failed: "✗",
	aborted: "⊘",
	timed_out: "⌛",
	skipped: "–",
};

/** A phase as a status line says it: a child waiting for a slot is `queued`. */
export function phaseLabel(phase: ChildPhase): string {
	if (phase === "pending") return "queued";
	if (phase === "timed_out") return "timed out";
	return phase;
}

/**
 * Where a set of children stands, by outcome: `2 ✓ · 1 ✗ · 1 aborted · 1 skipped · 1 running · 1 queued`
 * (parts that are 0 are left out; failed and timed-out children count as ✗, never as done). The one
 * headline of every card (tool results, background reports, the fleet view, graph nodes).
 */
export function outcomeCounts(phases: readonly ChildPhase[]): string {
	const count = (...wanted: ChildPhase[]) => phases.filter((phase) => wanted.includes(phase)).length;
	const parts: Array<[number, string]> = [
		[count("completed"), "✓"],
		[count("failed", "timed_out"), "✗"],
		[count("aborted"), "aborted"],
		[count("skipped"), "skipped"],
		[count("running"), "running"],
		[count("pending"), "queued"],
	];
	return parts
		.filter(([n]) => n > 0)
		.map(([n, what]) => `${n} ${what}`)
		.join(" · ");
}

/** `4.2s`, `1m05s`, `1h02m`: an elapsed time given in ms. */
export function formatElapsed(ms: number): string {
	const seconds = Math.max(0, ms) / 1000;
	if (seconds < 60) return `${seconds.toFixed(1)}s`;
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) return `${minutes}m${String(Math.floor(seconds % 60)).padStart(2, "0")}s`;
	return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

/**
 * `waits on its claude_code folder trust dialog: "…"; attach with \`tmux -S … attach -t …\`` while an
 * interactive child's harness shows a first-run dialog (docs/interactive.md "First-run dialogs"), else undefined.
 */
export function dialogWait(result: RunSnapshot | undefined): string | undefined {
	const info = result?.interactive;
	return info?.waitingOn ? `waits on ${info.waitingOn}; attach with \`${info.attachCommand}\`` : undefined;
}

/** What a running child's activity reads as in its status line. */
export const ACTIVITY_LABELS: Record<ChildActivity, string> = {
	starting: "starting",
	waiting: "waiting for the model",
	tool: "running a tool",
	writing: "writing the answer",
};

/** Sum of several runs' usage (tokens, USD; cost unknown only when every part is). */
export function sumUsages(usages: readonly Usage[]): Usage {
	const total: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, turns: 0 };
	for (const usage of usages) {
		total.inputTokens += usage.inputTokens;
		total.outputTokens += usage.outputTokens;
		total.cacheReadTokens += usage.cacheReadTokens;
		total.cacheWriteTokens += usage.cacheWriteTokens;
		total.turns += usage.turns;
		if (usage.costUsd !== undefined) total.costUsd = (total.costUsd ?? 0) + usage.costUsd;
	}
	return total;
}

/**
 * The line that gives the model a child's native session id, the only way it can resume that child
 * (docs/tools.md §Resuming a child session); also shown in the expanded view.
 */
export function sessionLine(nativeSessionId: string): string {
	return `session: ${printable(nativeSessionId)} (resume with resume_session_id)`;
}

/** A receipt in words, for the user: what happened, without the tool's internal codes. */
export function receiptInWords(receipt: SendReceipt | StopReceipt): string {
	if (receipt.status === "refused") return `not sent: ${receipt.message}`;
	if (receipt.status === "requested") return `asked to stop: ${receipt.ack}`;
	return `${receipt.status === "queued" ? "queued" : "delivered"}: ${receipt.ack}`;
}
