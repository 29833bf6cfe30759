/**
 * `agent_graph` refuses a graph before anything runs, with every problem at once, each naming the node and
 * the field; the fake model's request log proves no child started.
 */
/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: graph templates are written with ${…} placeholders. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GraphDetails } from "../../src/core/graph-details.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";
import { missingFrom } from "../support/problems.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({ agents: { scout: { description: "Scouts", body: "You scout." } } });
});
afterAll(async () => env?.close());

const answer = { type: "object", properties: { verdict: { type: "string" } }, required: ["verdict"] };

/** Calls the tool and returns its refusal text; fails when it ran anything or was not refused. */
async function refusal(args: Record<string, unknown>): Promise<string> {
	const before = env.server.requests.length;
	const { result, isError } = await env.session.callTool<GraphDetails>("agent_graph", args);
	const text = textOf(result);
	expect(isError, text).toBe(true);
	expect(text).toMatch(/^agent_graph: nothing was started\./);
	expect(env.server.requests.length).toBe(before);
	return text;
}

/** Calls agent_graph from a session in `project`, which Pi does not trust; the session is disposed after. */
async function callInUntrusted(project: string, args: Record<string, unknown>) {
	const session = await createExtensionSession({ cwd: project, agentDir: env.home.agentDir, projectTrusted: false });
	try {
		return await session.callTool<GraphDetails>("agent_graph", args);
	} finally {
		session.dispose();
	}
}

