/**
 * Running an accepted `agent_graph` call (docs/graphs.md "Execution", "Results"), in the foreground or as a
 * job: the engine with each node's child run through `runPlan` (the `subagent` scheduler's path: the
 * session's one global limit, claimed sessions, launch records for resume), throttled live details, and
 * the final result for the model.
 */
import type { AgentToolResult } from "@earendil-works/pi-coding-agent";
import type { EffectiveLimits } from "../config/effective-limits.ts";
import type { LaunchState } from "../config/extension-state.ts";
import type { ChildInputChannel } from "../core/child-input.ts";
import type { ChildRun } from "../core/child-run.ts";
import type { GraphDetails } from "../core/graph-details.ts";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import type { Harness } from "../core/launch-spec.ts";
import { printable } from "../core/printable.ts";
import type { AgentNode } from "../graph/definition.ts";
import { type GraphRunOutcome, startGraph } from "../graph/engine.ts";
import type { SpecRunner } from "../graph/executors.ts";
import type { CommandHost, HumanHost } from "../graph/gate-hosts.ts";
import { type NodeLaunchEnv, resolveNodes } from "../graph/preflight.ts";
import { approvesTools, type PreparedGraph } from "../graph/prepare.ts";
import { graphDetails, graphOutputs, graphResultText } from "../graph/result.ts";
import { writeArtifact } from "../runs/artifacts.ts";
import { buildChildEnv, filterEnvironment } from "../runs/child-env.ts";
import { runPlan } from "../runs/run-plan.ts";
import type { DurableRun } from "./graph-runs.ts";
import { totalUsage } from "./result-text.ts";
import type { SubagentToolDeps } from "./subagent-tool.ts";

export type GraphResult = AgentToolResult<GraphDetails | undefined>;

/** A graph refused before anything started: every problem, one error result. */
export function graphRefusal(message: string, graph = "invalid"): GraphResult {
	return {
		content: [{ type: "text", text: `agent_graph: nothing was started.\n${message}` }],
		details: { graph, nodes: [], error: message },
		isError: true,
	};
}

/**
 * `graph "review"`: a graph run's job and fleet label. The name is a saved graph's file name or the caller's,
 * so it is `printable` (SECURITY.md "Text from files and children": job labels are one line).
 */
export function graphLabel(name: string): string {
	return `graph "${printable(name)}"`;
}

/** A prepared graph and what its run needs. */
export interface AcceptedGraph {
	prepared: PreparedGraph;
	/** Names this call's artifacts (`newArtifactCallId`). */
	callId: string;
	/** Where long outputs are written in full. */
	artifacts: string;
	env: NodeLaunchEnv;
	deps: SubagentToolDeps;
	state: LaunchState;
	limits: EffectiveLimits;
	/** Its run directory, lease and (restored) state: every change is checkpointed there. */
	durable: DurableRun;
}

/** What a run reports to, and what ends or stops it. */
export interface RunHooks {
	/** Escape, a job cancel: cancels the run. */
	signal?: AbortSignal;
	/** A graceful stop: nothing more starts. */
	noMoreStarts?: AbortSignal;
	/** Live details, at most every `updateIntervalMs` ms (the last one never lost). */
	onDetails?(details: GraphDetails): void;
	/**
	 * The nodes' children on every change (`nodeRuns`), for job listings and input lookups, and the key of
	 * the node at each child's position (`index`), for the fleet view's node controls.
	 */
	onChildren?(children: ChildRun[], nodes: ReadonlyMap<number, string>): void;
	/** A node's child can be talked to; `index` is the node's position (as in `nodeRuns`). */
	onInput?(index: number, channel: ChildInputChannel): void;
	/** Where human gates ask (absent: headless, they fail closed or park). */
	human?: HumanHost;
}

/**
 * The nodes' children as a call's children, so `subagent_jobs` send and `/subagent-send` can name them: a
 * node's own child at its node's position in the run (dependency order), named by its `task_name` and its node
 * key; a coordinator's part (`<key> item 3`, `<key> round 2 worker`) after every node, in the order they
 * started, named so.
 */
export function nodeRuns(prepared: PreparedGraph, children: ReadonlyMap<string, ChildRun>): ChildRun[] {
	const positions = childPositions(prepared, children);
	return [...positions].flatMap(([key, index]) => {
		const child = children.get(key);
		return child ? [{ ...child, index, taskName: child.taskName ?? key, nodeKey: key }] : [];
	});
}

/** The node key of each child position of `nodeRuns` (a coordinator's part: its node's key). */
export function nodeKeysByPosition(
	prepared: PreparedGraph,
	children: ReadonlyMap<string, ChildRun>,
): Map<number, string> {
	const keys = prepared.compiled.nodes.map((node) => node.key);
	const byPosition = new Map<number, string>();
	for (const [childKey, index] of childPositions(prepared, children)) {
		const node = keys.find((key) => childKey === key || childKey.startsWith(`${key} `));
		if (node !== undefined) byPosition.set(index, node);
	}
	return byPosition;
}

function childPositions(prepared: PreparedGraph, children: ReadonlyMap<string, ChildRun>): Map<string, number> {
	const nodes = prepared.compiled.nodes;
	const positions = new Map(nodes.map(({ key }, index) => [key, index]));
	for (const key of children.keys()) if (!positions.has(key)) positions.set(key, positions.size);
	return positions;
}

