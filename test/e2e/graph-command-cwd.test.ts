/**
 * A command gate's cwd is pre-flighted with the graph (docs/graphs.md §Validation), found by the new-user attack:
 * a missing one used to let the run start (and an agent node run, a model request) before the gate failed at
 * dispatch. Now the graph is refused before anything runs, naming the node, as an agent node's missing cwd is.
 */
/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: graph templates */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";

let env: E2eEnv;
beforeAll(async () => {
	env = await startE2eEnv({ agents: { echo: { description: "Answers", body: "You answer." } }, mode: "rpc" });
});
afterAll(async () => env?.close());

async function refusedGraph(gateCwd: string): Promise<string> {
	const before = env.server.requests.length;
	const { result, isError } = await env.session.callTool("agent_graph", {
		graph: {
			nodes: {
				a: { agent: "echo", task: "costly first step" },
				b: { kind: "command", run: ["true"], cwd: gateCwd, depends_on: ["a"] },
			},
		},
	});
	const text = textOf(result);
	expect(isError, text).toBe(true);
	expect(text).toContain("agent_graph: nothing was started.");
	expect(env.server.requests.length, "no model request was made").toBe(before);
	return text;
}

describe("a command gate's cwd", () => {
	it("that does not exist refuses the graph before anything runs, naming the node", async () => {
		expect(await refusedGraph("/nonexistent/gate-dir")).toContain(
			'node "b": cwd: /nonexistent/gate-dir does not exist',
		);
	});

	it("written with a ValueRef refuses the graph saying a cwd is taken as written, not filled in", async () => {
		expect(await refusedGraph("${inputs.d}")).toContain(
			`node "b": cwd: ${join(env.workDir, "${inputs.d}")} does not exist (taken as written: ValueRefs, templates and environment variables are not filled in here)`,
		);
	});

	it("that is a file refuses the graph before anything runs, naming the node", async () => {
		const file = join(env.workDir, "not-a-dir");
		writeFileSync(file, "");
		expect(await refusedGraph(file)).toContain('node "b": cwd: ');
	});
});
