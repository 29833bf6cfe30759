/**
 * A runner that stands in for the launch layer in graph engine tests, so the test decides when each child
 * ends (`end`) or sees it killed through its signal; `log` tells what happened, in order.
 */
import type { ChildRun } from "../../src/core/child-run.ts";
import type { SpecRunner } from "../../src/graph/executors.ts";
import { runResult } from "./run-result.ts";

/** A runner whose children run until the test ends them (`end`) or they are killed; `log` tells what happened. */
export function heldRunner() {
	const log: string[] = [];
	const ends = new Map<string, (phase: ChildRun["phase"]) => void>();
	const started = new Map<string, () => void>();
	const waiting = new Map<string, Promise<void>>();
	const run: SpecRunner = async (spec, options) => {
		log.push(`start ${spec.task}`);
		const child: ChildRun = {
			index: 0,
			harness: "pi",
			task: spec.task,
			phase: "running",
			startedAt: 1,
			result: runResult({ task: spec.task, status: "completed" }),
		};
		options.onChild(child);
		started.get(spec.task)?.();
		const phase = await new Promise<ChildRun["phase"]>((resolve) => {
			ends.set(spec.task, resolve);
			options.signal.addEventListener("abort", () => {
				log.push(`killed ${spec.task}`);
				resolve("aborted");
			});
		});
		log.push(`gone ${spec.task}`);
		return { ...child, phase };
	};
	return {
		run,
		log,
		end: (task: string) => ends.get(task)?.("completed"),
		/** Resolves once a child with `task` has started (now or later). */
		startedOnce(task: string): Promise<void> {
			if (log.includes(`start ${task}`)) return Promise.resolve();
			let promise = waiting.get(task);
			if (!promise) {
				promise = new Promise<void>((resolve) => started.set(task, resolve));
				waiting.set(task, promise);
			}
			return promise;
		},
	};
}

/** Resolves once `check` holds, looking again after each turn of the event loop (no wall-clock wait). */
export async function waitFor(check: () => boolean): Promise<void> {
	while (!check()) await new Promise((resolve) => setImmediate(resolve));
}
