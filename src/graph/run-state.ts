/**
 * The state of one graph run as plain JSON (docs/graphs.md "Node states"), and the one pure function that
 * changes it: `applyEvent`. Every change of a node is an explicit event, so a checkpointer (issue 18) can
 * persist the events of an admission wave before any child of it starts, and a settlement before its
 * dependents are admitted; the engine applies events only through `GraphEngine.commit`.
 *
 * Transitions: waiting → queued (admit) | skipped | failed (attempts exhausted); queued → running (start) |
 * failed (dispatch refused) | skipped | cancelled; running → completed | failed | cancelled | skipped (by
 * request). A terminal state changes only by a control: `requeue` (retry, or a restored run's node that was
 * running) puts a node back to waiting, its attempts kept (docs/graphs.md §Controls). A coordinator's
 * `part` events change its parts (`part-state.ts`) while it is admitted; a human gate with no UI `park`s
 * back to waiting (the run stays unfinished) until a session with a UI `unpark`s it.
 */
import type { BudgetStop, NodeStatus, SkipReason } from "../core/graph-details.ts";
import type { Harness } from "../core/launch-spec.ts";
import type { Usage } from "../core/run-event.ts";
import { emptyUsage } from "../core/run-result.ts";
import { applyPartStep, type PartState, type PartStep, partsUsage, type RunRecord } from "./part-state.ts";

/** Version of the serialized run state (bumped on incompatible changes). */
export const RUN_STATE_VERSION = 1;

export interface NodeState extends RunRecord {
	skip?: SkipReason;
	/**
	 * A control's disposition on an admitted node, durable before its effect (the kill): applied once the
	 * node's process group is gone, or by a restore when the process died first.
	 */
	disposition?: Disposition;
	/** A coordinator's parts by name (`item 3`, `round 2 worker`): fan-out items, feedback rounds. */
	parts?: Record<string, PartState>;
	/** Completed: what the result line adds (failed items a fan-out kept going past, an accepted last round). */
	note?: string;
	/** A human gate with no UI to ask (`on_headless: "park"`): the request that waits for a session with a UI. */
	parked?: { requestId: string; question: string };
	/** A command gate's latest start: its argv as it runs, every `${…}` reference filled. */
	command?: string[];
}

/** What a skip or retry control asked of an admitted node. */
export type Disposition = "skip" | "retry";

export interface GraphRunState {
	version: number;
	/** Node key → state; keys in dependency order. */
	nodes: Record<string, NodeState>;
	/** Nodes admitted so far (counted against `limits.max_nodes_started`). */
	started: number;
	/** Set once a budget or limit stopped further starts. */
	budgetStop?: BudgetStop;
	/** Set once the run is cancelled (Escape, a job cancel, `fail_fast`): why. */
	cancelled?: string;
	/** Set once a graceful stop asked that nothing more start (running nodes go on). */
	stopped?: boolean;
	/** Set once an infrastructure error stopped the run. */
	infrastructureError?: string;
	/** Set while a pause control holds admissions (settlements and skips go on). */
	paused?: boolean;
}

/** One change of the run, as a checkpointer would persist it. */
export type GraphEvent =
	| { type: "admit"; node: string }
	| { type: "start"; node: string; at: number; harness?: Harness; agent?: string; command?: string[] }
	| { type: "progress"; node: string; usage: Usage; model?: string; nativeSessionId?: string }
	| { type: "complete"; node: string; at: number; output?: unknown; note?: string }
	| { type: "part"; node: string; part: string; step: PartStep }
	| { type: "park"; node: string; requestId: string; question: string }
	| { type: "unpark"; node: string }
	| { type: "fail"; node: string; at: number; error: string }
	| { type: "skip"; node: string; reason: SkipReason }
	| { type: "cancel"; node: string; at: number }
	| { type: "dispose"; node: string; disposition: Disposition }
	| { type: "requeue"; node: string }
	| { type: "pause" }
	| { type: "resume" }
	| { type: "budget"; stop: BudgetStop }
	| { type: "cancel_run"; why: string }
	| { type: "stop_starts" }
	| { type: "infrastructure"; error: string };

