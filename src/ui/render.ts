/**
 * `renderCall` / `renderResult` of the `subagent` tool (docs/rules.md §Results). Collapsed: one block per child
 * with status icon, agent or harness, model, latest activity and usage. Expanded: the task, every tool
 * call and the answer as Markdown.
 */
import type { AgentToolResult, Theme, ToolRenderResultOptions } from "@earendil-works/pi-coding-agent";
import { getMarkdownTheme } from "@earendil-works/pi-coding-agent";
import { type Component, Container, Markdown, Spacer, Text } from "@earendil-works/pi-tui";
import type { ChildPhase, ChildRun } from "../core/child-run.ts";
import type { ChildCallPreview, SubagentCallPreview, SubagentDetails } from "../core/details.ts";
import type { ToolActivity } from "../core/run-result.ts";
import {
	ACTIVITY_LABELS,
	formatElapsed,
	formatTokens,
	formatToolCall,
	formatUsage,
	oneLine,
	PHASE_ICONS,
	sessionLine,
	sumUsages,
} from "./format.ts";

type Color = Parameters<Theme["fg"]>[0];

const PHASE_COLORS: Record<ChildPhase, Color> = {
	pending: "muted",
	running: "warning",
	completed: "success",
	failed: "error",
	aborted: "error",
	timed_out: "error",
	skipped: "muted",
};

/**
 * The call line: mode, and each child's agent, roster entry or harness with its task name or a task
 * preview. Once a parallel or chain call runs, its result lists every child, so the call line keeps only
 * the mode: each child is shown once.
 */
export function renderSubagentCall(
	args: SubagentCallPreview,
	theme: Theme,
	context?: { executionStarted?: boolean },
): Component {
	const title = theme.fg("toolTitle", theme.bold("subagent "));
	const items = args.tasks ?? args.chain;
	if (items) {
		const kind = args.tasks ? `parallel (${items.length} tasks)` : `chain (${items.length} steps)`;
		let text = title + theme.fg("accent", kind);
		if (context?.executionStarted) return new Text(text, 0, 0);
		for (const [i, item] of items.slice(0, 4).entries()) {
			const label = item.task_name ? `"${item.task_name}"` : oneLine(item.task ?? "", 60);
			text += `\n  ${theme.fg("muted", `${i + 1}.`)} ${theme.fg("accent", childName(item))} ${theme.fg("dim", label)}`;
		}
		if (items.length > 4) text += `\n  ${theme.fg("muted", `… +${items.length - 4} more`)}`;
		return new Text(text, 0, 0);
	}
	return new Text(
		`${title}${theme.fg("accent", childName(args))} ${theme.fg("dim", (args.task_name ? `"${args.task_name}" ` : "") + oneLine(args.task ?? "", 80))}`,
		0,
		0,
	);
}

/** What a call's child runs: the agent, the roster entry, or the harness of an ad-hoc run. */
function childName(item: ChildCallPreview): string {
	return item.agent ?? item.roster_entry ?? item.agent_type ?? "?";
}

/**
 * The result (live while running): per child its status icon, name, harness, phase, latest tools, answer
 * preview and usage line; expanded, the task, every kept tool call and text in order, and the answer as Markdown.
 */
export function renderSubagentResult(
	result: AgentToolResult<SubagentDetails>,
	options: ToolRenderResultOptions,
	theme: Theme,
): Component {
	const details = result.details;
	if (!details || details.children.length === 0) {
		const first = result.content[0];
		return new Text(theme.fg("error", first?.type === "text" ? first.text : "(no output)"), 0, 0);
	}
	const container = new Container();
	const now = Date.now();
	if (details.children.length > 1) container.addChild(new Text(headline(details.children, theme), 0, 0));
	for (const [i, child] of details.children.entries()) {
		if (i > 0) container.addChild(new Spacer(1));
		renderChild(container, child, { numbered: details.children.length > 1, expanded: options.expanded, now }, theme);
	}
	if (!options.expanded) container.addChild(new Text(theme.fg("muted", "(Ctrl+O to expand)"), 0, 0));
	return container;
}

