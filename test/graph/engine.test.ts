/**
 * The graph engine's own protocol, with a runner that stands in for the launch layer: faults the real
 * binaries cannot produce on demand (a launch layer that throws, a checkpoint that cannot be written) and
 * the order of checkpoints and effects. Real children run in test/e2e/graph-*.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { ChildRun } from "../../src/core/child-run.ts";
import { runGraph } from "../../src/graph/engine.ts";
import type { SpecRunner } from "../../src/graph/executors.ts";
import type { GraphEvent } from "../../src/graph/run-state.ts";
import { compiledGraph } from "../support/graphs.ts";
import { launchSpec } from "../support/launch-spec.ts";
import { runResult } from "../support/run-result.ts";

const node = (task: string, depends_on: string[] = []) => ({ agent_type: "pi", task, depends_on });

/** A child that started and ended as `phase`. */
function finished(task: string, phase: ChildRun["phase"] = "completed"): ChildRun {
	return {
		index: 0,
		harness: "pi",
		task,
		phase,
		startedAt: 1,
		result: runResult({ task, status: phase === "completed" ? "completed" : "failed" }),
	};
}

describe("the graph engine", () => {
	it("stops dispatch on an infrastructure error, cancels running nodes and settles only once they are gone", async () => {
		let hangingEnded = false;
		const run: SpecRunner = async (spec, options) => {
			if (spec.task === "throws") throw new Error("the launch layer broke");
			options.onChild({ ...finished(spec.task), phase: "running" });
			await new Promise<void>((resolve) => options.signal.addEventListener("abort", () => resolve(), { once: true }));
			hangingEnded = true;
			return finished(spec.task, "aborted");
		};
		const outcome = await runGraph(
			compiledGraph({ hangs: node("hangs"), breaks: node("throws"), after: node("after", ["hangs"]) }),
			{ defaultConcurrency: 4, resolve: async (_key, task) => launchSpec({ harness: "pi", cwd: "/work", task }), run },
		);
		expect(hangingEnded).toBe(true);
		expect(outcome.state.infrastructureError).toBe('node "breaks": the launch layer broke');
		expect(Object.fromEntries(Object.entries(outcome.state.nodes).map(([key, n]) => [key, n.status]))).toEqual({
			hangs: "cancelled",
			breaks: "failed",
			after: "skipped",
		});
		expect(outcome.state.nodes.after.skip).toEqual({
			kind: "cancelled",
			why: 'infrastructure error: node "breaks": the launch layer broke',
		});
	});

	it("hands every admission wave to the checkpointer before any child of it starts", async () => {
		const log: string[] = [];
		const run: SpecRunner = async (spec, options) => {
			log.push(`run ${spec.task}`);
			options.onChild({ ...finished(spec.task), phase: "running" });
			return finished(spec.task);
		};
		await runGraph(compiledGraph({ a: node("a"), b: node("b"), c: node("c", ["a", "b"]) }), {
			defaultConcurrency: 4,
			resolve: async (_key, task) => launchSpec({ harness: "pi", cwd: "/work", task }),
			run,
			persist: async (events: readonly GraphEvent[]) => {
				log.push(events.map((event) => `${event.type}${"node" in event ? ` ${event.node}` : ""}`).join(", "));
			},
		});
		expect(log.indexOf("admit a, admit b")).toBe(0);
		expect(log.indexOf("admit c")).toBeGreaterThan(log.indexOf("run b"));
		expect(log.indexOf("run c")).toBe(log.indexOf("admit c") + 1);
		// A settlement is persisted before the dependents it frees are admitted.
		expect(log.findIndex((line) => line.startsWith("start a, complete a") || line === "complete a")).toBeLessThan(
			log.indexOf("admit c"),
		);
	});

	it("makes a checkpoint that cannot be written an infrastructure error: nothing more starts", async () => {
		const started: string[] = [];
		const run: SpecRunner = async (spec, options) => {
			started.push(spec.task);
			options.onChild({ ...finished(spec.task), phase: "running" });
			return finished(spec.task);
		};
		const outcome = await runGraph(compiledGraph({ a: node("a"), b: node("b", ["a"]) }), {
			defaultConcurrency: 4,
			resolve: async (_key, task) => launchSpec({ harness: "pi", cwd: "/work", task }),
			run,
			persist: async (events) => {
				if (events.some((event) => event.type === "complete")) throw new Error("disk full");
			},
		});
		expect(outcome.state.infrastructureError).toBe("could not persist the run: disk full");
		expect(started).toEqual(["a"]);
		expect(outcome.state.nodes.b.status).toBe("skipped");
	});

	it("lets nodes admitted within max_nodes_started run, and skips the rest (budget)", async () => {
		const persisted: GraphEvent[] = [];
		const run: SpecRunner = async (spec, options) => {
			options.onChild({ ...finished(spec.task), phase: "running" });
			return finished(spec.task);
		};
		const outcome = await runGraph(
			compiledGraph(
				{ a: node("a"), b: node("b"), c: node("c"), d: node("d") },
				{ limits: { max_nodes_started: 2, concurrency: 1 } },
			),
			{
				defaultConcurrency: 4,
				resolve: async (_key, task) => launchSpec({ harness: "pi", cwd: "/work", task }),
				run,
				persist: async (events) => void persisted.push(...events),
			},
		);
		expect(Object.values(outcome.state.nodes).map((n) => n.status)).toEqual([
			"completed",
			"completed",
			"skipped",
			"skipped",
		]);
		// One stop, recorded once.
		expect(persisted.filter((event) => event.type === "budget")).toHaveLength(1);
		expect(outcome.state.nodes.c.skip).toEqual({ kind: "budget", budget: "max_nodes_started" });
		expect(outcome.state.budgetStop).toEqual({ budget: "max_nodes_started", limit: 2, spent: 2 });
	});
	it("never runs more nodes at once than limits.concurrency, and runs independent ones side by side", async () => {
		let running = 0;
		let peak = 0;
		const waiting: Array<() => void> = [];
		const run: SpecRunner = async (spec, options) => {
			running += 1;
			peak = Math.max(peak, running);
			options.onChild({ ...finished(spec.task), phase: "running" });
			await new Promise<void>((resolve) => waiting.push(resolve));
			running -= 1;
			return finished(spec.task);
		};
		const done = runGraph(
			compiledGraph({ a: node("a"), b: node("b"), c: node("c"), d: node("d") }, { limits: { concurrency: 2 } }),
			{
				defaultConcurrency: 4,
				resolve: async (_key, task) => launchSpec({ harness: "pi", cwd: "/work", task }),
				run,
			},
		);
		for (let released = 0; released < 4; released++) {
			// Settled: every running node is held (a released one has returned) and the limit is filled.
			while (waiting.length !== running || waiting.length < Math.min(2, 4 - released)) {
				await new Promise((resolve) => setImmediate(resolve));
			}
			expect(running).toBe(Math.min(2, 4 - released));
			waiting.shift()?.();
		}
		const outcome = await done;
		expect(peak).toBe(2);
		expect(Object.values(outcome.state.nodes).every((n) => n.status === "completed")).toBe(true);
	});
});
