/**
 * `agent_graph` with `background: true` (docs/graphs.md "Background"): the graph runs as a job of the
 * session's job registry, under the same rules as a background `subagent` call (a host that stays open,
 * the job limit, one report as a follow-up message, `subagent_jobs` list / wait / result / cancel).
 */
import type { AgentToolResult, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { GraphDetails } from "../core/graph-details.ts";
import type { GraphRunOutcome } from "../graph/engine.ts";
import { childDetails } from "../runs/child-details.ts";
import type { FleetTrack } from "../runs/fleet.ts";
import { jobMessage } from "../runs/job-messages.ts";
import { formatUsageTotals } from "../ui/format.ts";
import { backgroundRefusal } from "./background.ts";
import { fleetGraphNodes } from "./graph-fleet.ts";
import {
	type AcceptedGraph,
	finalResult,
	graphLabel,
	graphRefusal,
	graphSucceeded,
	nodeRuns,
	runAccepted,
} from "./graph-run.ts";
import { uiHumanHost } from "./human-host.ts";
import { sumUsage } from "./result-text.ts";

/** The UI notice of a job's end; best effort: after a session switch the old UI may be gone. */
function notifyEnd(ctx: ExtensionContext, finished: { id: string; label: string; status: string }): void {
	try {
		ctx.ui.notify(
			`Background job ${finished.id} (${finished.label}) ${finished.status}`,
			finished.status === "completed" ? "info" : "warning",
		);
	} catch {
		// The session's UI is gone.
	}
}

/** Starts the graph as a job and answers at once with its id; refused when a job may no longer start. */
export function startGraphJob(
	accepted: AcceptedGraph,
	ctx: ExtensionContext,
): AgentToolResult<GraphDetails | undefined> {
	const { deps, limits, prepared } = accepted;
	// Again, now: calls of one turn run side by side, and another may have started a job meanwhile.
	const host = { mode: ctx.mode, depth: accepted.state.depth.depth };
	const refused = backgroundRefusal(host, deps.jobs, limits.maxBackgroundJobs);
	if (refused) return graphRefusal(refused, prepared.name);
	const silent = accepted.state.silent;
	let outcome: GraphRunOutcome | undefined;
	let tracked: FleetTrack | undefined;
	let nodes: ReadonlyMap<number, string> = new Map();
	const job = deps.jobs.start(
		"graph",
		graphLabel(prepared.name),
		async (signal, update, onInput, noMoreStarts) => {
			outcome = await runAccepted(accepted, {
				signal,
				noMoreStarts,
				onChildren: (children, keys) => {
					nodes = keys;
					update(children);
				},
				onInput,
				human: uiHumanHost(ctx),
			});
			return nodeRuns(accepted.prepared, outcome.children);
		},
		(finished, children, error) => {
			tracked?.end(children);
			const result = outcome && !error ? finalResult(accepted, outcome, finished.id) : undefined;
			const text = result
				? result.content.map((part) => (part.type === "text" ? part.text : "")).join("")
				: `failed: ${error}`;
			const message = jobMessage(finished, text, formatUsageTotals(sumUsage(children)));
			finished.resultText = text;
			deps.deliverJob(
				finished,
				message,
				{
					mode: "graph",
					children: children.map(childDetails),
					jobId: finished.id,
					graph: result?.details,
					status: finished.status,
					label: finished.label,
					...(finished.cancelReason ? { cancelReason: finished.cancelReason } : {}),
				},
				!silent,
			);
			if (!silent) notifyEnd(ctx, finished);
			return text;
		},
		() => outcome !== undefined && graphSucceeded(outcome),
	);
	// The user's fleet view lists the job's node children (`/subagents`); `x` there skips that node.
	tracked = deps.fleet?.track({
		id: job.id,
		origin: "background",
		label: job.label,
		children: () => job.children,
		running: () => job.status === "running",
		graphNode: fleetGraphNodes(accepted.durable.runs, accepted.durable.runId, () => nodes),
	});
	return {
		content: [
			{
				type: "text",
				text: `Started background job ${job.id}: ${job.label} (run_id ${accepted.durable.runId}). Its result will arrive as a follow-up message; subagent_jobs lists, waits for, reads or cancels jobs.`,
			},
		],
		details: { graph: prepared.name, nodes: [], jobId: job.id, runId: accepted.durable.runId },
	};
}
