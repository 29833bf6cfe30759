/**
 * The durable side of `agent_graph` runs in this Pi process (docs/graphs.md §Durability): each run gets a
 * run directory, its writer lease and a first checkpoint before anything starts, and is listed here while
 * it runs, so controls reach its engine.
 */

import { rmSync } from "node:fs";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { AgentScope } from "../config/agents.ts";
import type { GraphRunHandle } from "../graph/engine.ts";
import type { PreparedGraph } from "../graph/prepare.ts";
import { acquireLease, createRunDir, type Lease, newRunId } from "../graph/run-dir.ts";
import { applyEvent, type GraphRunState, initialRunState } from "../graph/run-state.ts";
import { type RunSnapshot, RunStore } from "../graph/run-store.ts";
import type { SubagentToolDeps } from "./subagent-tool.ts";

/** What a control or a restore works with: the tool's deps, this load's live runs, Pi's context. */
export interface ActionScope {
	deps: SubagentToolDeps;
	runs: GraphRuns;
	ctx: ExtensionContext;
}

/** A run that is going on in this process. */
export interface LiveRun {
	runId: string;
	name: string;
	sessionId: string;
	handle: GraphRunHandle;
	/** Stops recording the run (`RunStore.freeze`). */
	freeze(): void;
}

/** Runs of this process by id, while they run. */
export class GraphRuns {
	readonly #live = new Map<string, LiveRun>();

	add(run: LiveRun): void {
		this.#live.set(run.runId, run);
	}

	remove(runId: string): void {
		this.#live.delete(runId);
	}

	get(runId: string): LiveRun | undefined {
		return this.#live.get(runId);
	}

	list(): LiveRun[] {
		return [...this.#live.values()];
	}

	/**
	 * The session shuts down or is replaced: every live run stops recording before its cancellation, so it
	 * stays resumable by its session (docs/graphs.md §Durability).
	 */
	interrupt(): void {
		for (const run of this.#live.values()) run.freeze();
	}
}

/** A run's durable record and lease, and the state it continues from. */
export interface DurableRun {
	runId: string;
	store: RunStore;
	lease: Lease;
	/** A restored run's state; a new run starts from nothing. */
	initial?: GraphRunState;
	runs: GraphRuns;
	sessionId: string;
}

/** Where and for whom a new run is recorded. */
export interface NewRunPlace {
	agentDir: string;
	sessionId: string;
	cwd: string;
	agentScope: AgentScope;
	runs: GraphRuns;
}

/**
 * Creates a new run's directory, takes its lease and writes its first snapshot (every node waiting).
 * @throws Error naming the refused path or the failed write (the call is then refused; nothing started).
 */
export function openNewRun(prepared: PreparedGraph, place: NewRunPlace): DurableRun {
	const runId = newRunId();
	const dir = createRunDir(place.agentDir, runId);
	// Nothing of the run exists until its first snapshot: a failure before leaves no directory for a later scan.
	const discard = () => rmSync(dir, { recursive: true, force: true });
	let lease: ReturnType<typeof acquireLease>;
	try {
		lease = acquireLease(dir, place.sessionId);
	} catch (error) {
		discard();
		throw new Error(`could not take the run's lease in ${dir}: ${(error as Error).message}`);
	}
	if ("refused" in lease) {
		discard();
		throw new Error(lease.refused);
	}
	const { compiled } = prepared;
	const state = initialRunState(compiled.nodes.map((node) => node.key));
	const now = Date.now();
	const snapshot: RunSnapshot = {
		version: 1,
		runId,
		owner: { sessionId: place.sessionId },
		createdAt: now,
		updatedAt: now,
		graph: {
			name: prepared.name,
			definition: compiled.definition,
			inputs: compiled.inputs,
			agentScope: place.agentScope,
			cwd: place.cwd,
			file: prepared.file,
			digest: prepared.origin.source === "inline" ? undefined : prepared.origin.digest,
			subgraphs: Object.fromEntries([...prepared.subgraphs].map(([name, source]) => [name, source.definition])),
		},
		state,
		finished: false,
	};
	const store = new RunStore(dir, snapshot);
	try {
		store.commit([], state);
	} catch (error) {
		lease.release();
		discard();
		throw new Error(`could not write the run's first snapshot in ${dir}: ${(error as Error).message}`);
	}
	return { runId, store, lease, runs: place.runs, sessionId: place.sessionId };
}

/** A run that never got going (its job was refused): recorded as cancelled, so no restore picks it up. */
export function abandonRun(durable: DurableRun, why: string): void {
	const event = { type: "cancel_run" as const, why };
	try {
		durable.store.commit([event], applyEvent(durable.store.snapshot.state, event));
	} catch {
		// The run directory is unwritable: the refusal already tells the caller nothing ran.
	} finally {
		durable.lease.release();
	}
}
