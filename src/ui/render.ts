/**
 * `renderCall` / `renderResult` of the `subagent` tool (docs/rules.md §Results); each child is drawn by the
 * one card renderer (`card.ts`).
 */
import type { AgentToolResult, Theme, ToolRenderResultOptions } from "@earendil-works/pi-coding-agent";
import { type Component, Text } from "@earendil-works/pi-tui";
import type { ChildCallPreview, SubagentCallPreview, SubagentDetails } from "../core/details.ts";
import { renderCards } from "./card.ts";
import { oneLine, plural } from "./format.ts";
import { rowTicker } from "./ticker.ts";

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
		const kind = args.tasks ? `parallel (${plural(items.length, "task")})` : `chain (${plural(items.length, "step")})`;
		let text = title + theme.fg("accent", kind);
		if (context?.executionStarted) return new Text(text, 0, 0);
		for (const [i, item] of items.slice(0, 4).entries()) {
			const label = item.task_name ? `"${oneLine(item.task_name, 60)}"` : oneLine(item.task ?? "", 60);
			text += `\n  ${theme.fg("muted", `${i + 1}.`)} ${theme.fg("accent", childName(item))} ${theme.fg("dim", label)}`;
		}
		if (items.length > 4) text += `\n  ${theme.fg("muted", `… +${items.length - 4} more`)}`;
		return new Text(text, 0, 0);
	}
	return new Text(
		`${title}${theme.fg("accent", childName(args))} ${theme.fg("dim", (args.task_name ? `"${oneLine(args.task_name, 60)}" ` : "") + oneLine(args.task ?? "", 80))}`,
		0,
		0,
	);
}

/** What a call's child runs: the agent, the roster entry, the harness of an ad-hoc run, or the session it resumes. */
function childName(item: ChildCallPreview): string {
	// The call line shows the arguments as the model gave them, before the tool boundary checked them.
	const named = item.agent ?? item.roster_entry ?? item.agent_type;
	if (named) return oneLine(named, 60);
	return item.resume_session_id ? `resume ${oneLine(item.resume_session_id, 14)}` : "(no agent)";
}

/**
 * The result (live while running): the headline and one card per child (`renderCards`). While a child
 * runs, the row redraws every second (`Ticker`), so elapsed times tick between the child's events.
 */
export function renderSubagentResult(
	result: AgentToolResult<SubagentDetails>,
	options: ToolRenderResultOptions,
	theme: Theme,
	context?: { state?: unknown; invalidate?: () => void },
): Component {
	const details = result.details;
	const ticker = rowTicker(context);
	if (!details || details.children.length === 0) {
		ticker?.stop();
		const first = result.content[0];
		// A background call's own result announces its job; a call refused before it started is an error.
		const color = details?.jobId && !details.error ? "muted" : "error";
		return new Text(theme.fg(color, first?.type === "text" ? first.text : "(no output)"), 0, 0);
	}
	const container = renderCards(details.children, { expanded: options.expanded, now: Date.now() }, theme);
	if (!options.expanded) container.addChild(new Text(theme.fg("muted", "(Ctrl+O to expand)"), 0, 0));
	if (!ticker) return container;
	ticker.set(details.children.some((child) => child.phase === "running"));
	return ticker.watch(container);
}
