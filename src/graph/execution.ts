/**
 * What an executor gets and gives (docs/graphs.md "Node kinds"): one admitted node, its scope and state,
 * the hooks through which it runs children and records its parts; and how a finished child becomes an
 * outcome. The engine owns every state change; executors only report.
 */
import type { ChildInputChannel } from "../core/child-input.ts";
import type { ChildRun } from "../core/child-run.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import { Problems } from "../core/problems.ts";
import type { CompiledNode } from "./compiled.ts";
import type { AgentTemplate } from "./definition.ts";
import type { GateHosts } from "./gate-hosts.ts";
import type { PartStep } from "./part-state.ts";
import type { NodeState } from "./run-state.ts";
import { fillTemplate, type RefScope, type TemplatePart } from "./value-refs.ts";

/**
 * How a node ended. `not_started`: a stop came before its work started (the engine says why); `parked`:
 * a human gate with no UI to ask keeps the run unfinished until a session with a UI resumes it.
 */
export type NodeOutcome =
	| { status: "completed"; output?: unknown; note?: string }
	| { status: "failed"; error: string }
	| { status: "cancelled" }
	| { status: "not_started" }
	| { status: "parked"; requestId: string; question: string };

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
	/** The node's state at admission: a restored or retried node keeps its parts and their attempts. */
	state: NodeState;
	signal: AbortSignal;
	noMoreStarts: AbortSignal;
	/** Children one node may run at once (the graph's `limits.concurrency`, else the session's). */
	concurrency: number;
	/** Resolves one child of the node again, now (`preflight.ts`); problems say why it may not run. */
	resolve(template: AgentTemplate, task: string, problems: Problems): Promise<LaunchSpec | undefined>;
	run: SpecRunner;
	/** The live state of the node's child, or of one part's child (`part`); first call when it starts. */
	onChild(child: ChildRun, part?: string): void;
	onInput(channel: ChildInputChannel, part?: string): void;
	/** Commits steps of parts (plans, admissions, settlements, skips) durably, before anything acts on them. */
	record(...steps: Array<{ part: string; step: PartStep }>): Promise<void>;
	/** A node that runs no child (a command, a question) has started; a command gate gives its filled argv. */
	onStart(started?: { command: string[] }): void;
	/** Where command gates run and human gates ask. */
	gates: GateHosts;
}

export type NodeExecutor = (execution: NodeExecution) => Promise<NodeOutcome>;

/** A finished child as a node outcome; a child with an `output_schema` completes only with a structured output. */
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

/**
 * One child of a node: `task` filled in from `scope`, the template resolved again at dispatch (fail
 * closed), run, and its outcome. `part` names a coordinator's child; absent for an agent node's own.
 */
export async function runChildOf(
	execution: NodeExecution,
	template: AgentTemplate,
	task: readonly TemplatePart[],
	scope: RefScope,
	part?: string,
	noMoreStarts: AbortSignal = execution.noMoreStarts,
): Promise<NodeOutcome> {
	const filled = fillTemplate(task, scope);
	if ("missing" in filled) return { status: "failed", error: `task: no value for ${filled.missing.join(", ")}` };
	const problems = new Problems();
	const spec = await execution.resolve(template, filled.text, problems);
	if (!spec) return { status: "failed", error: `refused at dispatch: ${problems.list.join("; ")}` };
	const child = await execution.run(spec, {
		signal: execution.signal,
		noMoreStarts,
		onChild: (live) => execution.onChild(live, part),
		onInput: (channel) => execution.onInput(channel, part),
	});
	return childOutcome(child, template.output_schema !== undefined);
}
