/**
 * `renderCall` / `renderResult` of the `agent_graph` tool (docs/graphs.md "Live view"): a headline
 * (`3 ✓ · 1 running · 2 waiting · 1 skipped · ↑12k ↓3k $0.04`) and one line per node with its state
 * (waiting on its dependencies, queued, running with activity and elapsed time, done, failed, skipped
 * with the reason), its harness and usage. Escape cancels the run (Pi aborts the tool call).
 */
import type { AgentToolResult, Theme, ToolRenderResultOptions } from "@earendil-works/pi-coding-agent";
import { type Component, Text } from "@earendil-works/pi-tui";
import type { GraphDetails, GraphNodeDetails, NodeStatus } from "../core/graph-details.ts";
import { printable } from "../core/printable.ts";
import { ACTIVITY_LABELS, formatElapsed, formatTokens, formatUsage, oneLine, sumUsages } from "./format.ts";

type Color = Parameters<Theme["fg"]>[0];

const ICONS: Record<NodeStatus, string> = {
	waiting: "◦",
	queued: "…",
	running: "⏳",
	completed: "✓",
	failed: "✗",
	skipped: "–",
	cancelled: "⊘",
};

const COLORS: Record<NodeStatus, Color> = {
	waiting: "muted",
	queued: "muted",
	running: "warning",
	completed: "success",
	failed: "error",
	skipped: "muted",
	cancelled: "error",
};

/** `3 ✓ · 1 running · 2 waiting · 1 skipped · ↑12k ↓3k $0.04`: counts of non-empty states and the usage. */
export function graphHeadline(nodes: readonly GraphNodeDetails[]): string {
	const count = (status: NodeStatus) => nodes.filter((node) => node.status === status).length;
	const parts: string[] = [];
	if (count("completed")) parts.push(`${count("completed")} ✓`);
	for (const status of ["failed", "cancelled", "running", "queued", "waiting", "skipped"] as const) {
		if (count(status)) parts.push(`${count(status)} ${status}`);
	}
	const usage = sumUsages(nodes.flatMap((node) => (node.usage ? [node.usage] : [])));
	const spend = [
		usage.inputTokens ? `↑${formatTokens(usage.inputTokens)}` : "",
		usage.outputTokens ? `↓${formatTokens(usage.outputTokens)}` : "",
		usage.costUsd !== undefined ? `$${usage.costUsd.toFixed(2)}` : "",
	].filter(Boolean);
	if (spend.length > 0) parts.push(spend.join(" "));
	return parts.join(" · ");
}

/** What a node's state line says after its icon and key. */
function stateText(node: GraphNodeDetails, now: number): string {
	if (node.status === "waiting") return node.waitingOn ? `waiting on ${node.waitingOn.join(", ")}` : "waiting";
	if (node.status === "running") {
		const activity = node.activity ? ACTIVITY_LABELS[node.activity] : "running";
		return `${activity} ${node.startedAt !== undefined ? formatElapsed(now - node.startedAt) : ""}`.trim();
	}
	if (node.status === "skipped") return `skipped (${node.reason ?? "?"})`;
	if (node.status === "failed" || node.status === "cancelled") {
		return node.reason ? `${node.status}: ${oneLine(node.reason, 100)}` : node.status;
	}
	return node.durationMs !== undefined ? `${node.status} ${formatElapsed(node.durationMs)}` : node.status;
}

/** One node: icon, key, harness (and agent), state, a coordinator's or gate's progress, usage and model. */
function nodeLine(node: GraphNodeDetails, theme: Theme, now: number): string {
	const coordinator = node.parts !== undefined;
	const who =
		node.harness && !coordinator
			? ` ${theme.fg("dim", node.agent ? `${node.harness} ${printable(node.agent)}` : node.harness)}`
			: "";
	const usage = node.usage ? formatUsage(node.usage, coordinator ? undefined : node.model) : "";
	const progress = node.progress ? ` ${theme.fg("muted", oneLine(node.progress, 80))}` : "";
	return `${theme.fg(COLORS[node.status], ICONS[node.status])} ${theme.fg("accent", node.key)}${who} ${theme.fg(COLORS[node.status], stateText(node, now))}${progress}${usage ? ` ${theme.fg("dim", usage)}` : ""}`;
}

/** Rows of a coordinator's parts the live view shows: running and failed ones first, at most this many. */
const MAX_PART_ROWS = 6;

/** A coordinator's live part rows (`  ⏳ item 3 pi scout running 2.1s`), the rest counted on one line. */
function partLines(node: GraphNodeDetails, theme: Theme): string[] {
	const parts = node.parts ?? [];
	const shown = parts.filter((part) => part.status === "running" || part.status === "failed").slice(0, MAX_PART_ROWS);
	const lines = shown.map((part) => {
		const who = part.harness
			? ` ${theme.fg("dim", part.agent ? `${part.harness} ${printable(part.agent)}` : part.harness)}`
			: "";
		const state =
			part.status === "running"
				? part.activity
					? ACTIVITY_LABELS[part.activity]
					: "running"
				: `failed: ${oneLine(part.reason ?? "", 80)}`;
		const usage = part.usage ? formatUsage(part.usage, part.model) : "";
		return `  ${theme.fg(COLORS[part.status], ICONS[part.status])} ${part.name}${who} ${theme.fg(COLORS[part.status], state)}${usage ? ` ${theme.fg("dim", usage)}` : ""}`;
	});
	const hidden = parts.filter((part) => part.status === "running" || part.status === "failed").length - shown.length;
	if (hidden > 0) lines.push(theme.fg("muted", `  … ${hidden} more`));
	return lines;
}

/** The call line: the saved graph's name, or the inline graph's name and node count. */
export function renderGraphCall(
	args: { name?: string; graph?: { name?: string; nodes?: object } },
	theme: Theme,
): Component {
	const title = theme.fg("toolTitle", theme.bold("agent_graph "));
	if (args.name) return new Text(title + theme.fg("accent", printable(args.name)), 0, 0);
	const nodes = args.graph?.nodes ? Object.keys(args.graph.nodes).length : 0;
	return new Text(
		`${title}${theme.fg("accent", printable(args.graph?.name ?? "inline"))} ${theme.fg("dim", `(${nodes} nodes)`)}`,
		0,
		0,
	);
}

/** The result, live while running: the headline, then every node. */
export function renderGraphResult(
	result: AgentToolResult<GraphDetails | undefined>,
	_options: ToolRenderResultOptions,
	theme: Theme,
): Component {
	const details = result.details;
	if (!details || details.nodes.length === 0) {
		const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
		return new Text(theme.fg(details?.error ? "error" : "muted", text), 0, 0);
	}
	const now = Date.now();
	const lines = [
		theme.fg("muted", graphHeadline(details.nodes)),
		...details.nodes.flatMap((node) => [nodeLine(node, theme, now), ...partLines(node, theme)]),
	];
	if (details.error) lines.push(theme.fg("error", details.error));
	return new Text(lines.join("\n"), 0, 0);
}
