/**
 * Background jobs (docs/background-jobs.md §Background jobs): a job runs one `subagent` call's children after the tool
 * call has returned and reports once, as a follow-up message. Every job that started reports exactly once,
 * cancelled, stopped or not: on session shutdown (quit, `/new`, `/resume`, `/fork`, `/reload`) running jobs
 * are cancelled and their cancellation is still reported to the session that started them. Job ids are not
 * native session ids; job state lives in memory only and finished jobs are kept boundedly.
 */
import { randomUUID } from "node:crypto";
import type { ChildInputChannel, SendMode, SendReceipt, StopReceipt } from "../core/child-input.ts";
import type { ChildRun } from "../core/child-run.ts";
import type { JobMode } from "../core/details.ts";
import { timer as clampedTimer } from "../process/deadlines.ts";
import { childDetails } from "./child-details.ts";
import { type Job, type JobLogger, MAX_FINISHED_JOBS, STOP_GRACE_MS, type StopOutcome } from "./job.ts";
import { findChild, LiveInputs } from "./live-inputs.ts";
import { signalTargetExists } from "./process-exists.ts";

export * from "./job.ts";

interface Entry {
	job: Job;
	controller: AbortController;
	settled: Promise<void>;
	stopping: boolean;
	/** Aborted by a graceful stop: children not yet started never start. */
	noMoreStarts: AbortController;
	/** A `wait` said the result can be read now: kept, whatever the pruning, until `result` reads it. */
	promised: boolean;
	/** Position in the order jobs finished (1 for the first); 0 while running. Ties of `endedAt` need it. */
	finishedAs: number;
}

/** The background jobs of one extension load, in memory. */
export class JobRegistry {
	readonly #entries = new Map<string, Entry>();
	readonly #inputs: LiveInputs;
	readonly #logger: JobLogger;
	#closing = false;
	#finishedCount = 0;

	/**
	 * @param logger where a delivery that threw is reported (never the global console).
	 * @param inputs where the jobs' children's input channels are listed (shared with foreground calls).
	 */
	constructor(logger: JobLogger, inputs: LiveInputs = new LiveInputs()) {
		this.#logger = logger;
		this.#inputs = inputs;
	}

