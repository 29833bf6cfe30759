/**
 * A graph run's nodes in the fleet view (docs/background-jobs.md §The fleet view): each node's child is
 * listed with its run and node, and `x` on it skips that node through the run's controls, as
 * `/graph skip <run_id> <node>` does (docs/graphs.md §Controls): a waiting node is skipped at once, a queued
 * or running one is killed, then `skipped (request)`.
 */
import type { ChildRun } from "../core/child-run.ts";
import type { FleetGraphNode } from "../core/fleet.ts";
import type { GraphRuns } from "./graph-runs.ts";

/**
 * The fleet source's `graphNode` for run `runId`.
 * @param nodes the node key at each child position (`nodeKeysByPosition`), read at each call.
 */
export function fleetGraphNodes(
	runs: GraphRuns,
	runId: string,
	nodes: () => ReadonlyMap<number, string>,
): (child: ChildRun) => FleetGraphNode | undefined {
	return (child) => {
		const node = nodes().get(child.index);
		return node === undefined ? undefined : { runId, node, skip: () => skipNode(runs, runId, node) };
	};
}

/** The skip control sent to the run's engine; its answer in words (a refusal changes nothing). */
async function skipNode(runs: GraphRuns, runId: string, node: string): Promise<string> {
	const live = runs.get(runId);
	if (!live) return `not skipped: graph run ${runId} is not running in this process`;
	const answer = await live.handle.control({ action: "skip", node });
	return answer.accepted
		? `node "${node}" of graph run ${runId}: skip accepted (a running node is killed, then skipped)`
		: `node "${node}" not skipped: ${answer.reason}`;
}
