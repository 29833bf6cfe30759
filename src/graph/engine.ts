/**
 * Runs a compiled graph (docs/graphs.md "Execution"). Ready nodes are admitted in dependency order, in
 * waves: each wave's events are committed (and handed to `persist`, the checkpointer's hook) before any of
 * its children starts. Admitted nodes wait for the graph's own slot (`limits.concurrency`) and then for the
 * session's global one (inside the runner). A failed node skips its dependents and the rest go on
 * (`fail_fast` cancels the rest instead); a spent budget starts nothing more; an infrastructure error
 * stops dispatch and cancels running nodes. The run ends once every node is settled and every child
 * is gone. Controls (`control`) commit their events before their effect; a run given an `initial` state
 * (a restore) continues from it (docs/graphs.md §Durability, §Controls).
 */
import pLimit from "p-limit";
import type { ChildRun } from "../core/child-run.ts";
import { killFaultPoint } from "../core/fault-points.ts";
import { timer as clampedTimer } from "../process/deadlines.ts";
import { admissionWave, runScope, stopReason } from "./admission.ts";
import { runUsage, spentUsageBudget } from "./budget.ts";
import { type ControlAnswer, type ControlRequest, decideControl, restoreEvents } from "./controls.ts";
import type { GraphEngineOptions, GraphRunHandle, GraphRunOutcome } from "./engine-options.ts";
import { EXECUTORS, type NodeOutcome } from "./executors.ts";
import { childEvents } from "./live-events.ts";
import { applyEvent, type GraphEvent, type GraphRunState, initialRunState, isSettled } from "./run-state.ts";
import type { CompiledGraph, CompiledNode } from "./validate.ts";

export type { GraphEngineOptions, GraphRunHandle, GraphRunOutcome } from "./engine-options.ts";

/** Runs `graph` to its end; never rejects for node failures (an infrastructure error is in the state). */
export function runGraph(graph: CompiledGraph, options: GraphEngineOptions): Promise<GraphRunOutcome> {
	return startGraph(graph, options).done;
}

/** Starts `graph`; `done` never rejects for node failures (an infrastructure error is in the state). */
export function startGraph(graph: CompiledGraph, options: GraphEngineOptions): GraphRunHandle {
	const engine = new GraphEngine(graph, options);
	return { done: engine.run(), state: () => engine.current, control: (request) => engine.control(request) };
}

class GraphEngine {
	#state: GraphRunState;
	readonly #children = new Map<string, ChildRun>();
	readonly #inFlight = new Set<Promise<void>>();
	/** Aborted to kill running nodes (cancel, fail_fast, timeout, infrastructure error). */
	readonly #kill = new AbortController();
	/** Aborted to keep queued nodes from starting (any stop, budgets included). */
	readonly #noMoreStarts = new AbortController();
	/** Per admitted node: aborted by a skip or retry control to kill that node only. */
	readonly #nodeKill = new Map<string, AbortController>();
	#ended = false;
	readonly #slots: ReturnType<typeof pLimit>;
	/** Children one node may run at once (a fan-out's items share it). */
	readonly #concurrency: number;
	#wake: () => void = () => {};

	readonly graph: CompiledGraph;
	readonly options: GraphEngineOptions;

