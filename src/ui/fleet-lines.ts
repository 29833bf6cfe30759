/**
 * The text of the fleet view (docs/background-jobs.md §The fleet view): one row per child, and a child's
 * transcript from its own in-memory record — messages, tool calls with their output, the final answer,
 * where its session file is. Plain strings with theme colours; the view cuts and scrolls them.
 */
import type { Theme } from "@earendil-works/pi-coding-agent";
import type { ChildRun } from "../core/child-run.ts";
import type { FleetEntry } from "../core/fleet.ts";
import type { ToolActivity } from "../core/run-result.ts";
import { attachLine, childStatus, childTitle, PHASE_COLORS } from "./card.ts";
import {
	formatCost,
	formatTokens,
	formatToolCall,
	formatUsage,
	PHASE_ICONS,
	phaseLabel,
	sessionLine,
} from "./format.ts";

/** `background 1a2b3c4d`, `foreground`, `graph g1`: where an entry's call comes from. */
export function originLabel(entry: FleetEntry): string {
	return entry.origin === "foreground" ? "foreground" : `${entry.origin} ${entry.callId}`;
}

/** The last tool call of a child, `$ ls` style; "" when it made none. */
function lastTool(child: ChildRun): string {
	const tool = child.result?.tools.at(-1);
	return tool ? formatToolCall(tool.toolName, tool.args) : "";
}

/** `↑1.2k ↓340 $0.0123`: a child's tokens and cost so far; "" when it reported none. */
function spent(child: ChildRun): string {
	const usage = child.result?.usage;
	if (!usage) return "";
	return [
		usage.inputTokens ? `↑${formatTokens(usage.inputTokens)}` : "",
		usage.outputTokens ? `↓${formatTokens(usage.outputTokens)}` : "",
		usage.costUsd !== undefined ? formatCost(usage.costUsd) : "",
	]
		.filter(Boolean)
		.join(" ");
}

/**
 * One row: `⏳ scout "a" [pi] interactive running a tool · 4.2s · $ ls · ↑1.2k $0.01 · background 1a2b3c4d`
 * (icon, name, harness, badge, phase and elapsed, last tool call, tokens and cost, origin).
 */
export function fleetRow(entry: FleetEntry, now: number, theme: Theme): string {
	const child = entry.child;
	const icon = theme.fg(PHASE_COLORS[child.phase], PHASE_ICONS[child.phase]);
	const badge = child.result?.interactive ? ` ${theme.fg("accent", "interactive")}` : "";
	const parts = [childStatus(child, now), lastTool(child), spent(child), originLabel(entry)].filter(Boolean);
	return `${icon} ${theme.fg("accent", childTitle(child, 40))} ${theme.fg("muted", `[${child.harness}]`)}${badge} ${theme.fg("muted", parts.join(" · "))}`;
}

/** The transcript of `entry`'s child: head, its messages and tool calls in order, the answer, the failure. */
export function transcriptLines(entry: FleetEntry, sessionFile: string | undefined, theme: Theme): string[] {
	const child = entry.child;
	const result = child.result;
	const lines = [
		theme.bold(`${childTitle(child, 80)} [${child.harness}] ${phaseLabel(child.phase)} — ${originLabel(entry)}`),
		theme.fg("dim", `task: ${result?.task ?? child.task}`),
	];
	const attach = attachLine(child);
	if (attach) lines.push(theme.fg("accent", attach));
	if (!result) {
		if (child.error) lines.push(theme.fg("error", child.error));
		else lines.push(theme.fg("muted", "(not started)"));
		return lines;
	}
	lines.push(theme.fg("dim", `cwd: ${result.cwd}`));
	if (result.nativeSessionId) lines.push(theme.fg("dim", sessionLine(result.nativeSessionId)));
	lines.push(theme.fg("dim", `session file: ${sessionFile ?? "(not found in the harness's store)"}`));
	const usage = formatUsage(result.usage, result.model);
	if (usage) lines.push(theme.fg("dim", `usage: ${usage}`));
	lines.push("", theme.fg("accent", "── messages and tool calls ──"));
	const byId = new Map(result.tools.map((tool) => [tool.toolCallId, tool]));
	if (result.toolsDropped) lines.push(theme.fg("muted", `… ${result.toolsDropped} earlier tool calls`));
	for (const item of result.transcript) {
		if (item.kind === "text") lines.push(item.text, "");
		else {
			const tool = byId.get(item.toolCallId);
			if (tool) lines.push(...toolLines(tool, child.phase === "running", theme));
		}
	}
	lines.push(theme.fg("accent", "── final answer ──"), result.finalAnswer || theme.fg("muted", "(none yet)"));
	if (result.error && child.phase !== "running") lines.push("", theme.fg("error", `error: ${result.error}`));
	if (result.stderrTail.trim() && child.phase !== "completed") {
		lines.push("", theme.fg("muted", "stderr (tail):"), result.stderrTail.trimEnd());
	}
	return lines;
}

/** A tool call and its output, indented. */
function toolLines(tool: ToolActivity, running: boolean, theme: Theme): string[] {
	const mark = tool.pending ? (running ? "…" : "⊘") : tool.isError ? "✗" : "→";
	const color = tool.isError ? "error" : "toolOutput";
	const lines = [theme.fg(color, `${mark} ${formatToolCall(tool.toolName, tool.args)}`)];
	if (tool.output !== undefined) {
		for (const line of tool.output.trimEnd().split("\n")) lines.push(theme.fg("dim", `    ${line}`));
	} else if (tool.pending) {
		lines.push(theme.fg("muted", running ? "    (running)" : "    (interrupted: the child ended first)"));
	}
	lines.push("");
	return lines;
}
