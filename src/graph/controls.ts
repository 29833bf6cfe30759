/**
 * Controls of a graph run (docs/graphs.md §Controls) as pure decisions over its state: which events a
 * control commits (durably, before any effect) and what it then kills, or why it is refused (a refused
 * control changes nothing). Also the state a run restored after a crash continues from (§Durability).
 */
import type { GraphNode } from "./definition.ts";
import { type GraphEvent, type GraphRunState, isSettled } from "./run-state.ts";
import type { CompiledGraph } from "./validate.ts";

/** The control actions a run takes (`list` and `status` only read). */
export type ControlAction = "cancel" | "skip" | "retry" | "pause" | "resume";

export interface ControlRequest {
	action: ControlAction;
	/** skip, retry: the node's key. */
	node?: string;
}

/** Every control answers one of these. */
export type ControlAnswer = { accepted: true; note?: string } | { accepted: false; reason: string };

/** An accepted control: the events to commit first, then what to kill (`run`: every running node). */
export interface ControlDecision {
	events: GraphEvent[];
	kill?: { node: string } | "run";
}

/** Admissions a node may have when its definition sets no `max_attempts` (the first run and one more). */
export const DEFAULT_MAX_ATTEMPTS = 2;

/** A node's `max_attempts`, or the default. */
export function maxAttempts(node: GraphNode): number {
	return node.max_attempts ?? DEFAULT_MAX_ATTEMPTS;
}

/** True once the run has stopped for good (cancelled, an infrastructure error) or every node is settled. */
export function runEnded(state: GraphRunState): boolean {
	if (state.cancelled !== undefined || state.infrastructureError !== undefined) return true;
	return Object.values(state.nodes).every((node) => isSettled(node.status));
}

/**
 * Decides `request` against `state`.
 * @returns the decision, or `{ refused }` with the reason (nothing is to change).
 */
export function decideControl(
	state: GraphRunState,
	graph: CompiledGraph,
	request: ControlRequest,
): ControlDecision | { refused: string } {
	if (runEnded(state)) return { refused: "the run has ended" };
	switch (request.action) {
		case "cancel":
			return { events: [{ type: "cancel_run", why: "cancelled by request" }], kill: "run" };
		case "pause":
			return state.paused ? { refused: "the run is already paused" } : { events: [{ type: "pause" }] };
		case "resume":
			return state.paused ? { events: [{ type: "resume" }] } : { refused: "the run is not paused" };
		case "skip":
		case "retry":
			return decideNodeControl(state, graph, request.action, request.node);
	}
}

/** A skip or retry of one node (a retry also of a finished run's node: it reopens the run). */
export function decideNodeControl(
	state: GraphRunState,
	graph: CompiledGraph,
	action: "skip" | "retry",
	key: string | undefined,
): ControlDecision | { refused: string } {
	if (key === undefined) return { refused: `${action} needs node (a node key)` };
	const node = state.nodes[key];
	const compiled = graph.nodes.find((n) => n.key === key);
	if (!node || !compiled) return { refused: `no node "${key}"; nodes: ${Object.keys(state.nodes).join(", ")}` };
	if (node.disposition) return { refused: `node "${key}" already has a ${node.disposition} pending` };
	const admitted = node.status === "queued" || node.status === "running";
	if (action === "skip") {
		if (node.status === "waiting") return { events: [{ type: "skip", node: key, reason: { kind: "request" } }] };
		if (!admitted)
			return { refused: `node "${key}" is ${node.status}; only a waiting, queued or running node is skipped` };
		return { events: [{ type: "dispose", node: key, disposition: "skip" }], kill: { node: key } };
	}
	const limit = maxAttempts(compiled.node);
	if (node.attempts >= limit) return { refused: `node "${key}" has used its ${limit} attempts (max_attempts)` };
	if (admitted) return { events: [{ type: "dispose", node: key, disposition: "retry" }], kill: { node: key } };
	if (node.status === "waiting" || node.status === "completed") {
		return { refused: `node "${key}" is ${node.status}; only a failed, skipped, cancelled or running node is retried` };
	}
	return { events: requeueWithDependents(state, graph, key) };
}

/** `key` back to waiting, and every node skipped (transitively) because of it. */
function requeueWithDependents(state: GraphRunState, graph: CompiledGraph, key: string): GraphEvent[] {
	const again = new Set([key]);
	for (const compiled of graph.nodes) {
		const node = state.nodes[compiled.key];
		if (node.status !== "skipped" || node.skip?.kind !== "dependency") continue;
		if (again.has(node.skip.node)) again.add(compiled.key);
	}
	return [...again].map((node) => ({ type: "requeue", node }));
}

/**
 * The state a restored run continues from: a node that was admitted when the process died goes back to
 * waiting (its next admission is a new attempt, within `max_attempts`), unless a skip was its durable
 * disposition (then it is skipped by request). Settled nodes, attempts and outputs stay as they were.
 * @returns the events that make that state (committed before anything runs).
 */
export function restoreEvents(state: GraphRunState): GraphEvent[] {
	const events: GraphEvent[] = [];
	for (const [key, node] of Object.entries(state.nodes)) {
		if (node.status !== "queued" && node.status !== "running") continue;
		events.push(
			node.disposition === "skip"
				? { type: "skip", node: key, reason: { kind: "request" } }
				: { type: "requeue", node: key },
		);
	}
	return events;
}
