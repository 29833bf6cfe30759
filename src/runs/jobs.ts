/**
 * Background jobs (DESIGN.md §1 `background: true`; runtime-contracts: foreground results and background
 * follow-up notifications keep distinct delivery paths; retention stays bounded; a job id is not a native
 * session id; job status lives in memory only).
 */
import { randomUUID } from "node:crypto";
import type { CallMode, ChildRun } from "../core/child-run.ts";

/** `customType` of the follow-up message that delivers a finished job's result. */
export const JOB_MESSAGE_TYPE = "pi-native-subagents.job";

export type JobStatus = "running" | "completed" | "failed" | "cancelled";

export interface Job {
	/** Short id, unique within this extension load. */
	id: string;
	mode: CallMode;
	/** e.g. `scout "find auth"` or `parallel (3 tasks)`. */
	label: string;
	/** ms since the Unix epoch. */
	startedAt: number;
	/** ms since the Unix epoch; set when the job has ended. */
	endedAt?: number;
	status: JobStatus;
	/** Live children (replaced on every update). */
	children: ChildRun[];
}

/** Finished jobs kept for listing; older ones are forgotten first. */
export const MAX_FINISHED_JOBS = 20;

interface Entry {
	job: Job;
	controller: AbortController;
	settled: Promise<void>;
}

/** The background jobs of one extension load, in memory. */
export class JobRegistry {
	readonly #entries = new Map<string, Entry>();
	#closing = false;

	/**
	 * Starts `run` now and returns its job at once. `run` gets the job's abort signal and reports live
	 * children through `update`; `finish` is called once with the final children (when `run` threw, the job
	 * is `failed` and `finish` gets no children and the error), except after `close()`. An exception from
	 * `finish` is logged, never propagated.
	 */
	start(
		mode: CallMode,
		label: string,
		run: (signal: AbortSignal, update: (children: ChildRun[]) => void) => Promise<ChildRun[]>,
		finish: (job: Job, children: ChildRun[], error?: string) => void,
	): Job {
		const job: Job = {
			id: randomUUID().slice(0, 8),
			mode,
			label,
			startedAt: Date.now(),
			status: "running",
			children: [],
		};
		const controller = new AbortController();
		const settled = (async () => {
			let children: ChildRun[] = [];
			let error: string | undefined;
			try {
				children = await run(controller.signal, (current) => {
					job.children = current;
				});
			} catch (caught) {
				error = (caught as Error).message;
			}
			job.children = children;
			job.endedAt = Date.now();
			job.status = controller.signal.aborted
				? "cancelled"
				: !error && children.every((child) => child.phase === "completed")
					? "completed"
					: "failed";
			this.#prune();
			// Delivery must not break the registry (or leave a rejected promise nobody awaits).
			if (this.#closing) return;
			try {
				finish(job, children, error);
			} catch (caught) {
				console.error(`pi-native-subagents: could not deliver background job ${job.id}: ${(caught as Error).message}`);
			}
		})();
		this.#entries.set(job.id, { job, controller, settled });
		return job;
	}

	/** Every known job, newest first. */
	list(): Job[] {
		return [...this.#entries.values()].map((entry) => entry.job).sort((a, b) => b.startedAt - a.startedAt);
	}

	/** True after `close()`: the session is shutting down and no job may start. */
	get closed(): boolean {
		return this.#closing;
	}

	/** The job with this id, while it is kept (running, or among the last finished ones). */
	get(id: string): Job | undefined {
		return this.#entries.get(id)?.job;
	}

	/**
	 * Aborts a running job (its children's process groups are killed; queued children never start) and
	 * resolves once it has settled. Returns false when no running job has that id.
	 */
	async cancel(id: string): Promise<boolean> {
		const entry = this.#entries.get(id);
		if (entry?.job.status !== "running") return false;
		entry.controller.abort();
		await entry.settled;
		return true;
	}

	/**
	 * Session shutdown: cancels every running job, waits for all to settle (nothing is left behind), and
	 * delivers nothing more — the session they would report to is going away.
	 */
	async close(): Promise<void> {
		this.#closing = true;
		const running = [...this.#entries.values()].filter((entry) => entry.job.status === "running");
		for (const entry of running) entry.controller.abort();
		await Promise.all(running.map((entry) => entry.settled));
	}

	#prune(): void {
		const finished = this.list().filter((job) => job.status !== "running");
		for (const job of finished.slice(MAX_FINISHED_JOBS)) this.#entries.delete(job.id);
	}
}

/**
 * The follow-up message text of a finished job: status and usage line (Pi gives extensions no way to add a
 * background job's usage to the session totals, so it is stated here), then the same result text a
 * foreground call returns.
 */
export function jobMessage(job: Job, resultText: string, usageLine: string): string {
	return `Background job ${job.id} (${job.label}) ${job.status}. Usage: ${usageLine}.\n\n${resultText}`;
}
