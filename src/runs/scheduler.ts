/**
 * Schedules the children of one `subagent` call (README.md "The subagent tool"): single, parallel (bounded per call and
 * by a limit shared by every call of the parent session) and chain (`{previous}` substituted literally).
 */
import type { LimitFunction } from "p-limit";
import pLimit from "p-limit";
import type { ChildInputChannel } from "../core/child-input.ts";
import type { CallMode, ChildRun } from "../core/child-run.ts";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import type { Harness, LaunchSpec } from "../core/launch-spec.ts";
import type { RunResult } from "../core/run-result.ts";
import { type RunChildOptions, runChild } from "./run-child.ts";

export interface ScheduleOptions {
	adapters: Record<Harness, HarnessAdapter>;
	/** The complete environment for one child. */
	envFor(spec: LaunchSpec): Record<string, string>;
	/** Children running at once in this call. */
	concurrency: number;
	/** Limit shared by all calls of the parent session (children running at once overall). */
	globalLimit: LimitFunction;
	signal?: AbortSignal;
	/** Aborting keeps children that have not started from starting (`skipped`); running ones go on. */
	noMoreStarts?: AbortSignal;
	/** Runs a child whose spec has `interactive` set (in its harness's TUI); `undefined`: such children fail. */
	runInteractive?: ChildRunner;
	/** Called whenever a child changes; `children` is the live list (do not keep references). */
	onUpdate?: (children: ChildRun[]) => void;
	/** Called when child `index` has started, with its input channel. */
	onInput?: (index: number, channel: ChildInputChannel) => void;
}

/** Runs one child to its RunResult (`runChild` for headless children). */
export type ChildRunner = (spec: LaunchSpec, adapter: HarnessAdapter, options: RunChildOptions) => Promise<RunResult>;

/** The placeholder a chain step's task uses for the previous step's final answer. */
export const PREVIOUS_PLACEHOLDER = "{previous}";

/**
 * Runs every spec and resolves with one ChildRun per spec, in call order. Never rejects for child
 * failures. Aborting kills running children and keeps queued ones from starting.
 */
export async function runCall(mode: CallMode, specs: LaunchSpec[], options: ScheduleOptions): Promise<ChildRun[]> {
	const children: ChildRun[] = specs.map((spec, index) => ({
		index,
		harness: spec.harness,
		agent: spec.provenance.rosterEntry ?? spec.provenance.agentName,
		taskName: spec.taskName,
		task: spec.task,
		model: spec.model,
		phase: "pending",
	}));
	const update = () => options.onUpdate?.(children);
	/** Fires when no further child may start: an abort, or a graceful stop. */
	const stopSignals = [options.signal, options.noMoreStarts].filter((signal) => signal !== undefined);
	const startSignal = stopSignals.length > 1 ? AbortSignal.any(stopSignals) : stopSignals[0];
	update();

	/**
	 * Runs child `index` under the shared limit. While it only waits for a slot, an abort ends the wait at
	 * once (it is then `skipped`, and the slot, when it comes, is handed straight back): a queued child
	 * never holds up an abort or a job cancellation behind another call's running children.
	 */
	const underGlobalLimit = (index: number, spec: LaunchSpec): Promise<void> => {
		const signal = startSignal;
		let started = false;
		const queued = options.globalLimit(() => {
			started = true;
			return runOne(index, spec);
		});
		if (!signal) return queued;
		return new Promise<void>((resolve, reject) => {
			const onAbort = () => {
				if (started) return;
				children[index].phase = "skipped";
				resolve();
			};
			signal.addEventListener("abort", onAbort, { once: true });
			if (signal.aborted) onAbort();
			queued.then(
				() => {
					signal.removeEventListener("abort", onAbort);
					resolve();
				},
				(error: unknown) => {
					signal.removeEventListener("abort", onAbort);
					reject(error);
				},
			);
		});
	};

	const runOne = async (index: number, spec: LaunchSpec): Promise<void> => {
		const child = children[index];
		if (startSignal?.aborted) {
			child.phase = "skipped";
			return;
		}
		child.phase = "running";
		child.startedAt = Date.now();
		update();
		try {
			const run = spec.interactive ? options.runInteractive : runChild;
			if (!run) throw new Error("interactive runs are not available here");
			const result = await run(spec, options.adapters[spec.harness], {
				env: options.envFor(spec),
				signal: options.signal,
				onUpdate(partial) {
					child.result = partial;
					update();
				},
				onInput: (channel) => options.onInput?.(index, channel),
			});
			child.result = result;
			child.phase = result.status;
		} catch (error) {
			child.phase = "failed";
			child.error = (error as Error).message;
		}
		update();
	};

	if (mode === "chain") {
		let previous = "";
		for (let i = 0; i < specs.length; i++) {
			// split/join, not String.replace: `$&`, `$1` in the answer must survive literally.
			const spec = { ...specs[i], task: specs[i].task.split(PREVIOUS_PLACEHOLDER).join(previous) };
			const child = children[i];
			if (spec.task.trim() === "") {
				// Pi would start and end without a turn; say why instead.
				child.phase = "failed";
				child.error = `the task is empty after substituting ${PREVIOUS_PLACEHOLDER}: step ${i} gave no text answer`;
			} else {
				await underGlobalLimit(i, spec);
			}
			if (child.phase !== "completed") {
				for (const rest of children.slice(i + 1)) rest.phase = "skipped";
				break;
			}
			previous = child.result?.finalAnswer ?? "";
		}
	} else {
		const local = pLimit(Math.max(1, options.concurrency));
		await Promise.all(specs.map((spec, i) => local(() => underGlobalLimit(i, spec))));
	}
	update();
	return children;
}
