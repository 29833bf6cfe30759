/**
 * The coordinator kinds' executors (docs/graphs.md §Fan-out, §Feedback loops). Each child is a part of
 * its node (`part-state.ts`): admitted and settled durably through `record`, with its own session, usage
 * and live row. A part completed before a restore keeps its output and never runs again; an interrupted
 * one runs as its next attempt; a part a stop kept from starting is recorded as skipped with zero attempts.
 */
import pLimit from "p-limit";
import type { AgentTemplate, FanoutNode, FeedbackNode } from "./definition.ts";
import { type NodeExecution, type NodeOutcome, runChildOf } from "./execution.ts";
import { type PartPlace, partName } from "./part-state.ts";
import { fillTemplate, type RefScope, type TemplatePart } from "./value-refs.ts";

/** One part: its earlier output when it completed before, else a durable admission, a run and a settlement. */
async function runPart(
	execution: NodeExecution,
	place: PartPlace,
	template: AgentTemplate,
	task: readonly TemplatePart[],
	scope: RefScope,
	noMoreStarts: AbortSignal,
	recorded?: Set<string>,
): Promise<NodeOutcome> {
	const name = partName(place);
	const before = execution.state.parts?.[name];
	if (before?.status === "completed") return { status: "completed", output: before.output };
	recorded?.add(name);
	if (noMoreStarts.aborted) {
		if (!before || before.status === "waiting")
			await execution.record({
				part: name,
				step: { kind: "skip", reason: "not started: the node stopped first", ...place },
			});
		return { status: "not_started" };
	}
	await execution.record({ part: name, step: { kind: "admit", ...place } });
	const outcome = await runChildOf(execution, template, task, scope, name, noMoreStarts);
	const at = Date.now();
	if (outcome.status === "completed") {
		await execution.record({ part: name, step: { kind: "end", at, status: "completed", output: outcome.output } });
	} else if (outcome.status === "failed") {
		await execution.record({ part: name, step: { kind: "end", at, status: "failed", error: outcome.error } });
	} else if (outcome.status === "not_started") {
		await execution.record({
			part: name,
			step: {
				kind: "end",
				at,
				status: "cancelled",
				error: "not started: the node stopped first",
			},
		});
	} else await execution.record({ part: name, step: { kind: "end", at, status: "cancelled" } });
	return outcome;
}

/** The items a fan-out runs over, or why it fails before any item starts (not an array, above `max_items`). */
function fanoutItems(execution: NodeExecution, node: FanoutNode): unknown[] | { error: string } {
	const filled = fillTemplate(execution.compiled.templates.over, execution.scope);
	if ("missing" in filled) return { error: `over: no value for ${filled.missing.join(", ")}` };
	const items = filled.raw;
	if (!Array.isArray(items)) return { error: `over: ${node.over} is not an array` };
	if (items.length > node.max_items) {
		return {
			error: `over: ${node.over} has ${items.length} items, above max_items ${node.max_items}; no item was started`,
		};
	}
	return items;
}

export async function runFanoutNode(execution: NodeExecution): Promise<NodeOutcome> {
	const node = execution.compiled.node as FanoutNode;
	const items = fanoutItems(execution, node);
	if (!Array.isArray(items)) return { status: "failed", error: items.error };
	const slots = pLimit(Math.max(1, Math.min(node.concurrency ?? execution.concurrency, execution.concurrency)));
	// A failed item (with on_item_failure "fail") lets nothing more start; running items finish.
	const stop = new AbortController();
	const noMoreStarts = AbortSignal.any([execution.noMoreStarts, stop.signal]);
	const task = execution.compiled.templates["node.task"];
	// Every item is known before any starts (waiting, zero attempts): live rows and checkpoints count them.
	const planned = items.flatMap((_item, index) =>
		execution.state.parts?.[partName({ index })]
			? []
			: [{ part: partName({ index }), step: { kind: "plan" as const, index } }],
	);
	if (planned.length > 0) await execution.record(...planned);
	const outcomes = await Promise.all(
		items.map((item, index) =>
			slots(async () => {
				const scope = { ...execution.scope, item, index };
				const outcome = await runPart(execution, { index }, node.node, task, scope, noMoreStarts);
				if (outcome.status === "failed" && node.on_item_failure === "fail") stop.abort();
				return outcome;
			}),
		),
	);
	return fanoutOutcome(node, outcomes);
}

