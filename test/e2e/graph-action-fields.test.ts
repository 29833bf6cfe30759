/**
 * An `agent_graph` field its action does not read is refused, not ignored (docs/graphs.md §Controls), found by the
 * new-user attack: `cancel` with a `node` used to cancel the whole run, and `list`, `pause` or `run` dropped a
 * field silently. The check comes before any run is looked at, so a refused control changes nothing.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";

let env: E2eEnv;
beforeAll(async () => {
	env = await startE2eEnv({ mode: "rpc" });
});
afterAll(async () => env?.close());

const call = async (args: Record<string, unknown>) => {
	const { result, isError } = await env.session.callTool("agent_graph", args);
	return { isError, text: textOf(result) };
};

describe("agent_graph fields an action does not read", () => {
	it("cancel and pause with a node are refused, naming the field, and nothing is changed", async () => {
		for (const action of ["cancel", "pause"]) {
			const answer = await call({ action, run_id: randomUUID(), node: "b" });
			expect(answer.isError).toBe(true);
			expect(answer.text).toBe(
				`agent_graph: action "${action}" does not use node (it reads run_id); nothing was changed`,
			);
		}
	});

	it("list with a run_id and run with a run_id or node are refused; run starts nothing", async () => {
		expect((await call({ action: "list", run_id: randomUUID() })).text).toBe(
			'agent_graph: action "list" does not use run_id (it reads no other field); nothing was changed',
		);
		const run = await call({ graph: { nodes: { a: { kind: "command", run: ["true"] } } }, run_id: randomUUID() });
		expect(run.isError).toBe(true);
		expect(run.text).toContain("nothing was started");
		expect(run.text).toContain(
			'action "run" does not use run_id (it reads graph, name, inputs, background, agentScope)',
		);
	});

	it("skip with its node and resume with background pass the check (they read them)", async () => {
		const skip = await call({ action: "skip", run_id: randomUUID(), node: "b" });
		expect(skip.text).not.toContain("does not use");
		const resume = await call({ action: "resume", run_id: randomUUID(), background: true });
		expect(resume.text).not.toContain("does not use");
	});
});