	/**
	 * Starts `run` now and returns its job at once. `run` gets the job's abort signal and reports live
	 * children through `update`. `finish` is called exactly once when the job ends (also when it was
	 * cancelled or stopped, by a call or by `close`), with the final children (none when `run` threw; the job
	 * is then `failed` and `finish` gets the error); it delivers the report and returns the result text, kept
	 * as `job.resultText`. An exception from `finish` goes to the logger, never to the caller.
	 * @param succeeded whether a run that ended on its own completed (default: every child completed).
	 */
	start(
		mode: JobMode,
		label: string,
		run: (
			signal: AbortSignal,
			update: (children: ChildRun[]) => void,
			onInput: (index: number, channel: ChildInputChannel) => void,
			noMoreStarts: AbortSignal,
		) => Promise<ChildRun[]>,
		finish: (job: Job, children: ChildRun[], error?: string) => string | undefined,
		succeeded: (children: ChildRun[]) => boolean = (children) => children.every((child) => child.phase === "completed"),
	): Job {
		const job: Job = {
			// JOB_ID_PATTERN: 8 hex characters.
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
			promised: false,
			finishedAs: 0,
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
			job.endedAt = Date.now();
			entry.finishedAs = ++this.#finishedCount;
			job.status = entry.stopping
				? "stopped"
				: controller.signal.aborted
					? "cancelled"
					: !error && succeeded(children)
						? "completed"
						: "failed";
			live.close();
			// Delivery must not break the registry (or leave a rejected promise nobody awaits).
			try {
				job.resultText = finish(job, children, error);
			} catch (caught) {
				this.#logger.error(
					`pi-native-subagents: could not deliver background job ${job.id}: ${(caught as Error).message}`,
				);
			}
			// The whole answers are in the result text and the artifacts; keep only what a listing shows.
			job.children = children.map(childDetails);
			this.#prune();
		})();
		this.#entries.set(job.id, entry);
		return job;
	}

	/** Every known job, newest first. Listing changes nothing (a result stays readable with `get`). */
	list(): Job[] {
		return [...this.#entries.values()].map((entry) => entry.job).sort((a, b) => b.startedAt - a.startedAt);
	}

	/** Jobs running now (their children running or waiting for a slot). */
	get running(): number {
		return this.list().filter((job) => job.status === "running").length;
	}

	/** True after `close()`: the session is shutting down and no job may start. */
	get closed(): boolean {
		return this.#closing;
	}

	/** The job with this id, while it is kept (running, among the last finished ones, or promised). */
	get(id: string): Job | undefined {
		return this.#entries.get(id)?.job;
	}

	/**
	 * The job with this id for reading its result: like `get`, and a promise made by `wait` is kept (the job
	 * is pruned like any other finished job from now on, so it stays readable for a while yet).
	 */
	readResult(id: string): Job | undefined {
		const entry = this.#entries.get(id);
		if (entry && entry.job.status !== "running") entry.promised = false;
		return entry?.job;
	}

	/**
	 * Aborts a running job (its children's process groups are killed; queued children never start) and
	 * resolves once it has settled and reported. Returns false when no running job has that id.
	 */
	async cancel(id: string, reason?: string): Promise<boolean> {
		const entry = this.#entries.get(id);
		if (entry?.job.status !== "running") return false;
		if (reason) entry.job.cancelReason = reason;
		entry.controller.abort();
		await entry.settled;
		return true;
	}

	/**
	 * Waits, without cancelling, until job `id` has ended and reported and every child's process group is
	 * gone (no member left to signal), or until `timeoutMs` (ms) has passed or `signal` aborts. Resolves with
	 * the job (check `status`: still `running` when the wait gave up), or `undefined` when no job has that id.
	 */
	async wait(id: string, timeoutMs: number, signal?: AbortSignal): Promise<Job | undefined> {
		const entry = this.#entries.get(id);
		if (!entry) return undefined;
		const deadline = Date.now() + timeoutMs;
		let timer: ReturnType<typeof setTimeout> | undefined;
		let onAbort: (() => void) | undefined;
		const givenUp = new Promise<void>((resolve) => {
			timer = setTimeout(resolve, timeoutMs);
			onAbort = resolve;
			signal?.addEventListener("abort", onAbort, { once: true });
			if (signal?.aborted) resolve();
		});
		await Promise.race([entry.settled, givenUp]);
		clearTimeout(timer);
		if (onAbort) signal?.removeEventListener("abort", onAbort);
		if (entry.job.status === "running") return entry.job;
		// The caller is told the result can be read now: it must stay readable until it is.
		entry.promised = true;
		// The leader has exited; members it left behind were SIGKILLed and may take a moment to go.
		const groups = entry.job.children.flatMap((child) => (child.result?.pid ? [child.result.pid] : []));
		while (groups.some((pgid) => signalTargetExists(-pgid)) && Date.now() < deadline && !signal?.aborted) {
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		return entry.job;
	}

	/**
	 * Sends `text` to child `child` (index, task_name, agent or node key; optional for a one-child job) of running job
	 * `id`. The receipt is the child's own (see ChildInputChannel); a finished job refuses with `exited`.
	 */
	async send(id: string, child: string | number | undefined, text: string, mode: SendMode): Promise<SendReceipt> {
		const entry = this.#entries.get(id);
		if (!entry) return { status: "refused", reason: "not_found", message: `there is no job ${id}` };
		if (entry.job.status !== "running") {
			return { status: "refused", reason: "exited", message: `job ${id} has ended (${entry.job.status})` };
		}
		const call = this.#inputs.get(id);
		const found = call
			? findChild(call, child)
			: { error: `job ${id} has no running children`, reason: "exited" as const };
		if ("error" in found) return { status: "refused", reason: found.reason, message: found.error };
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
		const graceTimer = clampedTimer(graceMs, kill);
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
	 * Session shutdown: no job may start any more; every running job is cancelled with `reason` and still
	 * reports (its `finish` runs, so the session that started it learns of the cancellation). Resolves when
	 * every job has settled: nothing is left behind.
	 */
	async close(reason: string): Promise<void> {
		this.#closing = true;
		const running = [...this.#entries.values()].filter((entry) => entry.job.status === "running");
		await Promise.all(running.map((entry) => this.cancel(entry.job.id, reason)));
	}

	/** Forgets the finished jobs beyond MAX_FINISHED_JOBS, the earliest finished first; promised ones stay. */
	#prune(): void {
		const finished = [...this.#entries.values()]
			.filter((entry) => entry.job.status !== "running" && !entry.promised)
			.sort((a, b) => b.finishedAs - a.finishedAs);
		for (const entry of finished.slice(MAX_FINISHED_JOBS)) this.#entries.delete(entry.job.id);
	}
}
