/**
 * The words of an `agent_graph` run that the graph engine (`graph/`), the tool (`tools/`) and the renderer
 * (`ui/`) share (docs/graphs.md): node states, skip reasons and the bounded `details` of a graph result.
 */

import type { Harness } from "./launch-spec.ts";
import type { Usage } from "./run-event.ts";
import type { ChildActivity } from "./run-result.ts";

/**
 * Where one node stands (docs/graphs.md "Node states"): `waiting` (dependencies not settled) → `queued`
 * (admitted, waiting for a slot) → `running` → `completed` · `failed` · `skipped` · `cancelled`.
 */
export const NODE_STATUSES = ["waiting", "queued", "running", "completed", "failed", "skipped", "cancelled"] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

/** The states a node ends in. */
export const TERMINAL_NODE_STATUSES: readonly NodeStatus[] = ["completed", "failed", "skipped", "cancelled"];

/**
 * Why a node was skipped: its `when` was false; a dependency did not complete; a budget or limit was spent;
 * the run was cancelled (Escape, a job cancel, `fail_fast`); a graceful stop (`subagent_jobs`
 * stop) came first; a skip control asked for it (`request`).
 */
export type SkipReason =
	| { kind: "condition" }
	| { kind: "dependency"; node: string; status: NodeStatus }
	| { kind: "budget"; budget: string }
	| { kind: "cancelled"; why: string }
	| { kind: "request" }
	| { kind: "stopped" };

/** Which limit stopped a run, and how much of it was spent (USD, tokens, node starts or ms). */
export interface BudgetStop {
	budget: "max_usd" | "max_tokens" | "max_nodes_started" | "timeout_ms";
	limit: number;
	spent: number;
}

/** One node of a graph result's `details` (bounded: no answers, no transcripts). */
export interface GraphNodeDetails {
	key: string;
	status: NodeStatus;
	/** `waiting`: the dependencies not settled yet. */
	waitingOn?: string[];
	/** A skip's reason, a failure's message. */
	reason?: string;
	harness?: Harness;
	/** Agent definition or roster entry name. */
	agent?: string;
	/** From the node's own assistant messages only; absent when unknown. */
	model?: string;
	usage?: Usage;
	/** ms since the Unix epoch. */
	startedAt?: number;
	/** ms. */
	durationMs?: number;
	/** While running: what the child is doing. */
	activity?: ChildActivity;
	nativeSessionId?: string;
	/** Admissions so far (a rerun after a crash or a retry is attempt 2, …). */
	attempts?: number;
	/** The node's kind, when not `agent`. */
	kind?: string;
	/**
	 * A coordinator's or gate's progress in words: items `3/12 ✓`, round `2/5`, `$ npm test → exit 1`,
	 * `question waiting: …`, `graph "review"`.
	 */
	progress?: string;
	/** A fan-out's items or a feedback loop's rounds, each with its own child. */
	parts?: GraphPartDetails[];
	/** Completed: what the result line adds (items that failed under `continue`, an accepted last round). */
	note?: string;
}

/** One part of a coordinator node (a fan-out item, a feedback round's worker or evaluator), bounded like a node. */
export interface GraphPartDetails {
	/** `item 3`, `round 2 worker`. */
	name: string;
	status: NodeStatus;
	attempts: number;
	harness?: Harness;
	agent?: string;
	model?: string;
	usage?: Usage;
	/** ms. */
	durationMs?: number;
	/** A failure's or a skip's reason. */
	reason?: string;
	nativeSessionId?: string;
	/** While running: what the child is doing. */
	activity?: ChildActivity;
}

/** `details` of every `agent_graph` result, partial or final. */
export interface GraphDetails {
	/** The graph's `name`, or `inline`. */
	graph: string;
	nodes: GraphNodeDetails[];
	/** The graph's `outputs` once the run ended (bounded; see docs/graphs.md "Results"). */
	outputs?: Record<string, unknown>;
	/** Set when a budget or limit stopped the run. */
	budgetStop?: BudgetStop;
	/** Set when the graph was refused before anything ran, or an infrastructure error stopped it. */
	error?: string;
	/** Background graphs: the job that runs it. */
	jobId?: string;
	/** The durable run's id (docs/graphs.md §Durability): for `agent_graph` controls. */
	runId?: string;
}

/** `skipped (dependency scan failed)`, `skipped (budget: max_usd)`…, the reason text of a skip. */
export function describeSkip(reason: SkipReason): string {
	if (reason.kind === "condition") return "condition";
	if (reason.kind === "dependency") return `dependency ${reason.node} ${reason.status}`;
	if (reason.kind === "budget") return `budget: ${reason.budget}`;
	if (reason.kind === "request") return "request";
	if (reason.kind === "stopped") return "stopped by request";
	return `cancelled: ${reason.why}`;
}
