/**
 * Plain-text formatting of usage, tool calls and status for renders (docs/rules.md §Results). Pure.
 */

import type { ChildPhase } from "../core/child-run.ts";
import type { Usage } from "../core/run-event.ts";
import type { ChildActivity } from "../core/run-result.ts";

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

/** `3 turns ↑1.2k ↓340 R1k W0 $0.0123 ctx:5k`; parts that are zero or unknown are left out. */
export function formatUsageTotals(usage: Usage): string {
	const parts: string[] = [];
	if (usage.turns) parts.push(`${usage.turns} turn${usage.turns === 1 ? "" : "s"}`);
	if (usage.inputTokens) parts.push(`↑${formatTokens(usage.inputTokens)}`);
	if (usage.outputTokens) parts.push(`↓${formatTokens(usage.outputTokens)}`);
	if (usage.cacheReadTokens) parts.push(`R${formatTokens(usage.cacheReadTokens)}`);
	if (usage.cacheWriteTokens) parts.push(`W${formatTokens(usage.cacheWriteTokens)}`);
	if (usage.costUsd !== undefined) parts.push(`$${usage.costUsd.toFixed(4)}`);
	if (usage.contextTokens) parts.push(`ctx:${formatTokens(usage.contextTokens)}`);
	return parts.length > 0 ? parts.join(" ") : NONE_REPORTED;
}

/** One-line description of a tool call: `$ cmd` for shell tools, `name {args}` otherwise. */
export function formatToolCall(toolName: string, args: unknown): string {
	const record = (args && typeof args === "object" ? args : {}) as Record<string, unknown>;
	const command = record.command ?? record.cmd;
	if (typeof command === "string") return `$ ${oneLine(command, 100)}`;
	const path = record.path ?? record.file_path;
	if (typeof path === "string") return `${toolName} ${path}`;
	const json = args === undefined ? "" : JSON.stringify(args);
	return `${toolName} ${oneLine(json ?? "", 100)}`.trim();
}

/** First line of `text`, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
	const line = text.replace(/\s+/g, " ").trim();
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

/** `4.2s`, `1m05s`, `1h02m`: an elapsed time given in ms. */
export function formatElapsed(ms: number): string {
	const seconds = Math.max(0, ms) / 1000;
	if (seconds < 60) return `${seconds.toFixed(1)}s`;
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) return `${minutes}m${String(Math.floor(seconds % 60)).padStart(2, "0")}s`;
	return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
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
	return `session: ${nativeSessionId} (resume with resume_session_id)`;
}
