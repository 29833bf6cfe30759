/**
 * Background jobs (README.md "Background jobs"; docs/rules.md §Background jobs: foreground results and background
 * follow-up notifications keep distinct delivery paths; retention stays bounded; a job id is not a native
 * session id; job status lives in memory only).
 */
import { randomUUID } from "node:crypto";
import type { ChildInputChannel, SendMode, SendReceipt, StopReceipt } from "../core/child-input.ts";
import type { CallMode, ChildRun } from "../core/child-run.ts";
import { findChild, LiveInputs } from "./live-inputs.ts";

/** `customType` of the follow-up message that delivers a finished job's result. */
export const JOB_MESSAGE_TYPE = "pi-native-subagents.job";

/** `stopped`: ended by a graceful stop (`stop`); `cancelled`: killed (`cancel`). */
export type JobStatus = "running" | "completed" | "failed" | "cancelled" | "stopped";

/** How long a graceful stop waits for the children to end their turns before killing them, ms. */
export const STOP_GRACE_MS = 5_000;

/** What a stop did: each asked child's receipt, and whether the grace ran out and the job was killed. */
export interface StopOutcome {
	receipts: Array<{ index: number; receipt: StopReceipt }>;
	killed: boolean;
}

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
	stopping: boolean;
	/** Aborted by a graceful stop: children not yet started never start. */
	noMoreStarts: AbortController;
}

/** The background jobs of one extension load, in memory. */
export class JobRegistry {
	readonly #entries = new Map<string, Entry>();
	readonly #inputs: LiveInputs;
	#closing = false;

	/** @param inputs where the jobs' children's input channels are listed (shared with foreground calls). */
	constructor(inputs: LiveInputs = new LiveInputs()) {
		this.#inputs = inputs;
	}

	/**
	 * Starts `run` now and returns its job at once. `run` gets the job's abort signal and reports live
	 * children through `update`; `finish` is called once with the final children (when `run` threw, the job
	 * is `failed` and `finish` gets no children and the error), except after `close()`. An exception from
	 * `finish` is logged, never propagated.
	 */
	start(
		mode: CallMode,
		label: string,
		run: (
			signal: AbortSignal,
			update: (children: ChildRun[]) => void,
			onInput: (index: number, channel: ChildInputChannel) => void,
			noMoreStarts: AbortSignal,
		) => Promise<ChildRun[]>,
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
		const live = this.#inputs.open(job.id, true, () => job.children);
		const entry: Entry = {
			job,
			controller,
			settled: Promise.resolve(),
			stopping: false,
			noMoreStarts: new AbortController(),
		};
		entry.settled = (async () => {
			let children: ChildRun[] = [];
			let error: string | undefined;
			try {
				children = await run(
					controller.signal,
					(current) => {
						job.children = current;
					},
					live.onInput,
					entry.noMoreStarts.signal,
				);
			} catch (caught) {
				error = (caught as Error).message;
			}
			job.children = children;
			job.endedAt = Date.now();
			job.status = entry.stopping
				? "stopped"
				: controller.signal.aborted
					? "cancelled"
					: !error && children.every((child) => child.phase === "completed")
						? "completed"
						: "failed";
			this.#prune();
			live.close();
			// Delivery must not break the registry (or leave a rejected promise nobody awaits).
			if (this.#closing) return;
			try {
				finish(job, children, error);
			} catch (caught) {
				console.error(`pi-native-subagents: could not deliver background job ${job.id}: ${(caught as Error).message}`);
			}
		})();
		this.#entries.set(job.id, entry);
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
	 * Sends `text` to child `child` (index, task_name or agent; optional for a one-child job) of running job
	 * `id`. The receipt is the child's own (see ChildInputChannel); a finished job refuses with `exited`.
	 */
	async send(id: string, child: string | number | undefined, text: string, mode: SendMode): Promise<SendReceipt> {
		const entry = this.#entries.get(id);
		if (!entry) return { status: "refused", reason: "exited", message: `there is no job ${id}` };
		if (entry.job.status !== "running") {
			return { status: "refused", reason: "exited", message: `job ${id} has ended (${entry.job.status})` };
		}
		const call = this.#inputs.get(id);
		const found = call ? findChild(call, child) : { error: `job ${id} has no running children` };
		if ("error" in found) return { status: "refused", reason: "exited", message: found.error };
		return found.channel.send(text, mode);
	}

	/**
	 * Stops running job `id` gracefully: queued children never start, every running child's harness is
	 * asked to abort its turn (partial text and usage are kept); children that cannot be asked, and any
	 * still running `graceMs` ms after the request, are killed as `cancel` does. Resolves once the job has settled; `undefined` when no running job has that id.
	 */
	async stop(id: string, graceMs = STOP_GRACE_MS): Promise<StopOutcome | undefined> {
		const entry = this.#entries.get(id);
		if (entry?.job.status !== "running") return undefined;
		entry.stopping = true;
		entry.noMoreStarts.abort();
		let killed = false;
		const kill = () => {
			if (killed) return;
			killed = true;
			entry.controller.abort();
		};
		// The grace runs from the request, so a harness that never acknowledges cannot hold the stop up.
		const graceTimer = setTimeout(kill, graceMs);
		const call = this.#inputs.get(id);
		const running = entry.job.children.filter((child) => child.phase === "running");
		const receipts = await Promise.all(
			running.map(async (child) => {
				const channel = call?.channels.get(child.index);
				const receipt: StopReceipt = channel
					? await channel.stop()
					: { status: "refused", reason: "no_input_channel", message: "the child has no input channel" };
				return { index: child.index, receipt };
			}),
		);
		// A child that could not be asked is killed at once; queued children were kept from starting above.
		if (receipts.some((r) => r.receipt.status === "refused")) kill();
		await entry.settled;
		clearTimeout(graceTimer);
		return { receipts, killed };
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
