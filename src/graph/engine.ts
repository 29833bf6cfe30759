/**
 * Runs a compiled graph (docs/graphs.md "Execution"). Ready nodes are admitted in dependency order, in
 * waves: each wave's events are committed (and handed to `persist`, the checkpointer's hook) before any of
 * its children starts. Admitted nodes wait for the graph's own slot (`limits.concurrency`) and then for the
 * session's global one (inside the runner). A failed node skips its dependents and the rest go on
 * (`fail_fast` cancels the rest instead); a spent budget starts nothing more; an infrastructure error
 * stops dispatch and cancels running nodes. The run ends once every node is settled and every child
 * is gone.
 */
import pLimit from "p-limit";
import type { ChildInputChannel } from "../core/child-input.ts";
import type { ChildRun } from "../core/child-run.ts";
import type { BudgetStop, SkipReason } from "../core/graph-details.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import { runUsage, spentUsageBudget } from "./budget.ts";
import { evaluateCondition } from "./conditions.ts";
import { EXECUTORS, type NodeOutcome, type SpecRunner } from "./executors.ts";
import { applyEvent, type GraphEvent, type GraphRunState, initialRunState, isSettled } from "./run-state.ts";
import type { CompiledGraph, CompiledNode } from "./validate.ts";
import type { RefScope } from "./value-refs.ts";

export interface GraphEngineOptions {
	/** Nodes running at once when the graph sets no `limits.concurrency`. */
	defaultConcurrency: number;
	/** Resolves node `key`'s child again at dispatch (`resolveNodes`). */
	resolve(key: string, task: string, problems: Problems): Promise<LaunchSpec | undefined>;
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
}

export interface GraphRunOutcome {
	state: GraphRunState;
	/** Each node's child run, for nodes that started one. */
	children: Map<string, ChildRun>;
}

/** Runs `graph` to its end; never rejects for node failures (an infrastructure error is in the state). */
export function runGraph(graph: CompiledGraph, options: GraphEngineOptions): Promise<GraphRunOutcome> {
	return new GraphEngine(graph, options).run();
}

/** True once anything stopped further starts: a cancel, an infrastructure error, a budget, a graceful stop. */
function stoppedIn(s: GraphRunState): boolean {
	return (
		s.cancelled !== undefined || s.infrastructureError !== undefined || s.budgetStop !== undefined || s.stopped === true
	);
}

class GraphEngine {
	#state: GraphRunState;
	readonly #children = new Map<string, ChildRun>();
	readonly #inFlight = new Set<Promise<void>>();
	/** Aborted to kill running nodes (cancel, fail_fast, timeout, infrastructure error). */
	readonly #kill = new AbortController();
	/** Aborted to keep queued nodes from starting (any stop, budgets included). */
	readonly #noMoreStarts = new AbortController();
	readonly #slots: ReturnType<typeof pLimit>;
	#wake: () => void = () => {};

	readonly graph: CompiledGraph;
	readonly options: GraphEngineOptions;

	constructor(graph: CompiledGraph, options: GraphEngineOptions) {
		this.graph = graph;
		this.options = options;
		this.#state = initialRunState(graph.nodes.map((node) => node.key));
		this.#slots = pLimit(graph.definition.limits?.concurrency ?? Math.max(1, options.defaultConcurrency));
	}