/** Which states each node event may leave from. */
const FROM: Record<string, readonly NodeStatus[]> = {
	admit: ["waiting"],
	start: ["queued"],
	progress: ["running"],
	complete: ["running"],
	fail: ["waiting", "queued", "running"],
	skip: ["waiting", "queued", "running"],
	cancel: ["queued", "running"],
	dispose: ["queued", "running"],
	requeue: ["queued", "running", "failed", "skipped", "cancelled"],
	part: ["queued", "running"],
	park: ["queued", "running"],
	unpark: ["waiting"],
};

/** Events of the run as a whole (no node). */
type RunEvent = Extract<
	GraphEvent,
	{ type: "budget" | "cancel_run" | "stop_starts" | "infrastructure" | "pause" | "resume" }
>;

/** The state of a run before anything happened. */
export function initialRunState(keys: readonly string[]): GraphRunState {
	const nodes: Record<string, NodeState> = {};
	for (const key of keys) nodes[key] = { status: "waiting", attempts: 0, usage: emptyUsage() };
	return { version: RUN_STATE_VERSION, nodes, started: 0 };
}

/**
 * Applies one event, returning the new state (the old one is not changed).
 * @throws Error when the event does not fit the node's state (an engine bug, never a user error).
 */
export function applyEvent(state: GraphRunState, event: GraphEvent): GraphRunState {
	if (event.type === "budget") return state.budgetStop ? state : { ...state, budgetStop: event.stop };
	if (event.type === "cancel_run") return state.cancelled ? state : { ...state, cancelled: event.why };
	if (event.type === "stop_starts") return { ...state, stopped: true };
	if (event.type === "infrastructure") {
		return state.infrastructureError ? state : { ...state, infrastructureError: event.error };
	}
	if (event.type === "pause") return { ...state, paused: true };
	if (event.type === "resume") return { ...state, paused: undefined };
	const node = state.nodes[event.node];
	if (!node) throw new Error(`graph event ${event.type} for unknown node "${event.node}"`);
	if (!FROM[event.type].includes(node.status)) {
		throw new Error(`graph event ${event.type} does not apply to node "${event.node}" in state ${node.status}`);
	}
	const next = nextNode(node, event);
	const started = event.type === "admit" ? state.started + 1 : state.started;
	return { ...state, started, nodes: { ...state.nodes, [event.node]: next } };
}

function nextNode(node: NodeState, event: Exclude<GraphEvent, RunEvent>): NodeState {
	switch (event.type) {
		case "admit":
			return { ...node, status: "queued", attempts: node.attempts + 1 };
		case "start":
			return {
				...node,
				status: "running",
				startedAt: event.at,
				harness: event.harness,
				agent: event.agent,
				...(event.command ? { command: event.command } : {}),
			};
		case "progress":
			return {
				...node,
				usage: event.usage,
				model: event.model ?? node.model,
				nativeSessionId: event.nativeSessionId ?? node.nativeSessionId,
			};
		case "complete":
			return { ...node, status: "completed", endedAt: event.at, output: event.output, note: event.note };
		case "part": {
			const parts = applyPartStep(node.parts, event.part, event.step);
			return { ...node, parts, usage: partsUsage(parts) };
		}
		case "park":
			return { ...node, status: "waiting", parked: { requestId: event.requestId, question: event.question } };
		case "unpark": {
			const { parked: _p, ...kept } = node;
			return kept;
		}
		case "fail":
			return { ...node, status: "failed", endedAt: event.at, error: event.error };
		case "skip":
			return { ...node, status: "skipped", skip: event.reason, disposition: undefined };
		case "cancel":
			return { ...node, status: "cancelled", endedAt: event.at };
		case "dispose":
			return { ...node, disposition: event.disposition };
		case "requeue": {
			const { error: _e, skip: _s, disposition: _d, endedAt: _end, output: _o, ...kept } = node;
			return { ...kept, status: "waiting" };
		}
	}
}

/** True once a node is in a terminal state. */
export function isSettled(status: NodeStatus): boolean {
	return status === "completed" || status === "failed" || status === "skipped" || status === "cancelled";
}