	constructor(graph: CompiledGraph, options: GraphEngineOptions) {
		this.graph = graph;
		this.options = options;
		this.#state = options.initial ?? initialRunState(graph.nodes.map((node) => node.key));
		this.#concurrency = graph.definition.limits?.concurrency ?? Math.max(1, options.defaultConcurrency);
		this.#slots = pLimit(this.#concurrency);
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
				: clampedTimer(
						timeoutMs,
						() =>
							void this.#stop({ type: "budget", stop: { budget: "timeout_ms", limit: timeoutMs, spent: timeoutMs } }),
					);
		try {
			await this.#commit([...restoreEvents(this.#state), ...this.#unparkEvents()]);
			for (;;) {
				const woken = new Promise<void>((resolve) => {
					this.#wake = resolve;
				});
				const admitted = await this.#admitReady();
				if (Object.values(this.#state.nodes).every((node) => isSettled(node.status))) break;
				// Only parked human gates (and what waits on them) are left: the run stays unfinished.
				if (admitted === 0 && this.#inFlight.size === 0 && !this.#state.paused && this.#parked()) break;
				await woken;
			}
			await Promise.all(this.#inFlight);
		} finally {
			this.#ended = true;
			clearTimeout(timer);
			this.options.signal?.removeEventListener("abort", onAbort);
			this.options.noMoreStarts?.removeEventListener("abort", onStop);
		}
		return { state: this.#state, children: this.#children };
	}

	get current(): GraphRunState {
		return this.#state;
	}

	/** A control: refused with the reason, or its events made durable, then its effect (a kill). */
	async control(request: ControlRequest): Promise<ControlAnswer> {
		if (this.#ended) return { accepted: false, reason: "the run has ended" };
		const decision = decideControl(this.#state, this.graph, request);
		if ("refused" in decision) return { accepted: false, reason: decision.refused };
		await this.#commit(decision.events);
		if (this.#state.infrastructureError) return { accepted: false, reason: this.#state.infrastructureError };
		killFaultPoint("after-disposition");
		if (decision.kill === "run") await this.#stop({ type: "cancel_run", why: "cancelled by request" });
		else if (decision.kill) this.#nodeKill.get(decision.kill.node)?.abort();
		this.#wake();
		return { accepted: true };
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

	/** One admission wave (`admissionWave`): durable before any of its nodes starts. @returns how many it admitted. */
	async #admitReady(): Promise<number> {
		const { events, admitted } = admissionWave(this.graph, this.#state, Date.now());
		await this.#commit(events);
		for (const compiled of admitted) this.#launch(compiled);
		// Skips and failures may have made further nodes ready.
		if (events.some((event) => event.type === "skip" || event.type === "fail")) this.#wake();
		return admitted.length;
	}

	#parked(): boolean {
		return Object.values(this.#state.nodes).some((node) => node.parked !== undefined);
	}

	/** A session with a UI takes up the parked human gates again (they are asked when admitted). */
	#unparkEvents(): GraphEvent[] {
		if (!this.options.gates?.human?.hasUI()) return [];
		return Object.entries(this.#state.nodes).flatMap(([node, state]) =>
			state.parked ? [{ type: "unpark" as const, node }] : [],
		);
	}

	/** Starts an admitted node under the graph's slots; its settlement wakes the loop. */
	#launch(compiled: CompiledNode): void {
		const kill = new AbortController();
		this.#nodeKill.set(compiled.key, kill);
		const task = this.#slots(() =>
			this.#noMoreStarts.signal.aborted || kill.signal.aborted
				? { status: "not_started" as const }
				: this.#execute(compiled, kill.signal),
		)
			.catch(async (error: unknown) => {
				const message = error instanceof Error ? error.message : String(error);
				await this.#stop({ type: "infrastructure", error: `node "${compiled.key}": ${message}` });
				return { status: "failed", error: `infrastructure error: ${message}` } as NodeOutcome;
			})
			.then((outcome) => this.#settle(compiled, outcome))
			.finally(() => {
				if (this.#nodeKill.get(compiled.key) === kill) this.#nodeKill.delete(compiled.key);
				this.#inFlight.delete(task);
				this.#wake();
			});
		this.#inFlight.add(task);
	}

	#execute(compiled: CompiledNode, nodeKill: AbortSignal): Promise<NodeOutcome> {
		const key = compiled.key;
		const kills = [this.#kill.signal, nodeKill, ...(this.options.signal ? [this.options.signal] : [])];
		const scope = runScope(this.graph, this.#state, compiled.frame);
		if ("error" in scope) return Promise.resolve({ status: "failed", error: scope.error });
		const onError = (error: unknown) =>
			this.#stop({ type: "infrastructure", error: `node "${key}": ${String(error)}` });
		return EXECUTORS[compiled.node.kind]({
			compiled,
			scope,
			state: this.#state.nodes[key],
			signal: AbortSignal.any(kills),
			noMoreStarts: AbortSignal.any([this.#noMoreStarts.signal, nodeKill]),
			concurrency: this.#concurrency,
			resolve: (template, task, problems) =>
				this.options.resolve(key, task, problems, compiled.node.kind === "agent" ? undefined : template),
			run: this.options.run,
			onInput: (channel, part) => this.options.onInput?.(part ? `${key} ${part}` : key, channel),
			onChild: (child, part) => void this.#onChild(key, child, part).catch(onError),
			record: (...steps) => this.#commit(steps.map(({ part, step }) => ({ type: "part", node: key, part, step }))),
			onStart: (started) => {
				if (this.#state.nodes[key].status !== "queued") return;
				void this.#commit([{ type: "start", node: key, at: Date.now(), ...started }]).catch(onError);
			},
			gates: this.options.gates ?? {},
		});
	}

	/** A child's live change: its start, its usage (budgets are checked on every change). */
	async #onChild(key: string, child: ChildRun, part?: string): Promise<void> {
		this.#children.set(part ? `${key} ${part}` : key, child);
		const events = childEvents(this.#state.nodes[key], key, child, part);
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
		// A node that ended before its start was seen (one update for both, or nothing left to run) still started.
		if (this.#state.nodes[key].status === "queued" && (outcome.status === "completed" || outcome.status === "parked")) {
			events.push({
				type: "start",
				node: key,
				at: child?.startedAt ?? at,
				harness: child?.harness,
				agent: child?.agent,
			});
		}
		const disposition = this.#state.nodes[key].disposition;
		// A control's disposition wins over how the killed child ended: a skip stays a skip.
		if (disposition === "skip") events.push({ type: "skip", node: key, reason: { kind: "request" } });
		else if (disposition === "retry") events.push({ type: "requeue", node: key });
		else if (outcome.status === "not_started")
			events.push({ type: "skip", node: key, reason: stopReason(this.#state) });
		else if (outcome.status === "cancelled") events.push({ type: "cancel", node: key, at });
		else if (outcome.status === "failed") events.push({ type: "fail", node: key, at, error: outcome.error });
		else if (outcome.status === "parked") {
			events.push({ type: "park", node: key, requestId: outcome.requestId, question: outcome.question });
		} else events.push({ type: "complete", node: key, at, output: outcome.output, note: outcome.note });
		await this.#commit(events);
		if (outcome.status === "failed" && this.graph.definition.fail_fast) {
			await this.#stop({ type: "cancel_run", why: `fail_fast: node "${key}" failed` });
		}
	}
}
