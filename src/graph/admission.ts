/**
 * One admission wave (docs/graphs.md "Execution"), as a pure function of the run's state: every waiting
 * node whose dependencies are settled is admitted, skipped (a dependency that did not complete, a stop, a
 * false `when`, `max_nodes_started`) or failed (attempts exhausted); a pause holds admissions only.
 */
import type { BudgetStop, SkipReason } from "../core/graph-details.ts";
import type { CompiledGraph, CompiledNode } from "./compiled.ts";
import { evaluateCondition } from "./conditions.ts";
import { maxAttempts } from "./controls.ts";
import { applyEvent, type GraphEvent, type GraphRunState, isSettled } from "./run-state.ts";
import { frameInputs } from "./subgraph-exit.ts";
import type { RefScope } from "./value-refs.ts";

/** True once anything stopped further starts: a cancel, an infrastructure error, a budget, a graceful stop. */
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

/**
 * The inputs (of the top graph, or of subgraph `frame`) and the outputs of completed nodes, for templates
 * and conditions; or why a subgraph's inputs cannot be given (`subgraph-exit.ts`).
 */
export function runScope(graph: CompiledGraph, state: GraphRunState, frame?: string): RefScope | { error: string } {
	const outputs: Record<string, unknown> = {};
	for (const [key, node] of Object.entries(state.nodes)) if (node.status === "completed") outputs[key] = node.output;
	const inputs = frameInputs(graph, outputs, frame);
	return "error" in inputs ? inputs : { inputs: inputs.inputs, outputs };
}

/** True when the node's `when` and every enclosing graph node's `when` hold (a frame without inputs holds none). */
function conditionsHold(graph: CompiledGraph, state: GraphRunState, compiled: CompiledNode): boolean {
	const tests = [...(compiled.when ? [{ when: compiled.when, frame: compiled.frame }] : []), ...(compiled.gates ?? [])];
	return tests.every(({ when, frame }) => {
		const scope = runScope(graph, state, frame);
		return !("error" in scope) && evaluateCondition(when, scope);
	});
}

/** A subgraph's exit fails when one of its inner nodes failed or was cancelled. */
function innerFailure(state: GraphRunState, compiled: CompiledNode): string | undefined {
	const failed = compiled.exit?.inner.find((key) => ["failed", "cancelled"].includes(state.nodes[key].status));
	return failed === undefined ? undefined : `subgraph node "${failed}" ${state.nodes[failed].status}`;
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
		// A parked human gate waits for a session with a UI (the engine unparks it there).
		if (state.nodes[compiled.key].status !== "waiting" || state.nodes[compiled.key].parked) continue;
		if (!compiled.dependsOn.every((dep) => isSettled(state.nodes[dep].status))) continue;
		const required = compiled.exit?.requires ?? compiled.dependsOn;
		const notDone = required
			.map((dep) => ({ dep, status: state.nodes[dep].status }))
			.find((d) => d.status !== "completed");
		const failedInside = innerFailure(state, compiled);
		const stopped = isStopped(state);
		let event: GraphEvent;
		// A stop explains a skip better than a dependency it cancelled or skipped; a failure is its own reason.
		if (notDone && (notDone.status === "failed" || !stopped)) {
			event = skip(compiled, { kind: "dependency", node: notDone.dep, status: notDone.status });
		} else if (stopped) event = skip(compiled, stopReason(state));
		else if (!conditionsHold(graph, state, compiled)) event = skip(compiled, { kind: "condition" });
		else if (failedInside) event = { type: "fail", node: compiled.key, at: now, error: failedInside };
		else if (limit !== undefined && state.started >= limit) {
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
