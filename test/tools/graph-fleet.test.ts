/**
 * `x` on a graph node in the fleet view (src/ui/fleet-view.ts, src/tools/fleet-command.ts,
 * src/tools/graph-fleet.ts): the node is skipped through its run's controls (docs/graphs.md §Controls), as
 * `/graph skip <run_id> <node>` does, in a foreground and in a background run — not only asked to end its
 * child's turn, nor its whole job cancelled. A real engine runs the graph; the runner stands in for the
 * launch layer so the test decides when each child ends.
 */
import type { Theme } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { ChildRun } from "../../src/core/child-run.ts";
import type { FleetOrigin } from "../../src/core/fleet.ts";
import { startGraph } from "../../src/graph/engine.ts";
import type { PreparedGraph } from "../../src/graph/prepare.ts";
import { Fleet } from "../../src/runs/fleet.ts";
import { JobRegistry } from "../../src/runs/jobs.ts";
import { LiveInputs } from "../../src/runs/live-inputs.ts";
import { fleetActions } from "../../src/tools/fleet-command.ts";
import { fleetGraphNodes } from "../../src/tools/graph-fleet.ts";
import { nodeKeysByPosition, nodeRuns } from "../../src/tools/graph-run.ts";
import { GraphRuns } from "../../src/tools/graph-runs.ts";
import { FleetView } from "../../src/ui/fleet-view.ts";
import { compiledGraph } from "../support/graphs.ts";
import { heldRunner, waitFor } from "../support/held-runner.ts";
import { launchSpec } from "../support/launch-spec.ts";

const plain = { fg: (_c: string, text: string) => text, bold: (text: string) => text } as unknown as Theme;
const DOWN = "\x1b[B";
const RUN = "5b0c2f4e-8d1a-4c3b-9e6f-0a1b2c3d4e5f";

/** Two independent nodes `a` and `b` running in a real engine, listed in the fleet as `origin` lists them. */
function graphInFleet(origin: FleetOrigin) {
	const held = heldRunner();
	const compiled = compiledGraph({ a: { agent_type: "pi", task: "a" }, b: { agent_type: "pi", task: "b" } });
	const prepared: PreparedGraph = { name: "g", compiled, origin: { source: "inline" }, subgraphs: new Map() };
	let children: ReadonlyMap<string, ChildRun> = new Map();
	const handle = startGraph(compiled, {
		defaultConcurrency: 2,
		resolve: async (_key, task) => launchSpec({ harness: "pi", cwd: "/work", task }),
		run: held.run,
		onUpdate: (_state, live) => {
			children = live;
		},
	});
	const runs = new GraphRuns();
	runs.add({ runId: RUN, name: "g", sessionId: "s", handle, freeze: () => {} });
	const fleet = new Fleet();
	fleet.track({
		id: "call-1",
		origin,
		label: 'graph "g"',
		children: () => nodeRuns(prepared, children),
		graphNode: fleetGraphNodes(runs, RUN, () => nodeKeysByPosition(prepared, children)),
	});
	const jobs = new JobRegistry({ error: () => {} });
	const actions = fleetActions({ fleet, jobs, inputs: new LiveInputs(), adapters: {} });
	const view = new FleetView(
		() => fleet.entries(),
		actions,
		plain,
		{ requestRender: () => {}, rows: () => 40 },
		() => {},
	);
	const keys = (...data: string[]) => {
		for (const key of data) view.handleInput(key);
	};
	const screen = () => view.render(200).join("\n");
	return { held, handle, view, keys, screen };
}

describe("x on a graph node in the fleet view", () => {
	it.each<FleetOrigin>(["graph", "background"])(
		"skips the selected node through its run's controls in a %s run, killing its child, and leaves the other node running",
		async (origin) => {
			const { held, handle, view, keys, screen } = graphInFleet(origin);
			await held.startedOnce("a");
			await held.startedOnce("b");
			keys(DOWN, "x");
			expect(screen()).toContain(`skip node "b" of graph run ${RUN} (a running node is killed)? (y/n)`);
			keys("y");
			await waitFor(() => handle.state().nodes.b.status === "skipped");
			expect(handle.state().nodes.b.skip).toEqual({ kind: "request" });
			expect(held.log).toContain("killed b");
			expect(held.log).not.toContain("killed a");
			expect(handle.state().nodes.a.status).toBe("running");
			await waitFor(() => screen().includes("skip accepted"));
			expect(screen()).toContain(`node "b" of graph run ${RUN}: skip accepted`);
			held.end("a");
			expect((await handle.done).state.nodes.a.status).toBe("completed");
			view.dispose();
		},
	);

	it("shows the run's refusal for a node that has settled, and changes nothing", async () => {
		const { held, handle, view, keys, screen } = graphInFleet("graph");
		await held.startedOnce("a");
		await held.startedOnce("b");
		held.end("a");
		await waitFor(() => handle.state().nodes.a.status === "completed");
		const before = JSON.stringify(handle.state());
		keys("x", "y");
		await waitFor(() => screen().includes("not skipped"));
		expect(screen()).toContain('node "a" not skipped: node "a" is completed');
		expect(JSON.stringify(handle.state())).toBe(before);
		held.end("b");
		await handle.done;
		view.dispose();
	});
});