/** Runs an accepted graph to its end, reporting through `hooks`. */
export async function runAccepted(accepted: AcceptedGraph, hooks: RunHooks): Promise<GraphRunOutcome> {
	const { prepared, deps, env, durable } = accepted;
	let children: ReadonlyMap<string, ChildRun> = new Map();
	let pending: ReturnType<typeof setTimeout> | undefined;
	let last = 0;
	let latest: (() => void) | undefined;
	const flush = () => {
		pending = undefined;
		last = Date.now();
		latest?.();
	};
	try {
		const handle = startGraph(prepared.compiled, {
			defaultConcurrency: accepted.limits.concurrency,
			resolve: async (key, task, problems, template) => {
				const node = template ?? (prepared.compiled.nodes.find((n) => n.key === key)?.node as AgentNode);
				const spec = (await resolveNodes([{ key, node, task }], env, problems))?.get(key);
				// A project graph's allowed_tools narrow what its children are offered, and approve nothing.
				return spec && !approvesTools(prepared, key) ? { ...spec, approvedTools: undefined } : spec;
			},
			run: specRunner(accepted),
			gates: { command: commandHost(accepted), human: hooks.human },
			signal: hooks.signal,
			noMoreStarts: hooks.noMoreStarts,
			onInput: (key, channel) => hooks.onInput?.(childPositions(prepared, children).get(key) ?? -1, channel),
			onUpdate(state, live) {
				children = live;
				hooks.onChildren?.(nodeRuns(prepared, children), nodeKeysByPosition(prepared, children));
				const onDetails = hooks.onDetails;
				if (!onDetails) return;
				latest = () => onDetails(graphDetails(prepared.name, prepared.compiled, state, children));
				const wait = deps.updateIntervalMs - (Date.now() - last);
				if (wait <= 0) flush();
				else pending ??= setTimeout(flush, wait);
			},
			initial: durable.initial,
			persist: async (events, state) => durable.store.commit(events, state),
		});
		const { runId, sessionId, store } = durable;
		durable.runs.add({ runId, name: prepared.name, sessionId, handle, freeze: () => store.freeze() });
		return await handle.done;
	} finally {
		durable.runs.remove(durable.runId);
		durable.lease.release();
		if (pending) clearTimeout(pending);
	}
}

/** Command gates run in the session's cwd with a child's environment and the run limits (docs/graphs.md §Command gates). */
function commandHost(accepted: AcceptedGraph): CommandHost {
	const { deps, state, env, limits } = accepted;
	return {
		context: () => ({
			cwd: env.context().cwd,
			// A command runs no harness: the user's filter holds whole (no harness home is passed for it). It is one
			// level down as a child is, so a pi it starts counts that depth and finds no roster of this session's.
			env: buildChildEnv(filterEnvironment(deps.baseEnv(), state.environment, { harnessHomes: false }), {
				depth: state.depth.depth + 1,
				maxDepth: state.depth.maxDepth,
			}),
			limits: limits.run,
		}),
	};
}

/** One node's child through `runPlan` (single mode): the global limit, claims and launch records of `subagent`. */
function specRunner(accepted: AcceptedGraph): SpecRunner {
	const { deps, state, limits } = accepted;
	return async (spec, options) => {
		const [child] = await runPlan(
			{ mode: "single", specs: [spec] },
			{
				adapters: deps.adapters as Record<Harness, HarnessAdapter>,
				baseEnv: filterEnvironment(deps.baseEnv(), state.environment),
				maxDepth: state.depth.maxDepth,
				concurrency: limits.concurrency,
				globalLimit: deps.globalLimit(),
				sessions: deps.sessions,
				persistRecord: deps.persistRecord,
				resumed: [],
				signal: options.signal,
				noMoreStarts: options.noMoreStarts,
				onChildren: (children: ChildRun[]) => options.onChild(children[0]),
				onInput: (_index, channel) => options.onInput?.(channel),
				warm: await deps.warm?.forCall(state.warmChildren),
			},
		);
		return child;
	};
}

/** The result for the model: outputs, one line per node; usage counted in the parent's totals. */
export function finalResult(accepted: AcceptedGraph, outcome: GraphRunOutcome, jobId?: string): GraphResult {
	const { prepared } = accepted;
	const { outputs, notes } = graphOutputs(prepared.compiled, outcome.state);
	const details = {
		...graphDetails(prepared.name, prepared.compiled, outcome.state, outcome.children, outputs),
		jobId,
		runId: accepted.durable.runId,
	};
	const json = boundedOutputs(accepted, JSON.stringify(outputs), jobId);
	const text = graphResultText(details, json, notes, outcome.state);
	return {
		content: [{ type: "text", text }],
		details,
		usage: totalUsage([...outcome.children.values()]),
		isError: !graphSucceeded(outcome),
	};
}

/**
 * The outputs' JSON for the model, capped like a child's answer (setting `limits.output_max_bytes`): when
 * longer, the head is shown and the whole JSON goes to an artifact file (docs/tools.md "Artifacts").
 */
function boundedOutputs(accepted: AcceptedGraph, json: string, jobId: string | undefined): string {
	const max = accepted.limits.caps.maxBytes;
	const size = Buffer.byteLength(json, "utf8");
	if (size <= max) return json;
	const name = `${accepted.callId}${jobId ? `-${jobId}` : ""}-outputs`;
	const written = writeArtifact(accepted.artifacts, name, json);
	const head = Buffer.from(json, "utf8")
		.subarray(0, max)
		.toString("utf8")
		.replace(/\uFFFD$/, "");
	const where = "path" in written ? `the whole JSON is in ${written.path}` : written.error;
	return `${head}\n[outputs truncated: ${max} of ${size} bytes shown; ${where}]`;
}

/** A run succeeded when no node failed or was cancelled and nothing stopped it. */
export function graphSucceeded(outcome: GraphRunOutcome): boolean {
	const { state } = outcome;
	if (state.cancelled || state.stopped || state.infrastructureError || state.budgetStop) return false;
	// Skips without a stop come from conditions, or from a dependency that failed (which failed the run).
	return Object.values(state.nodes).every((node) => node.status === "completed" || node.status === "skipped");
}
