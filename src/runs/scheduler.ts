/**
 * Schedules the children of one `subagent` call (docs/tools.md §The subagent tool): single, parallel (bounded per call and
 * by a limit shared by every call of the parent session) and chain (`{previous}` substituted literally).
 */
import type { LimitFunction } from "p-limit";
import pLimit from "p-limit";
import type { ChildInputChannel } from "../core/child-input.ts";
import type { CallMode, ChildRun } from "../core/child-run.ts";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import { definitionName, type Harness, type LaunchSpec } from "../core/launch-spec.ts";
import { Problems } from "../core/problems.ts";
import type { RunResult } from "../core/run-result.ts";
import { childActivity, noteChildStart } from "../process/start-count.ts";
import { type RunChildOptions, runChild } from "./run-child.ts";
import type { WarmPool } from "./warm-children.ts";

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
	/** Warm children, when the setting is on (see `RunChildOptions.warm`). */
	warm?: WarmPool;
}

/** Runs one child to its RunResult (`runChild` for headless children). */
export type ChildRunner = (spec: LaunchSpec, adapter: HarnessAdapter, options: RunChildOptions) => Promise<RunResult>;

/** The placeholder a chain step's task uses for the previous step's final answer. */
export const PREVIOUS_PLACEHOLDER = "{previous}";

/** One call in progress: its live children and how to report them. */
interface CallRun {
	children: ChildRun[];
	options: ScheduleOptions;
	/** Fires when no further child may start: an abort, or a graceful stop. */
	startSignal: AbortSignal | undefined;
	/** Reports the live children through `options.onUpdate`. */
	update(): void;
	/** `childActivity()` when the call's specs were handed over (planned, or resolved at a graph node's dispatch). */
	plannedAt: { started: number; running: number };
}

/**
 * Runs every spec and resolves with one ChildRun per spec, in call order. Never rejects for child
 * failures. Aborting kills running children and keeps queued ones from starting.
 */
export async function runCall(mode: CallMode, specs: LaunchSpec[], options: ScheduleOptions): Promise<ChildRun[]> {
	const children = specs.map(pendingChild);
	const stopSignals = [options.signal, options.noMoreStarts].filter((signal) => signal !== undefined);
	const startSignal = stopSignals.length > 1 ? AbortSignal.any(stopSignals) : stopSignals[0];
	const call: CallRun = {
		children,
		options,
		startSignal,
		update: () => options.onUpdate?.(children),
		plannedAt: childActivity(),
	};
	call.update();
	if (mode === "chain") await runChain(call, specs);
	else await runParallel(call, specs);
	call.update();
	return children;
}

/** The child of `spec` before it starts. */
function pendingChild(spec: LaunchSpec, index: number): ChildRun {
	return {
		index,
		harness: spec.harness,
		agent: definitionName(spec.provenance),
		taskName: spec.taskName,
		task: spec.task,
		model: spec.model,
		phase: "pending",
	};
}

/** Every child at once, at most `options.concurrency` of this call running. */
async function runParallel(call: CallRun, specs: LaunchSpec[]): Promise<void> {
	const local = pLimit(Math.max(1, call.options.concurrency));
	await Promise.all(specs.map((spec, i) => local(() => underGlobalLimit(call, i, spec))));
}

/**
 * Steps in order, each task with `{previous}` replaced by the previous step's final answer; the first step
 * that does not complete stops the chain and the rest are `skipped`.
 */
async function runChain(call: CallRun, specs: LaunchSpec[]): Promise<void> {
	let previous = "";
	for (let i = 0; i < specs.length; i++) {
		// split/join, not String.replace: `$&`, `$1` in the answer must survive literally.
		const spec = { ...specs[i], task: specs[i].task.split(PREVIOUS_PLACEHOLDER).join(previous) };
		const child = call.children[i];
		if (spec.task.trim() === "") {
			// Pi would start and end without a turn; say why instead.
			child.phase = "failed";
			child.error = `the task is empty after substituting ${PREVIOUS_PLACEHOLDER}: step ${i} gave no text answer`;
		} else {
			await underGlobalLimit(call, i, spec);
		}
		if (child.phase !== "completed") {
			for (const rest of call.children.slice(i + 1)) rest.phase = "skipped";
			return;
		}
		previous = child.result?.finalAnswer ?? "";
	}
}

/**
 * A child is checked by its harness again as it starts (fail closed) when another child or command gate ran
 * since its call was planned (running then, or started since: a later child of a parallel or chain call, a call
 * or graph node that waited for a slot): that one may have changed what the harness would load (a pi child
 * writing `.agents/skills` in an untrusted project before a codex child there). A refusal fails the child,
 * naming each problem.
 */
function acceptedAtStart(call: CallRun, child: ChildRun, spec: LaunchSpec): boolean {
	const problems = new Problems();
	call.options.adapters[spec.harness].validate(spec, problems);
	if (problems.size === 0) return true;
	child.phase = "failed";
	child.error = `refused at start: ${problems.list.join("; ")}`;
	call.update();
	return false;
}

/**
 * Runs child `index` under the shared limit. While it only waits for a slot, an abort ends the wait at
 * once (it is then `skipped`, and the slot, when it comes, is handed straight back): a queued child never
 * holds up an abort or a job cancellation behind another call's running children.
 */
function underGlobalLimit(call: CallRun, index: number, spec: LaunchSpec): Promise<void> {
	const signal = call.startSignal;
	let started = false;
	const queued = call.options.globalLimit(() => {
		started = true;
		return runOne(call, index, spec);
	});
	if (!signal) return queued;
	return new Promise<void>((resolve, reject) => {
		const onAbort = () => {
			if (started) return;
			call.children[index].phase = "skipped";
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
}

/** Runs child `index` to its result; a child that cannot start is `failed` with the reason in `error`. */
async function runOne(call: CallRun, index: number, spec: LaunchSpec): Promise<void> {
	const { options } = call;
	const child = call.children[index];
	if (call.startSignal?.aborted) {
		child.phase = "skipped";
		return;
	}
	// Another child ran since the call was planned (running then, or started since): it may have written meanwhile.
	const { running, started } = call.plannedAt;
	if ((running > 0 || childActivity().started > started) && !acceptedAtStart(call, child, spec)) return;
	const ended = noteChildStart();
	child.phase = "running";
	child.startedAt = Date.now();
	call.update();
	try {
		const run = spec.interactive ? options.runInteractive : runChild;
		if (!run) throw new Error("interactive runs are not available here");
		const result = await run(spec, options.adapters[spec.harness], {
			env: options.envFor(spec),
			signal: options.signal,
			onUpdate(partial) {
				child.result = partial;
				call.update();
			},
			onInput: (channel) => options.onInput?.(index, channel),
			warm: options.warm,
		});
		child.result = result;
		child.phase = result.status;
	} catch (error) {
		child.phase = "failed";
		child.error = (error as Error).message;
	} finally {
		ended();
	}
	call.update();
}
