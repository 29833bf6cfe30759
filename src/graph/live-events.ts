/**
 * A child's live change as run events (docs/graphs.md "Live view"): the node's start once its first child
 * runs, and the usage, model and session of the node's own child or of a coordinator's part. These events
 * are not checkpointed on their own (admissions and settlements are); the next checkpoint carries them.
 */
import type { ChildRun } from "../core/child-run.ts";
import type { GraphEvent, NodeState } from "./run-state.ts";

/** The events `child`'s change makes for node `key` (its part `part`, when a coordinator's). */
export function childEvents(node: NodeState, key: string, child: ChildRun, part?: string): GraphEvent[] {
	const events: GraphEvent[] = [];
	const started = child.phase !== "pending" && child.phase !== "skipped";
	if (node.status === "queued" && started) {
		events.push({
			type: "start",
			node: key,
			at: child.startedAt ?? Date.now(),
			harness: child.harness,
			agent: child.agent,
		});
	}
	const result = child.result;
	const live = node.status === "running" || events.length > 0;
	if (!part) {
		if (result && live) {
			events.push({
				type: "progress",
				node: key,
				usage: result.usage,
				model: result.model,
				nativeSessionId: result.nativeSessionId,
			});
		}
		return events;
	}
	const state = node.parts?.[part];
	if (!state || !live) return events;
	if (state.status === "queued" && started) {
		const step = {
			kind: "start" as const,
			at: child.startedAt ?? Date.now(),
			harness: child.harness,
			agent: child.agent,
		};
		events.push({ type: "part", node: key, part, step });
	}
	if (result && (state.status === "running" || state.status === "queued")) {
		const step = {
			kind: "progress" as const,
			usage: result.usage,
			model: result.model,
			nativeSessionId: result.nativeSessionId,
		};
		events.push({ type: "part", node: key, part, step });
	}
	return events;
}