describe("agent_graph validation", () => {
	it("refuses unknown keys and wrong types naming node and field, with zero child requests", async () => {
		const text = await refusal({
			graph: {
				nodes: {
					a: { agent: "scout", task: "t", depend_on: ["b"] },
					b: { kind: "loop", task: "t" },
					c: { agent: "scout", task: "", allowed_tools: "read" },
				},
				limits: { max_usd: -1, burst: 2 },
			},
		});
		expect(
			missingFrom(text, [
				'node "a": depend_on: unknown key "depend_on"',
				'node "b": kind: unknown node kind "loop"; known: agent, fanout, feedback, graph, command, human',
				'node "c": task: must not be empty',
				'node "c": allowed_tools: expected a list of strings, got string',
				"limits.max_usd:",
				'limits.burst: unknown key "burst"',
			]),
		).toEqual([]);
	});

	it("refuses dangling, self and cyclic depends_on, naming the cycle, with zero child requests", async () => {
		const text = await refusal({
			graph: {
				nodes: {
					a: { agent: "scout", task: "t", depends_on: ["ghost", "a"] },
					b: { agent: "scout", task: "t", depends_on: ["c"] },
					c: { agent: "scout", task: "t", depends_on: ["b"] },
				},
			},
		});
		expect(text).toContain('node "a": depends_on: unknown node "ghost"');
		expect(text).toContain('node "a": depends_on: a node cannot depend on itself');
		expect(text).toMatch(/node "[bc]": depends_on: cycle (b → c → b|c → b → c)/);
	});

	it("refuses malformed and unmapped placeholders and ValueRefs that read prose, a non-dependency or an undeclared path", async () => {
		const text = await refusal({
			graph: {
				inputs: { type: "object", properties: { path: { type: "string" } } },
				nodes: {
					plan: { agent: "scout", task: "plan ${inputs.path}", output_schema: answer },
					prose: { agent: "scout", task: "t" },
					other: { agent: "scout", task: "t", output_schema: answer },
					use: {
						agent: "scout",
						depends_on: ["plan", "prose"],
						task: "a ${inputs.paht} b ${nodes.plan.output.verdcit} c ${nodes.prose.output.x} d ${nodes.other.output.verdict} e ${nodes.plan.outptu} f ${inputs.path",
						when: { ref: "${nodes.prose.output.ok}", equals: true },
					},
				},
				outputs: { v: "${nodes.nobody.output.x}" },
			},
		});
		expect(
			missingFrom(text, [
				'node "use": task: ${inputs.paht}: the inputs schema does not declare inputs.paht',
				'node "use": task: ${nodes.plan.output.verdcit}: the output_schema of node "plan" does not declare output.verdcit',
				'node "use": task: ${nodes.prose.output.x}: node "prose" has no output_schema',
				'node "use": task: ${nodes.other.output.verdict}: node "other" is not a dependency of "use"',
				'node "use": task: ${nodes.plan.outptu} is not a ValueRef',
				'node "use": task: "${inputs.path" is not closed',
				'node "use": when: ${nodes.prose.output.ok}: node "prose" has no output_schema',
				'outputs.v: ${nodes.nobody.output.x}: unknown node "nobody"',
			]),
		).toEqual([]);
	});

	it("lists the other nodes' depends_on, template and pre-flight problems while a node is refused for its shape", async () => {
		const text = await refusal({
			graph: {
				inputs: { type: "object", properties: { path: { type: "string" } } },
				nodes: {
					bad: { kind: "loop", task: "t", depends_on: ["plan"] },
					plan: { agent: "scout", task: "t", output_schema: answer },
					a: { agent: "scout", task: "${nodes.bad.output.x} ${inputs.paht}", depends_on: ["bad", "ghost"] },
					use: { agent: "scout", task: "${nodes.plan.output.verdict} ${nodes.a.output.y}", depends_on: ["bad"] },
					b: { agent: "nobody", task: "t", depends_on: ["c"] },
					c: { agent: "scout", task: "t", depends_on: ["b"] },
				},
			},
		});
		expect(
			missingFrom(text, [
				'node "bad": kind: unknown node kind "loop"',
				'node "a": depends_on: unknown node "ghost"',
				'node "a": task: ${inputs.paht}: the inputs schema does not declare inputs.paht',
				'node "use": task: ${nodes.a.output.y}: node "a" is not a dependency of "use"',
				'node "b": unknown agent "nobody"',
			]),
		).toEqual([]);
		expect(text).toMatch(/node "[bc]": depends_on: cycle (b → c → b|c → b → c)/);
		// The refused node is there for the others (no false "unknown node"), its output not known; "plan" is an
		// ancestor of "use" through it, although the graph has a cycle elsewhere.
		expect(text).not.toContain('unknown node "bad"');
		expect(text).not.toContain("nodes.bad");
		expect(text.split("\n").filter((line) => line.includes('node "bad"'))).toHaveLength(1);
		expect(text).not.toContain("nodes.plan");
	});

	it("lists the nodes' problems while a top-level field other than inputs is refused for its shape", async () => {
		const text = await refusal({
			graph: {
				name: 7,
				limits: { concurrency: "many" },
				colour: "red",
				outputs: { summary: 3 },
				nodes: {
					a: { agent: "nobody", task: "t", depends_on: ["ghost"] },
					b: { agent: "scout", task: "${nodes.a.output.x}" },
				},
			},
		});
		expect(
			missingFrom(text, [
				"name: ",
				"limits.concurrency: ",
				'colour: unknown key "colour"',
				"outputs.summary: expected a template string",
				'node "a": depends_on: unknown node "ghost"',
				'node "b": task: ${nodes.a.output.x}: node "a" is not a dependency of "b"',
				'node "a": unknown agent "nobody"',
			]),
		).toEqual([]);
	});

	it("checks no ${inputs…} reference against an inputs schema that is refused, and checks the rest", async () => {
		const invalid = await refusal({
			graph: { inputs: { type: 5 }, nodes: { a: { agent: "scout", task: "${inputs.path}", depends_on: ["ghost"] } } },
		});
		expect(missingFrom(invalid, ["graph.inputs: not a valid JSON Schema", 'unknown node "ghost"'])).toEqual([]);
		expect(invalid).not.toContain("inputs.path");
		// Not an object at all: nothing past the shape is read, as every reference would be judged against it.
		const shapeless = await refusal({
			graph: { inputs: 5, nodes: { a: { agent: "scout", task: "${inputs.path}", depends_on: ["ghost"] } } },
		});
		expect(shapeless).toContain("inputs");
		expect(shapeless).not.toContain("ghost");
	});

	it("names a saved graph it cannot read once, and checks what reads that node's output no further", async () => {
		const text = await refusal({
			graph: {
				nodes: {
					sub: { kind: "graph", graph: "nope" },
					use: { agent: "scout", task: "${nodes.sub.output.x}", depends_on: ["sub", "ghost"] },
				},
			},
		});
		expect(missingFrom(text, ['unknown saved graph "nope"', 'node "use": depends_on: unknown node "ghost"'])).toEqual(
			[],
		);
		expect(text).not.toContain("is not loaded");
		expect(text).not.toContain("nodes.sub.output.x");
	});

	it("checks each ValueRef against its node's dependencies in a graph with a cycle elsewhere", async () => {
		const text = await refusal({
			graph: {
				nodes: {
					plan: { agent: "scout", task: "t", output_schema: answer },
					use: { agent: "scout", task: "${nodes.plan.output.verdict}", depends_on: ["plan"] },
					b: { agent: "scout", task: "t", depends_on: ["c"] },
					c: { agent: "scout", task: "t", depends_on: ["b"] },
				},
			},
		});
		expect(text).toMatch(/node "[bc]": depends_on: cycle/);
		expect(text).not.toContain("is not a dependency");
	});

	it("refuses inputs that fail the graph's inputs schema, with zero child requests", async () => {
		const text = await refusal({
			graph: {
				inputs: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
				nodes: { a: { agent: "scout", task: "${inputs.path}" } },
			},
			inputs: { path: 3 },
		});
		expect(text).toContain("inputs: do not match the graph's inputs schema: inputs/path must be string");
	});

	it("pre-flights every node through the launch layer: agents, roster entries, resources, tools, harness options", async () => {
		const text = await refusal({
			graph: {
				nodes: {
					a: { agent: "nobody", task: "t" },
					b: { roster_entry: "ghost", task: "t" },
					c: { agent_type: "pi", task: "t", resources: { packages: ["npm:x"] } },
					d: { agent_type: "pi", task: "t", allowed_tools: ["read write"] },
					e: { agent_type: "codex", task: "t", roster_file: "roster.json" },
					f: { agent: "scout", roster_entry: "r", task: "t" },
					g: { agent_type: "pi", task: "t", output_schema: { type: "object", propertes: {} } },
				},
			},
		});
		expect(
			missingFrom(text, [
				'node "a": unknown agent "nobody"',
				'node "b": unknown roster entry "ghost"',
				'node "c": resources.packages: must be empty',
				'node "d": allowed_tools: "read write" is not a tool name',
				'node "e": roster_file',
				'node "f": give exactly one of agent, roster_entry or agent_type (or resume_session_id alone); got agent and roster_entry',
				'node "g": output_schema: not a valid JSON Schema',
			]),
		).toEqual([]);
		// The harness's own validation, as for a subagent child.
		const harness = await refusal({
			graph: { nodes: { h: { agent_type: "pi", task: "t", resources: { plugins: [env.workDir] } } } },
		});
		expect(harness).toMatch(/node "h": .*plugins/);
	});

	it("refuses an untrusted project graph without running it, and names unknown saved graphs", async () => {
		const project = join(env.workDir, "proj");
		mkdirSync(join(project, ".pi", "graphs"), { recursive: true });
		writeFileSync(
			join(project, ".pi", "graphs", "local.json"),
			JSON.stringify({ nodes: { a: { agent_type: "pi", task: "project graph ran" } } }),
		);
		const unknown = await refusal({ name: "missing" });
		expect(unknown).toContain('name: unknown saved graph "missing" in scope "user"');
		const { result, isError } = await callInUntrusted(project, { name: "local", agentScope: "both" });
		expect(isError).toBe(true);
		expect(textOf(result)).toContain('refused to run project graph "local"');
		expect(env.server.requests.some((r) => r.lastUserText === "project graph ran")).toBe(false);
	});

	it("reads nothing an untrusted project graph names while it is refused for its shape: only its own problems are listed", async () => {
		const project = join(env.workDir, "probing");
		mkdirSync(join(project, ".pi", "graphs"), { recursive: true });
		const outside = join(env.home.dir, "outside-roster.json");
		writeFileSync(outside, JSON.stringify({ roster: { enabled: true, roles: [{ name: "SECRET-VALUE-123" }] } }));
		const nodes = {
			bad: { kind: "loop" },
			r: { agent_type: "pi", task: "t", roster_file: outside },
			e: { agent_type: "pi", task: "t", resources: { extensions: ["/nonexistent/x.ts"] } },
		};
		writeFileSync(join(project, ".pi", "graphs", "probe.json"), JSON.stringify({ nodes }));
		const { result, isError } = await callInUntrusted(project, { name: "probe", agentScope: "project" });
		expect(isError).toBe(true);
		const text = textOf(result);
		expect(text).toContain('node "bad": kind: unknown node kind "loop"');
		expect(text).not.toContain("SECRET-VALUE-123");
		expect(text).not.toContain("/nonexistent/x.ts");
		// Refused for choosing them (they load code), not for what they hold: neither file is read.
		expect(text).toContain('node "r": roster_file: a project graph cannot choose a roster file');
		expect(text).toContain('node "e": resources.extensions: a project graph cannot choose extensions');
	});

	it('refuses a project graph that grants its nodes or the children of its coordinators auto_approve: a file cannot grant itself more than the call allows (SECURITY.md "Trust")', async () => {
		const project = join(env.workDir, "escalating");
		mkdirSync(join(project, ".pi", "graphs"), { recursive: true });
		const file = join(project, ".pi", "graphs", "escalate.yaml");
		writeFileSync(
			file,
			[
				"nodes:",
				"  quiet: { agent_type: pi, task: fine }",
				"  loud: { agent_type: codex, auto_approve: true, task: escalated }",
				"  items: { kind: fanout, over: '${inputs.list}', max_items: 3, node: { agent_type: codex, auto_approve: true, task: 'x ${item}' } }",
				"  loop: { kind: feedback, max_iterations: 2, worker: { agent_type: pi, auto_approve: true, task: w }, evaluator: { agent_type: pi, task: e, output_schema: { type: object, properties: { decision: { enum: [pass, revise] }, feedback: { type: string } }, required: [decision, feedback] } } }",
				"",
			].join("\n"),
		);
		const { confirmingUi } = await import("../support/extension-session.ts");
		const asked: string[] = [];
		const ui = confirmingUi(async (_title, message) => asked.push(message) > 0);
		const session = await createExtensionSession({
			cwd: project,
			agentDir: env.home.agentDir,
			projectTrusted: false,
			uiContext: ui,
		});
		try {
			const before = env.server.requests.length;
			const { result, isError } = await session.callTool<GraphDetails>("agent_graph", {
				name: "escalate",
				agentScope: "project",
			});
			const text = textOf(result);
			// Refused whatever the answer: no one is asked to trust it.
			expect(asked).toEqual([]);
			expect(isError, text).toBe(true);
			expect(text).toContain(`${file}: node "loud": auto_approve: a project graph cannot grant auto_approve`);
			// The children of coordinators are covered too: a fan-out's item template, a feedback node's roles.
			expect(text).toContain('node "items": node: auto_approve: a project graph cannot grant auto_approve');
			expect(text).toContain('node "loop": worker: auto_approve: a project graph cannot grant auto_approve');
			expect(text).not.toContain('node "quiet"');
			expect(env.server.requests.length).toBe(before);
		} finally {
			session.dispose();
		}
	});
});