function fanoutOutcome(node: FanoutNode, outcomes: NodeOutcome[]): NodeOutcome {
	const failed = outcomes.flatMap((o, i) => (o.status === "failed" ? [`item ${i}: ${o.error}`] : []));
	if (outcomes.some((o) => o.status === "cancelled")) return { status: "cancelled" };
	if (failed.length > 0 && node.on_item_failure === "fail") {
		return { status: "failed", error: `${failed.length} of ${outcomes.length} items failed: ${failed.join("; ")}` };
	}
	if (outcomes.some((o) => o.status === "not_started")) return { status: "not_started" };
	const output = outcomes.map((o) => (o.status === "completed" ? (o.output ?? null) : null));
	const note =
		failed.length > 0 ? `${failed.length} of ${outcomes.length} items failed: ${failed.join("; ")}` : undefined;
	return { status: "completed", output, note };
}

/** An evaluator's verdict, as its `output_schema` declares it (checked at validation). */
interface Evaluation {
	decision: "pass" | "revise";
	feedback: string;
}

export async function runFeedbackNode(execution: NodeExecution): Promise<NodeOutcome> {
	const node = execution.compiled.node as FeedbackNode;
	const { templates } = execution.compiled;
	let feedback = "";
	let last: unknown;
	// Parts this run of the node has recorded (the node's state is as it was when admitted).
	const recorded = new Set(Object.keys(execution.state.parts ?? {}));
	const skipFrom = (iteration: number) => skipRounds(execution, node, iteration, recorded);
	for (let iteration = 1; iteration <= node.max_iterations; iteration++) {
		if (execution.noMoreStarts.aborted) return skipFrom(iteration);
		const worker = await runPart(
			execution,
			{ iteration, role: "worker" },
			node.worker,
			templates["worker.task"],
			{ ...execution.scope, feedback },
			execution.noMoreStarts,
			recorded,
		);
		if (worker.status === "not_started") return skipFrom(iteration);
		if (worker.status !== "completed") return worker;
		last = worker.output;
		const evaluator = await runPart(
			execution,
			{ iteration, role: "evaluator" },
			node.evaluator,
			templates["evaluator.task"],
			{ ...execution.scope, worker: worker.output },
			execution.noMoreStarts,
			recorded,
		);
		if (evaluator.status === "not_started") return skipFrom(iteration);
		if (evaluator.status !== "completed") return evaluator;
		const verdict = evaluator.output as Evaluation;
		if (verdict.decision === "pass") {
			return { status: "completed", output: last, note: `passed in round ${iteration}/${node.max_iterations}` };
		}
		feedback = verdict.feedback;
	}
	if (node.on_exhausted === "accept_last") {
		return {
			status: "completed",
			output: last,
			note: `exhausted: no pass in ${node.max_iterations} rounds; accepted the last (on_exhausted: accept_last)`,
		};
	}
	return { status: "failed", error: `exhausted: no pass in ${node.max_iterations} rounds (max_iterations)` };
}

/** A stop came in round `from`: its parts not yet recorded and every later round's are skipped, never admitted. */
async function skipRounds(
	execution: NodeExecution,
	node: FeedbackNode,
	from: number,
	recorded: ReadonlySet<string>,
): Promise<NodeOutcome> {
	for (let iteration = from; iteration <= node.max_iterations; iteration++) {
		for (const role of ["worker", "evaluator"] as const) {
			const name = partName({ iteration, role });
			if (recorded.has(name)) continue;
			await execution.record({
				part: name,
				step: { kind: "skip", reason: "not started: the run stopped first", iteration, role },
			});
		}
	}
	return { status: "not_started" };
}
