/**
 * What the graph engine (`engine.ts`) is given and gives back: its options (resolution at dispatch, the
 * runner, gate hosts, signals, the checkpointer's hook, a restored state) and a run's handle and outcome.
 */
import type { ChildInputChannel } from "../core/child-input.ts";
import type { ChildRun } from "../core/child-run.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import type { ControlAnswer, ControlRequest } from "./controls.ts";
import type { AgentTemplate } from "./definition.ts";
import type { SpecRunner } from "./execution.ts";
import type { GateHosts } from "./gate-hosts.ts";
import type { GraphEvent, GraphRunState } from "./run-state.ts";

export interface GraphEngineOptions {
	/** Nodes running at once when the graph sets no `limits.concurrency`. */
	defaultConcurrency: number;
	/**
	 * Resolves a child of node `key` again at dispatch (`resolveNodes`): the agent node itself, or `template`,
	 * a coordinator's child (a fan-out item, a feedback worker or evaluator).
	 */
	resolve(key: string, task: string, problems: Problems, template?: AgentTemplate): Promise<LaunchSpec | undefined>;
	/** Where command gates run and human gates ask (`gate-hosts.ts`); without them those nodes fail closed. */
	gates?: GateHosts;
	run: SpecRunner;
	/** Escape, a job cancel: cancels the run. */
	signal?: AbortSignal;
	/** A graceful stop (`subagent_jobs` stop): nothing more starts, running nodes go on. */
	noMoreStarts?: AbortSignal;
	/** A node's child has started and can be talked to (`subagent_jobs` send, `/subagent-send`). */
	onInput?(key: string, channel: ChildInputChannel): void;
	/** The checkpointer's hook: awaited with each batch of events before their effects. */
	persist?(events: readonly GraphEvent[], state: GraphRunState): Promise<void>;
	/** After every change (not throttled). */
	onUpdate?(state: GraphRunState, children: ReadonlyMap<string, ChildRun>): void;
	/** A restored run's state (from its snapshot): settled nodes keep their outcome, admitted ones run again. */
	initial?: GraphRunState;
}

/** A run that is going on: its end, its state now, and its controls. */
export interface GraphRunHandle {
	done: Promise<GraphRunOutcome>;
	state(): GraphRunState;
	/** Decides and applies one control; its events are persisted before anything is killed. */
	control(request: ControlRequest): Promise<ControlAnswer>;
}

export interface GraphRunOutcome {
	state: GraphRunState;
	/** Each node's child run, for nodes that started one. */
	children: Map<string, ChildRun>;
}
