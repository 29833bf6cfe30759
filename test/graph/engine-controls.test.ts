/**
 * Controls and restore in the graph engine (docs/graphs.md §Controls, §Durability), with a runner that stands
 * in for the launch layer so the test decides when each child ends: a disposition is persisted before its
 * kill, skip and retry wait until the child is gone, pause holds admissions only, a refused control changes
 * nothing, and a restored state never reruns settled nodes.
 */
import { describe, expect, it } from "vitest";
import { startGraph } from "../../src/graph/engine.ts";
import { applyEvent, type GraphEvent, type GraphRunState, initialRunState } from "../../src/graph/run-state.ts";
import { compiledGraph } from "../support/graphs.ts";
import { heldRunner, waitFor } from "../support/held-runner.ts";
import { launchSpec } from "../support/launch-spec.ts";

const node = (task: string, depends_on: string[] = [], extra: Record<string, unknown> = {}) => ({
	agent_type: "pi",
	task,
	depends_on,
	...extra,
});

const resolve = async (_key: string, task: string) => launchSpec({ harness: "pi", cwd: "/work", task });

function statuses(state: GraphRunState) {
	return Object.fromEntries(Object.entries(state.nodes).map(([key, n]) => [key, n.status]));
}

describe("graph run controls", () => {
	it("persists a skip's disposition before the kill, and skips the node only once its child is gone", async () => {
		const held = heldRunner();
		const persisted: string[] = [];
		const handle = startGraph(compiledGraph({ a: node("a"), b: node("b", ["a"]) }), {
			defaultConcurrency: 2,
			resolve,
			run: held.run,
			persist: async (events) => {
				persisted.push(...events.map((e) => `${e.type}${"node" in e ? ` ${e.node}` : ""}`));
				held.log.push(...events.map((e) => `persist ${e.type}`));
			},
		});
		await held.startedOnce("a");
		expect(await handle.control({ action: "skip", node: "a" })).toEqual({ accepted: true });
		const outcome = await handle.done;
		expect(held.log.indexOf("persist dispose")).toBeLessThan(held.log.indexOf("killed a"));
		expect(held.log.indexOf("gone a")).toBeLessThan(held.log.lastIndexOf("persist skip"));
		expect(outcome.state.nodes.a.skip).toEqual({ kind: "request" });
		expect(outcome.state.nodes.b.skip).toEqual({ kind: "dependency", node: "a", status: "skipped" });
		expect(persisted).toContain("dispose a");
	});

	it("retries a running node as attempt 2 only after its first child is gone", async () => {
		const held = heldRunner();
		const handle = startGraph(compiledGraph({ a: node("a") }), { defaultConcurrency: 1, resolve, run: held.run });
		await held.startedOnce("a");
		expect(await handle.control({ action: "retry", node: "a" })).toEqual({ accepted: true });
		await waitFor(() => held.log.filter((line) => line === "start a").length === 2);
		expect(held.log).toEqual(["start a", "killed a", "gone a", "start a"]);
		expect(handle.state().nodes.a.attempts).toBe(2);
		// max_attempts 2 is spent: a further retry is refused and changes nothing.
		const before = JSON.stringify(handle.state());
		expect(await handle.control({ action: "retry", node: "a" })).toEqual({
			accepted: false,
			reason: 'node "a" has used its 2 attempts (max_attempts)',
		});
		expect(JSON.stringify(handle.state())).toBe(before);
		held.end("a");
		expect((await handle.done).state.nodes.a.status).toBe("completed");
	});

	it("holds admissions while paused (a running node still settles) and continues on resume", async () => {
		const held = heldRunner();
		const handle = startGraph(compiledGraph({ a: node("a"), b: node("b", ["a"]) }), {
			defaultConcurrency: 2,
			resolve,
			run: held.run,
		});
		await held.startedOnce("a");
		expect(await handle.control({ action: "pause" })).toEqual({ accepted: true });
		expect(await handle.control({ action: "pause" })).toEqual({
			accepted: false,
			reason: "the run is already paused",
		});
		held.end("a");
		await waitFor(() => handle.state().nodes.a.status === "completed");
		expect(handle.state().nodes.b.status).toBe("waiting");
		expect(held.log).not.toContain("start b");
		expect(await handle.control({ action: "resume" })).toEqual({ accepted: true });
		await held.startedOnce("b");
		held.end("b");
		expect(statuses((await handle.done).state)).toEqual({ a: "completed", b: "completed" });
		expect(await handle.control({ action: "cancel" })).toEqual({ accepted: false, reason: "the run has ended" });
	});

	it("refuses controls that do not fit, changing nothing and persisting nothing", async () => {
		const held = heldRunner();
		let persists = 0;
		const handle = startGraph(compiledGraph({ a: node("a"), b: node("b", ["a"]) }), {
			defaultConcurrency: 1,
			resolve,
			run: held.run,
			persist: async () => {
				persists++;
			},
		});
		await held.startedOnce("a");
		const before = JSON.stringify(handle.state());
		const count = persists;
		const refusals = await Promise.all([
			handle.control({ action: "resume" }),
			handle.control({ action: "skip", node: "nope" }),
			handle.control({ action: "retry", node: "b" }),
			handle.control({ action: "skip" }),
		]);
		expect(refusals).toEqual([
			{ accepted: false, reason: "the run is not paused" },
			{ accepted: false, reason: 'no node "nope"; nodes: a, b' },
			{ accepted: false, reason: 'node "b" is waiting; only a failed, skipped, cancelled or running node is retried' },
			{ accepted: false, reason: "skip needs node (a node key)" },
		]);
		expect(JSON.stringify(handle.state())).toBe(before);
		expect(persists).toBe(count);
		expect(await handle.control({ action: "cancel" })).toEqual({ accepted: true });
		const outcome = await handle.done;
		expect(outcome.state.cancelled).toBe("cancelled by request");
		expect(statuses(outcome.state)).toEqual({ a: "cancelled", b: "skipped" });
	});
});

