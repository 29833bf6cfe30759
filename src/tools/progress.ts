/**
 * Live progress of a foreground `subagent` call for the UI: a one-line count and the children (bounded
 * snapshots, `childDetails`), throttled.
 */
import type { AgentToolResult } from "@earendil-works/pi-coding-agent";
import type { CallMode, ChildRun } from "../core/child-run.ts";
import type { SubagentDetails } from "../core/details.ts";
import { childDetails } from "../runs/child-details.ts";
import { dialogWait, outcomeCounts } from "../ui/format.ts";

/**
 * Progress updates for the UI: the latest children at most once per `intervalMs` (ms), the last one never
 * lost (a pending update is sent when its time comes). `stop()` drops a pending update.
 */
export function throttledProgress(
	mode: CallMode,
	intervalMs: number,
	onUpdate: ((partial: AgentToolResult<SubagentDetails>) => void) | undefined,
) {
	let lastUpdate = 0;
	let latest: ChildRun[] = [];
	let pending: ReturnType<typeof setTimeout> | undefined;
	const flush = () => {
		pending = undefined;
		lastUpdate = Date.now();
		onUpdate?.({
			content: [{ type: "text", text: progressLine(latest) }],
			details: { mode, children: latest.map(childDetails) },
		});
	};
	return {
		report(current: ChildRun[]) {
			if (!onUpdate) return;
			latest = current;
			const wait = intervalMs - (Date.now() - lastUpdate);
			if (wait <= 0) flush();
			else pending ??= setTimeout(flush, wait);
		},
		stop() {
			if (pending) clearTimeout(pending);
		},
	};
}

/** `subagent: 2 ✓ · 1 ✗ · 1 running · 1 queued` (the cards' headline, `outcomeCounts`). */
function progressLine(children: ChildRun[]): string {
	const waits = children.flatMap((child) => {
		const wait = child.phase === "running" ? dialogWait(child.result) : undefined;
		return wait ? [`; child ${child.index} ${wait}`] : [];
	});
	return `subagent: ${outcomeCounts(children.map((child) => child.phase))}${waits.join("")}`;
}