/** `2/3 done · 1 running · ↑1.2k ↓340 $0.0123`: where a parallel or chain call stands, live. */
function headline(children: readonly ChildRun[], theme: Theme): string {
	const running = children.filter((c) => c.phase === "running").length;
	const pending = children.filter((c) => c.phase === "pending").length;
	const done = children.length - running - pending;
	const usage = sumUsages(children.flatMap((c) => (c.result ? [c.result.usage] : [])));
	const spent = [
		usage.inputTokens ? `↑${formatTokens(usage.inputTokens)}` : "",
		usage.outputTokens ? `↓${formatTokens(usage.outputTokens)}` : "",
		usage.costUsd !== undefined ? `$${usage.costUsd.toFixed(4)}` : "",
	].filter(Boolean);
	const parts = [
		`${done}/${children.length} done`,
		running ? `${running} running` : "",
		pending ? `${pending} queued` : "",
	];
	if (spent.length > 0) parts.push(spent.join(" "));
	return theme.fg("accent", parts.filter(Boolean).join(" · "));
}

/** `running a tool · 4.2s` while the child runs, `completed · 12.5s` once it ended, the phase otherwise. */
function statusOf(child: ChildRun, now: number): string {
	const result = child.result;
	if (child.phase === "running") {
		const activity = ACTIVITY_LABELS[result?.activity ?? "starting"];
		const startedAt = child.startedAt ?? result?.startedAt;
		return startedAt ? `${activity} · ${formatElapsed(now - startedAt)}` : activity;
	}
	return result && child.phase !== "pending" ? `${child.phase} · ${formatElapsed(result.durationMs)}` : child.phase;
}

interface ChildView {
	numbered: boolean;
	expanded: boolean;
	/** ms since the Unix epoch, for elapsed times. */
	now: number;
}

function renderChild(container: Container, child: ChildRun, view: ChildView, theme: Theme): void {
	const { expanded } = view;
	const result = child.result;
	const icon = theme.fg(PHASE_COLORS[child.phase], PHASE_ICONS[child.phase]);
	const number = view.numbered ? theme.fg("muted", `${child.index + 1}. `) : "";
	const name = theme.fg("accent", child.agent ?? child.harness);
	const label = child.taskName ? ` ${theme.fg("dim", `"${child.taskName}"`)}` : "";
	const harness = child.agent ? theme.fg("muted", ` [${child.harness}]`) : "";
	const status = theme.fg("muted", statusOf(child, view.now));
	container.addChild(new Text(`${icon} ${number}${name}${label}${harness} ${status}`, 0, 0));
	if (expanded) {
		container.addChild(new Text(theme.fg("dim", `task: ${child.task}`), 0, 0));
		if (result?.nativeSessionId)
			container.addChild(new Text(theme.fg("dim", sessionLine(result.nativeSessionId)), 0, 0));
		if (result?.artifactPath)
			container.addChild(new Text(theme.fg("dim", `full answer: ${result.artifactPath}`), 0, 0));
	}
	const tools = result?.tools ?? [];
	const toolLine = (tool: ToolActivity) => {
		const mark = tool.pending
			? theme.fg("warning", "…")
			: tool.isError
				? theme.fg("error", "✗")
				: theme.fg("muted", "→");
		return new Text(`  ${mark} ${theme.fg("toolOutput", formatToolCall(tool.toolName, tool.args))}`, 0, 0);
	};
	if (expanded && result) {
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
				if (tool) container.addChild(toolLine(tool));
			} else if (index !== answerItem) {
				container.addChild(new Text(`  ${theme.fg("dim", oneLine(item.text, 200))}`, 0, 0));
			}
		}
	} else {
		for (const tool of tools.slice(-3)) container.addChild(toolLine(tool));
	}
	if (result) {
		const problem = result.status !== "completed" && result.status !== "running" ? result.error : undefined;
		if (problem)
			container.addChild(new Text(theme.fg("error", `  ${oneLine(problem, expanded ? 10_000 : 160)}`), 0, 0));
		if (expanded && result.finalAnswer) {
			container.addChild(new Markdown(result.finalAnswer, 0, 0, getMarkdownTheme()));
			// details carry a preview of a long answer (docs/tools.md §Result details); say where the rest is.
			if (result.finalAnswerBytes !== undefined) {
				const where = result.artifactPath ?? result.artifactError ?? "no artifact";
				container.addChild(
					new Text(theme.fg("muted", `  (preview of ${result.finalAnswerBytes} bytes; full answer: ${where})`), 0, 0),
				);
			}
		} else {
			const latest = result.finalAnswer || "";
			if (latest) container.addChild(new Text(`  ${theme.fg("toolOutput", oneLine(latest, 160))}`, 0, 0));
		}
		const usage = formatUsage(result.usage, result.model);
		if (usage) container.addChild(new Text(theme.fg("dim", `  ${usage}`), 0, 0));
	} else if (child.error) {
		container.addChild(new Text(theme.fg("error", `  ${child.error}`), 0, 0));
	}
}
