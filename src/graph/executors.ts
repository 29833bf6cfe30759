/**
 * One executor per node kind (docs/graphs.md "Node kinds"). An executor runs one admitted node to its
 * outcome; the engine owns every state change. This version has the `agent` executor: the task filled in
 * from the ValueRefs, the node resolved again at dispatch (fail closed), one child run, and its structured
 * output when the node has an `output_schema`.
 */
import type { ChildInputChannel } from "../core/child-input.ts";
import type { ChildRun } from "../core/child-run.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import { Problems } from "../core/problems.ts";
import type { NodeKind } from "./definition.ts";
import type { CompiledNode } from "./validate.ts";
import { fillTemplate, type RefScope } from "./value-refs.ts";

/** How a node ended; `not_started`: a stop came before its child started (the engine says why). */
export type NodeOutcome =
	| { status: "completed"; output?: unknown }
	| { status: "failed"; error: string }
	| { status: "cancelled" }
	| { status: "not_started" };

/** Runs one launch spec as a child: the `subagent` scheduler's path (global limit, records, claims). */
export type SpecRunner = (
	spec: LaunchSpec,
	options: {
		/** Aborting kills the child (or keeps it from starting). */
		signal: AbortSignal;
		/** Aborting keeps it from starting; a running child goes on. */
		noMoreStarts: AbortSignal;
		/** Every change of the child while it runs. */
		onChild(child: ChildRun): void;
		/** The child's input channel once it has started. */
		onInput?(channel: ChildInputChannel): void;
	},
) => Promise<ChildRun>;

/** What an executor gets for one node. */
export interface NodeExecution {
	compiled: CompiledNode;
	scope: RefScope;
	signal: AbortSignal;
	noMoreStarts: AbortSignal;
	/** Resolves the node's child again, now (`preflight.ts`); problems say why it may not run. */
	resolve(task: string, problems: Problems): Promise<LaunchSpec | undefined>;
	run: SpecRunner;
	/** The child's live state, first call when it starts running. */
	onChild(child: ChildRun): void;
	onInput(channel: ChildInputChannel): void;
}

export type NodeExecutor = (execution: NodeExecution) => Promise<NodeOutcome>;

async function runAgentNode(execution: NodeExecution): Promise<NodeOutcome> {
	const { compiled } = execution;
	const filled = fillTemplate(compiled.task, execution.scope);
	if ("missing" in filled) return { status: "failed", error: `task: no value for ${filled.missing.join(", ")}` };
	const problems = new Problems();
	const spec = await execution.resolve(filled.text, problems);
	if (!spec) return { status: "failed", error: `refused at dispatch: ${problems.list.join("; ")}` };
	const child = await execution.run(spec, {
		signal: execution.signal,
		noMoreStarts: execution.noMoreStarts,
		onChild: execution.onChild,
		onInput: execution.onInput,
	});
	return childOutcome(child, compiled.node.output_schema !== undefined);
}

/** A finished child as a node outcome; a node with an `output_schema` completes only with a structured output. */
export function childOutcome(child: ChildRun, needsOutput: boolean): NodeOutcome {
	if (child.phase === "skipped" || child.phase === "pending") return { status: "not_started" };
	if (child.phase === "aborted") return { status: "cancelled" };
	const result = child.result;
	if (child.phase !== "completed") {
		return { status: "failed", error: result?.error ?? child.error ?? `the child ${child.phase}` };
	}
	if (!needsOutput) return { status: "completed" };
	if (result?.structuredOutput === undefined) {
		return { status: "failed", error: "the child completed without a structured result for output_schema" };
	}
	return { status: "completed", output: result.structuredOutput };
}

/** The executor of each node kind. */
export const EXECUTORS: Record<NodeKind, NodeExecutor> = {
	agent: runAgentNode,
};
