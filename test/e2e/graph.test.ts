/**
 * The `agent_graph` tool through the real stack: Pi's SDK session calls the tool, each node runs as a real
 * pi child against the fake model server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { GraphDetails } from "../../src/core/graph-details.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({ agents: { scout: { description: "Scouts", body: "You scout." } } });
});
afterAll(async () => env?.close());

describe("agent_graph", () => {
	it("runs a two-node pi graph in dependency order and reports every node", async () => {
		env.server.scriptFor("graph thin: first", { text: "first done", usage: { input: 10, output: 2 } });
		env.server.scriptFor("graph thin: second", { text: "second done", usage: { input: 20, output: 3 } });
		const { result, isError } = await env.session.callTool<GraphDetails>("agent_graph", {
			graph: {
				name: "thin",
				nodes: {
					first: { agent: "scout", task: "graph thin: first" },
					second: { agent_type: "pi", task: "graph thin: second", depends_on: ["first"] },
				},
			},
		});
		const text = textOf(result);
		expect(isError, text).toBe(false);
		expect(result.details.nodes.map((node) => [node.key, node.status, node.harness])).toEqual([
			["first", "completed", "pi"],
			["second", "completed", "pi"],
		]);
		for (const node of result.details.nodes) expect(node.nativeSessionId).toBeDefined();
		expect(text).toMatch(/^agent_graph "thin": 2\/2 nodes completed/);
		expect(text).toContain("- first: completed · pi scout");
		const first = env.server.requests.findIndex((r) => r.lastUserText === "graph thin: first");
		const second = env.server.requests.findIndex((r) => r.lastUserText === "graph thin: second");
		expect(first).toBeGreaterThanOrEqual(0);
		expect(second).toBeGreaterThan(first);
		expect(env.server.requests[first].endedAt).toBeLessThanOrEqual(env.server.requests[second].receivedAt);
		expect(result.usage).toMatchObject({ input: 30, output: 5 });
	});

	it("gives every node's native session id, so subagent resumes a node's conversation", async () => {
		env.server.scriptFor("graph resume: start", { text: "started" });
		const { result } = await env.session.callTool<GraphDetails>("agent_graph", {
			graph: { nodes: { only: { agent: "scout", task: "graph resume: start" } } },
		});
		const id = result.details.nodes[0].nativeSessionId as string;
		expect(textOf(result)).toContain(`session: ${id} (resume with resume_session_id)`);
		env.server.scriptFor("graph resume: next", { text: "resumed" });
		const resumed = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: id,
			task: "graph resume: next",
		});
		expect(resumed.isError, textOf(resumed.result)).toBe(false);
		expect(resumed.result.details.children[0].result?.nativeSessionId).toBe(id);
		const request = env.server.requests.find((r) => r.lastUserText === "graph resume: next");
		expect(request?.userTexts).toContain("graph resume: start");
		// The agent's own instructions came back with the recorded launch.
		expect(request?.systemPrompt).toContain("You scout.");
	});
});