describe("a restored run", () => {
	function stateAfter(events: GraphEvent[]): GraphRunState {
		return events.reduce(applyEvent, initialRunState(["a", "b", "c"]));
	}

	it("never reruns a settled node, runs a node that was running as its next attempt, and applies a durable skip", async () => {
		const held = heldRunner();
		const initial = stateAfter([
			{ type: "admit", node: "a" },
			{ type: "start", node: "a", at: 1, harness: "pi" },
			{ type: "complete", node: "a", at: 2 },
			{ type: "admit", node: "b" },
			{ type: "start", node: "b", at: 3, harness: "pi" },
			{ type: "admit", node: "c" },
			{ type: "start", node: "c", at: 3, harness: "pi" },
			{ type: "dispose", node: "c", disposition: "skip" },
		]);
		const graph = compiledGraph({ a: node("a"), b: node("b", ["a"]), c: node("c", ["a"]) });
		const handle = startGraph(graph, { defaultConcurrency: 2, resolve, run: held.run, initial });
		await held.startedOnce("b");
		held.end("b");
		const outcome = await handle.done;
		expect(held.log).toEqual(["start b", "gone b"]);
		expect(outcome.state.nodes.b.attempts).toBe(2);
		expect(outcome.state.nodes.a.attempts).toBe(1);
		expect(outcome.state.nodes.c.skip).toEqual({ kind: "request" });
	});

	it("fails a node whose attempts are spent (failed: attempts exhausted) without starting it", async () => {
		const held = heldRunner();
		const initial = stateAfter([
			{ type: "admit", node: "a" },
			{ type: "start", node: "a", at: 1, harness: "pi" },
		]);
		const graph = compiledGraph({ a: node("a", [], { max_attempts: 1 }), b: node("b", ["a"]), c: node("c") });
		const handle = startGraph(graph, { defaultConcurrency: 2, resolve, run: held.run, initial });
		await held.startedOnce("c");
		held.end("c");
		const outcome = await handle.done;
		expect(outcome.state.nodes.a).toMatchObject({ status: "failed", error: "attempts exhausted (max_attempts 1)" });
		expect(outcome.state.nodes.b.skip).toEqual({ kind: "dependency", node: "a", status: "failed" });
		expect(held.log).toEqual(["start c", "gone c"]);
	});
});
