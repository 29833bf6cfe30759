/**
 * The per-child card (docs/tools.md §How results are shown): one renderer for every place a child is shown —
 * a foreground `subagent` result, a background job's report, a `subagent_jobs` result, and graph nodes.
 * Collapsed: the status line (icon, name, harness, badges, phase, elapsed, last activity), the latest tool
 * calls, an answer or error preview sized to the width, the usage line. Expanded: the task the child
 * received, its session, every kept tool call and text in order, and the answer as Markdown.
 */
import type { Theme } from "@earendil-works/pi-coding-agent";
import { getMarkdownTheme } from "@earendil-works/pi-coding-agent";
import { type Component, Container, Markdown, Spacer, Text, TruncatedText } from "@earendil-works/pi-tui";
import type { ChildPhase, ChildRun } from "../core/child-run.ts";
import { printable } from "../core/printable.ts";
import type { RunSnapshot, ToolActivity } from "../core/run-result.ts";
import {
	ACTIVITY_LABELS,
	dialogWait,
	formatCost,
	formatElapsed,
	formatTokens,
	formatToolCall,
	formatUsage,
	oneLine,
	outcomeCounts,
	PHASE_ICONS,
	phaseLabel,
	sessionLine,
	sumUsages,
} from "./format.ts";

type Color = Parameters<Theme["fg"]>[0];

export const PHASE_COLORS: Record<ChildPhase, Color> = {
	pending: "muted",
	running: "warning",
	completed: "success",
	failed: "error",
	aborted: "error",
	timed_out: "error",
	skipped: "muted",
};

/** Longest text handed to a one-line preview before the width cuts it (keeps huge answers cheap). */
const PREVIEW_CHARS = 1_000;

/** How a set of cards is drawn. */
export interface CardView {
	expanded: boolean;
	/** ms since the Unix epoch, for elapsed times. */
	now: number;
}

/**
 * `2 ✓ · 1 ✗ · 1 running · ↑1.2k ↓340 $0.0123`: where a set of children stands, by outcome, and what
 * they spent (tokens, USD).
 */
export function headlineText(children: readonly ChildRun[]): string {
	const usage = sumUsages(children.flatMap((c) => (c.result ? [c.result.usage] : [])));
	const spent = [
		usage.inputTokens ? `↑${formatTokens(usage.inputTokens)}` : "",
		usage.outputTokens ? `↓${formatTokens(usage.outputTokens)}` : "",
		usage.costUsd !== undefined ? formatCost(usage.costUsd) : "",
	].filter(Boolean);
	const parts = [outcomeCounts(children.map((c) => c.phase))];
	if (spent.length > 0) parts.push(spent.join(" "));
	return parts.filter(Boolean).join(" · ");
}

/** The headline (for several children) and one card per child, as one component. */
export function renderCards(children: readonly ChildRun[], view: CardView, theme: Theme): Container {
	const container = new Container();
	if (children.length > 1) container.addChild(new Text(theme.fg("accent", headlineText(children)), 0, 0));
	for (const [i, child] of children.entries()) {
		if (i > 0) container.addChild(new Spacer(1));
		renderChildCard(container, child, { ...view, numbered: children.length > 1 }, theme);
	}
	return container;
}

/**
 * `waiting for the model · 4.2s · last activity 3s ago` while the child runs, `completed · 12.5s` once it
 * ended, `queued` or `skipped` otherwise.
 */
export function childStatus(child: ChildRun, now: number): string {
	const result = child.result;
	if (child.phase === "running") {
		const activity = dialogWait(result) ?? ACTIVITY_LABELS[result?.activity ?? "starting"];
		const startedAt = child.startedAt ?? result?.startedAt;
		const parts = [activity];
		if (startedAt) parts.push(formatElapsed(now - startedAt));
		const quiet = result?.lastEventAt === undefined ? 0 : Math.floor((now - result.lastEventAt) / 1000);
		if (quiet >= 1) parts.push(`last activity ${quiet}s ago`);
		return parts.join(" · ");
	}
	const label = phaseLabel(child.phase);
	return result && child.phase !== "pending" && child.phase !== "skipped"
		? `${label} · ${formatElapsed(result.durationMs)}`
		: label;
}

/** What a child runs: its agent or roster entry, or the harness of an ad-hoc run. */
export function childWho(child: ChildRun): string {
	return printable(child.agent ?? child.harness);
}

/** The task the child received (a chain step's with `{previous}` substituted, once it started). */
export function receivedTask(child: ChildRun): string {
	return child.result?.task ?? child.task;
}

/** `scout "find auth"`, or for an unnamed child `scout: <task preview>` (at most `max` characters). */
export function childTitle(child: ChildRun, max = 60): string {
	const who = childWho(child);
	return child.taskName ? `${who} "${printable(child.taskName)}"` : `${who}: ${oneLine(receivedTask(child), max)}`;
}

/**
 * The attach line of an interactive child while its tmux session exists (running, or kept open with
 * `stay_open`); `undefined` once it is gone (docs/interactive.md).
 */
export function attachLine(child: ChildRun): string | undefined {
	const info = child.result?.interactive;
	if (!info || (child.phase !== "running" && !info.keptOpen)) return undefined;
	return `attach: /subagent-attach ${info.session}  (from another terminal: ${info.attachCommand})`;
}

