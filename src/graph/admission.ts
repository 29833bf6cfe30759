/**
 * One admission wave (docs/graphs.md "Execution"), as a pure function of the run's state: every waiting
 * node whose dependencies are settled is admitted, skipped (a dependency that did not complete, a stop, a
 * false `when`, `max_nodes_started`) or failed (attempts exhausted); a pause holds admissions only.
 */
import type { BudgetStop, SkipReason } from "../core/graph-details.ts";
import { evaluateCondition } from "./conditions.ts";
import { maxAttempts } from "./controls.ts";
import { applyEvent, type GraphEvent, type GraphRunState, isSettled } from "./run-state.ts";
import type { CompiledGraph, CompiledNode } from "./validate.ts";
import type { RefScope } from "./value-refs.ts";

/** True once a cancel, an infrastructure error, a budget or a graceful stop stopped further starts. */
export function isStopped(s: GraphRunState): boolean {
	return (
		s.cancelled !== undefined || s.infrastructureError !== undefined || s.budgetStop !== undefined || s.stopped === true
	);
}

/** Why a node that can no longer start is skipped. */
export function stopReason(state: GraphRunState): SkipReason {
	if (state.budgetStop) return { kind: "budget", budget: state.budgetStop.budget };
	if (state.stopped && !state.cancelled && !state.infrastructureError) return { kind: "stopped" };
	return { kind: "cancelled", why: state.cancelled ?? `infrastructure error: ${state.infrastructureError}` };
}

/** The inputs and the outputs of completed nodes, for templates and conditions. */
export function runScope(graph: CompiledGraph, state: GraphRunState): RefScope {
	const outputs: Record<string, unknown> = {};
	for (const [key, node] of Object.entries(state.nodes)) if (node.status === "completed") outputs[key] = node.output;
	return { inputs: graph.inputs ?? {}, outputs };
}

/** The events of one wave and the nodes it admits (to launch once the events are durable). */
export function admissionWave(
	graph: CompiledGraph,
	current: GraphRunState,
	now: number,
): { events: GraphEvent[]; admitted: CompiledNode[] } {
	const events: GraphEvent[] = [];
	const admitted: CompiledNode[] = [];
	let state = current;
	const limit = graph.definition.limits?.max_nodes_started;
	const skip = (compiled: CompiledNode, reason: SkipReason): GraphEvent => ({
		type: "skip",
		node: compiled.key,
		reason,
	});
	for (const compiled of graph.nodes) {
		if (state.nodes[compiled.key].status !== "waiting") continue;
		const deps = compiled.dependsOn.map((dep) => ({ dep, status: state.nodes[dep].status }));
		if (!deps.every((d) => isSettled(d.status))) continue;
		const notDone = deps.find((d) => d.status !== "completed");
		const stopped = isStopped(state);
		let event: GraphEvent;
		// A stop explains a skip better than a dependency it cancelled or skipped; a failure is its own reason.
		if (notDone && (notDone.status === "failed" || !stopped)) {
			event = skip(compiled, { kind: "dependency", node: notDone.dep, status: notDone.status });
		} else if (stopped) event = skip(compiled, stopReason(state));
		else if (compiled.when && !evaluateCondition(compiled.when, runScope(graph, state))) {
			event = skip(compiled, { kind: "condition" });
		} else if (limit !== undefined && state.started >= limit) {
			const stop: BudgetStop = { budget: "max_nodes_started", limit, spent: state.started };
			// Only admissions stop: nodes admitted within the limit still run.
			events.push({ type: "budget", stop });
			state = applyEvent(state, { type: "budget", stop });
			event = skip(compiled, { kind: "budget", budget: "max_nodes_started" });
		} else if (state.nodes[compiled.key].attempts >= maxAttempts(compiled.node)) {
			event = {
				type: "fail",
				node: compiled.key,
				at: now,
				error: `attempts exhausted (max_attempts ${maxAttempts(compiled.node)})`,
			};
		} else if (state.paused) continue;
		else {
			event = { type: "admit", node: compiled.key };
			admitted.push(compiled);
		}
		events.push(event);
		state = applyEvent(state, event);
	}
	return { events, admitted };
}