	async run(): Promise<GraphRunOutcome> {
		const onAbort = () => void this.#stop({ type: "cancel_run", why: "the run was cancelled" });
		const onStop = () => void this.#stop({ type: "stop_starts" });
		this.options.signal?.addEventListener("abort", onAbort, { once: true });
		this.options.noMoreStarts?.addEventListener("abort", onStop, { once: true });
		if (this.options.signal?.aborted) onAbort();
		if (this.options.noMoreStarts?.aborted) onStop();
		const timeoutMs = this.graph.definition.limits?.timeout_ms;
		const timer =
			timeoutMs === undefined
				? undefined
				: setTimeout(
						() =>
							void this.#stop({ type: "budget", stop: { budget: "timeout_ms", limit: timeoutMs, spent: timeoutMs } }),
						timeoutMs,
					);
		try {
			for (;;) {
				const woken = new Promise<void>((resolve) => {
					this.#wake = resolve;
				});
				await this.#admitReady();
				if (Object.values(this.#state.nodes).every((node) => isSettled(node.status))) break;
				await woken;
			}
			await Promise.all(this.#inFlight);
		} finally {
			clearTimeout(timer);
			this.options.signal?.removeEventListener("abort", onAbort);
			this.options.noMoreStarts?.removeEventListener("abort", onStop);
		}
		return { state: this.#state, children: this.#children };
	}

	get #stopped(): boolean {
		return stoppedIn(this.#state);
	}

	/**
	 * Applies events and hands them to the checkpointer before anything acts on them. A checkpointer that
	 * fails is an infrastructure error: nothing more starts and running nodes are cancelled.
	 */
	async #commit(events: GraphEvent[]): Promise<void> {
		for (const event of events) this.#state = applyEvent(this.#state, event);
		if (events.length > 0) await this.#persist(events);
		this.options.onUpdate?.(this.#state, this.#children);
	}

	async #persist(events: GraphEvent[]): Promise<void> {
		try {
			await this.options.persist?.(events, this.#state);
		} catch (error) {
			const message = `could not persist the run: ${error instanceof Error ? error.message : String(error)}`;
			this.#state = applyEvent(this.#state, { type: "infrastructure", error: message });
			this.#noMoreStarts.abort();
			this.#kill.abort();
			this.#wake();
		}
	}

	/**
	 * A run-level stop: no further starts; a cancel, a timeout or an infrastructure error also kills running
	 * nodes. Applied at once (stopping starts is always safe), then handed to the checkpointer.
	 */
	async #stop(
		event: Extract<GraphEvent, { type: "budget" | "cancel_run" | "stop_starts" | "infrastructure" }>,
	): Promise<void> {
		const kills = event.type === "budget" ? event.stop.budget === "timeout_ms" : event.type !== "stop_starts";
		if (this.#noMoreStarts.signal.aborted && (!kills || this.#kill.signal.aborted)) return;
		this.#state = applyEvent(this.#state, event);
		this.#noMoreStarts.abort();
		if (kills) this.#kill.abort();
		this.#wake();
		this.options.onUpdate?.(this.#state, this.#children);
		await this.#persist([event]);
	}

	/** One admission wave: settles every waiting node whose dependencies are settled. */
	async #admitReady(): Promise<void> {
		const events: GraphEvent[] = [];
		const admitted: CompiledNode[] = [];
		let state = this.#state;
		for (const compiled of this.graph.nodes) {
			if (state.nodes[compiled.key].status !== "waiting") continue;
			const deps = compiled.dependsOn.map((dep) => ({ dep, status: state.nodes[dep].status }));
			if (!deps.every((d) => isSettled(d.status))) continue;
			const notDone = deps.find((d) => d.status !== "completed");
			const limit = this.graph.definition.limits?.max_nodes_started;
			let event: GraphEvent;
			// A stop explains a skip better than a dependency it cancelled or skipped; a failure is its own reason.
			if (notDone && (notDone.status === "failed" || !stoppedIn(state))) {
				event = this.#skip(compiled, { kind: "dependency", node: notDone.dep, status: notDone.status });
			} else if (stoppedIn(state)) event = this.#skip(compiled, this.#stopReason(state));
			else if (compiled.when && !evaluateCondition(compiled.when, this.#scope(state))) {
				event = this.#skip(compiled, { kind: "condition" });
			} else if (limit !== undefined && state.started >= limit) {
				const stop: BudgetStop = { budget: "max_nodes_started", limit, spent: state.started };
				// Only admissions stop: nodes admitted within the limit still run.
				events.push({ type: "budget", stop });
				state = applyEvent(state, { type: "budget", stop });
				event = this.#skip(compiled, { kind: "budget", budget: "max_nodes_started" });
			} else {
				event = { type: "admit", node: compiled.key };
				admitted.push(compiled);
			}
			events.push(event);
			state = applyEvent(state, event);
		}
		await this.#commit(events);
		for (const compiled of admitted) this.#launch(compiled);
		// Skips may have made further nodes ready.
		if (events.some((event) => event.type === "skip")) this.#wake();
	}

	#skip(compiled: CompiledNode, reason: SkipReason): GraphEvent {
		return { type: "skip", node: compiled.key, reason };
	}

	#stopReason(state: GraphRunState): SkipReason {
		if (state.budgetStop) return { kind: "budget", budget: state.budgetStop.budget };
		if (state.stopped && !state.cancelled && !state.infrastructureError) return { kind: "stopped" };
		return { kind: "cancelled", why: state.cancelled ?? `infrastructure error: ${state.infrastructureError}` };
	}

	#scope(state: GraphRunState): RefScope {
		const outputs: Record<string, unknown> = {};
		for (const [key, node] of Object.entries(state.nodes)) if (node.status === "completed") outputs[key] = node.output;
		return { inputs: this.graph.inputs ?? {}, outputs };
	}

	/** Starts an admitted node under the graph's slots; its settlement wakes the loop. */
	#launch(compiled: CompiledNode): void {
		const task = this.#slots(() =>
			this.#noMoreStarts.signal.aborted ? { status: "not_started" as const } : this.#execute(compiled),
		)
			.catch(async (error: unknown) => {
				const message = error instanceof Error ? error.message : String(error);
				await this.#stop({ type: "infrastructure", error: `node "${compiled.key}": ${message}` });
				return { status: "failed", error: `infrastructure error: ${message}` } as NodeOutcome;
			})
			.then((outcome) => this.#settle(compiled, outcome))
			.finally(() => {
				this.#inFlight.delete(task);
				this.#wake();
			});
		this.#inFlight.add(task);
	}

	#execute(compiled: CompiledNode): Promise<NodeOutcome> {
		return EXECUTORS[compiled.node.kind]({
			compiled,
			scope: this.#scope(this.#state),
			signal: this.options.signal ? AbortSignal.any([this.options.signal, this.#kill.signal]) : this.#kill.signal,
			noMoreStarts: this.#noMoreStarts.signal,
			resolve: (task, problems) => this.options.resolve(compiled.key, task, problems),
			run: this.options.run,
			onInput: (channel) => this.options.onInput?.(compiled.key, channel),
			onChild: (child) =>
				void this.#onChild(compiled.key, child).catch((error: unknown) =>
					this.#stop({ type: "infrastructure", error: `node "${compiled.key}": ${String(error)}` }),
				),
		});
	}

	/** A child's live change: its start, its usage (budgets are checked on every change). */
	async #onChild(key: string, child: ChildRun): Promise<void> {
		this.#children.set(key, child);
		const node = this.#state.nodes[key];
		const events: GraphEvent[] = [];
		if (node.status === "queued" && child.phase !== "pending" && child.phase !== "skipped") {
			events.push({
				type: "start",
				node: key,
				at: child.startedAt ?? Date.now(),
				harness: child.harness,
				agent: child.agent,
			});
		}
		const result = child.result;
		if (result && (node.status === "running" || events.length > 0)) {
			events.push({
				type: "progress",
				node: key,
				usage: result.usage,
				model: result.model,
				nativeSessionId: result.nativeSessionId,
			});
		}
		if (events.length === 0) return this.options.onUpdate?.(this.#state, this.#children);
		for (const event of events) this.#state = applyEvent(this.#state, event);
		this.options.onUpdate?.(this.#state, this.#children);
		const spent = spentUsageBudget(this.graph.definition.limits, runUsage(this.#state));
		if (spent) await this.#stop({ type: "budget", stop: spent });
	}

	async #settle(compiled: CompiledNode, outcome: NodeOutcome): Promise<void> {
		const key = compiled.key;
		const at = Date.now();
		const events: GraphEvent[] = [];
		const child = this.#children.get(key);
		// A child that ended before its start was seen (one update for both) still started.
		if (this.#state.nodes[key].status === "queued" && outcome.status === "completed" && child) {
			events.push({ type: "start", node: key, at: child.startedAt ?? at, harness: child.harness, agent: child.agent });
		}
		if (outcome.status === "not_started") events.push(this.#skip(compiled, this.#stopReason(this.#state)));
		else if (outcome.status === "cancelled") events.push({ type: "cancel", node: key, at });
		else if (outcome.status === "failed") events.push({ type: "fail", node: key, at, error: outcome.error });
		else events.push({ type: "complete", node: key, at, output: outcome.output });
		await this.#commit(events);
		if (outcome.status === "failed" && this.graph.definition.fail_fast) {
			await this.#stop({ type: "cancel_run", why: `fail_fast: node "${key}" failed` });
		}
	}
}