interface ChildView extends CardView {
	numbered: boolean;
}

/** Adds one child's card to `container`. */
export function renderChildCard(container: Container, child: ChildRun, view: ChildView, theme: Theme): void {
	const result = child.result;
	const icon = theme.fg(PHASE_COLORS[child.phase], PHASE_ICONS[child.phase]);
	const number = view.numbered ? theme.fg("muted", `${child.index + 1}. `) : "";
	const name = theme.fg("accent", childWho(child));
	const label = child.taskName ? ` ${theme.fg("dim", `"${printable(child.taskName)}"`)}` : "";
	const harness = child.agent ? theme.fg("muted", ` [${child.harness}]`) : "";
	const badge = result?.interactive ? ` ${theme.fg("accent", "interactive")}` : "";
	const status = theme.fg("muted", childStatus(child, view.now));
	// An unnamed child shows what it was asked, cut to the width.
	const preview = child.taskName ? "" : theme.fg("dim", ` — ${oneLine(receivedTask(child), PREVIEW_CHARS)}`);
	const head = `${icon} ${number}${name}${label}${harness}${badge} ${status}`;
	container.addChild(view.expanded ? new Text(head, 0, 0) : new TruncatedText(head + preview, 0, 0));
	const attach = attachLine(child);
	if (attach) container.addChild(new TruncatedText(theme.fg("accent", `  ${attach}`), 0, 0));
	if (view.expanded) {
		container.addChild(new Text(theme.fg("dim", `task: ${receivedTask(child)}`), 0, 0));
		if (result?.nativeSessionId)
			container.addChild(new Text(theme.fg("dim", sessionLine(result.nativeSessionId)), 0, 0));
		if (result?.artifactPath)
			container.addChild(new Text(theme.fg("dim", `full answer: ${printable(result.artifactPath)}`), 0, 0));
	}
	if (result) renderActivity(container, child, result, view, theme);
	else if (child.error)
		container.addChild(new TruncatedText(theme.fg("error", `  ${oneLine(child.error, PREVIEW_CHARS)}`), 0, 0));
}

/** `→ $ ls`, `✗` for a failed call, `…` while it runs, `⊘` for a call the child's end interrupted. */
export function toolLine(tool: ToolActivity, childRunning: boolean, theme: Theme): Component {
	const mark = tool.pending
		? childRunning
			? theme.fg("warning", "…")
			: theme.fg("muted", "⊘")
		: tool.isError
			? theme.fg("error", "✗")
			: theme.fg("muted", "→");
	return new TruncatedText(`  ${mark} ${theme.fg("toolOutput", formatToolCall(tool.toolName, tool.args))}`, 0, 0);
}

function renderActivity(
	container: Container,
	child: ChildRun,
	result: RunSnapshot,
	view: ChildView,
	theme: Theme,
): void {
	const running = child.phase === "running";
	const tools = result.tools;
	if (view.expanded) {
		// In order: the texts the child wrote between its tool calls, and every tool call kept.
		if (result.toolsDropped) {
			container.addChild(new Text(theme.fg("muted", `  … ${result.toolsDropped} earlier tool calls`), 0, 0));
		}
		const byId = new Map(tools.map((tool) => [tool.toolCallId, tool]));
		// Transcript texts are previews; the last one is the final answer, shown in full below.
		const answerItem = result.finalAnswerWarning ? -1 : result.transcript.findLastIndex((item) => item.kind === "text");
		for (const [index, item] of result.transcript.entries()) {
			if (item.kind === "tool") {
				const tool = byId.get(item.toolCallId);
				if (tool) container.addChild(toolLine(tool, running, theme));
			} else if (index !== answerItem) {
				container.addChild(new TruncatedText(`  ${theme.fg("dim", oneLine(item.text, PREVIEW_CHARS))}`, 0, 0));
			}
		}
	} else {
		for (const tool of tools.slice(-3)) container.addChild(toolLine(tool, running, theme));
	}
	const problem = result.status !== "completed" && !running ? result.error : undefined;
	if (problem) {
		container.addChild(
			view.expanded
				? new Text(theme.fg("error", `  ${problem}`), 0, 0)
				: new TruncatedText(theme.fg("error", `  ${oneLine(problem, PREVIEW_CHARS)}`), 0, 0),
		);
	}
	if (view.expanded && result.finalAnswer) {
		container.addChild(new Markdown(result.finalAnswer, 0, 0, getMarkdownTheme()));
		// details carry a preview of a long answer (docs/tools.md §Result details); say where the rest is.
		if (result.finalAnswerBytes !== undefined) {
			const where = result.artifactPath ?? result.artifactError ?? "no artifact";
			container.addChild(
				new Text(theme.fg("muted", `  (preview of ${result.finalAnswerBytes} bytes; full answer: ${where})`), 0, 0),
			);
		}
	} else if (result.finalAnswer) {
		container.addChild(
			new TruncatedText(`  ${theme.fg("toolOutput", oneLine(result.finalAnswer, PREVIEW_CHARS))}`, 0, 0),
		);
	}
	const usage = formatUsage(result.usage, result.model);
	if (usage) container.addChild(new TruncatedText(theme.fg("dim", `  ${usage}`), 0, 0));
}
