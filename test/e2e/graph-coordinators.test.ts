/**
 * The coordinator node kinds through real pi children against the fake model (docs/graphs.md §Fan-out,
 * §Feedback loops, §Subgraphs, §Command gates): a fan-out's items under its concurrency (gate-proven) and
 * its max_items, a feedback loop's rounds and its bound, saved graphs inside graphs and their cycles, and
 * command gates that fail, with their dependents skipped, or come from an untrusted project.
 */
/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: graph templates are written with ${…} placeholders. */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GraphDetails } from "../../src/core/graph-details.ts";
import { graphsRoot } from "../../src/graph/run-dir.ts";
import type { RunSnapshot } from "../../src/graph/run-store.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { confirmingUi, createExtensionSession } from "../support/extension-session.ts";
import type { RecordedRequest } from "../support/fake-model/index.ts";
import { Gate } from "../support/gate.ts";
import { objectSchema } from "../support/graphs.ts";
import { peakInFlight } from "../support/request-log.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({ agents: { scout: { description: "Scouts", body: "You scout." } } });
});
afterAll(async () => env?.close());

const object = objectSchema;

/** A graph inputs schema with one list of strings, `list`, for a fan-out `over: "${inputs.list}"`. */
const LIST_INPUTS = { type: "object", properties: { list: { type: "array", items: { type: "string" } } } };
const submit = (args: Record<string, unknown>) => ({ toolCalls: [{ name: "submit_result", arguments: args }] });
/** A pi child's first request for `prefix` (not the follow-up after its structured result). */
const firstTurn = (request: RecordedRequest, prefix: string) =>
	request.lastUserText.startsWith(prefix) && request.lastToolOutput === undefined;

async function runGraph(args: Record<string, unknown>, session = env.session) {
	const outcome = await session.callTool<GraphDetails>("agent_graph", args);
	const text = textOf(outcome.result);
	const nodes = outcome.result.details.nodes;
	const states = Object.fromEntries(
		nodes.map((node) => [node.key, node.status === "skipped" ? `skipped (${node.reason})` : node.status]),
	);
	return { ...outcome, text, states, nodes };
}

function writeUserGraph(name: string, graph: unknown): string {
	const file = join(env.home.agentDir, "graphs", `${name}.json`);
	mkdirSync(join(env.home.agentDir, "graphs"), { recursive: true });
	writeFileSync(file, JSON.stringify(graph));
	return file;
}

const scanSchema = object({ items: { type: "array", items: object({ name: { type: "string" } }) } });

describe("fanout nodes", () => {
	it("fans out over a 5-item structured output: 5 children, never more than 2 at once (gate-proven), outputs in item order", async () => {
		const names = ["ant", "bee", "cat", "dog", "eel"];
		env.server.scriptFor("fan5 scan", submit({ items: names.map((name) => ({ name })) }));
		const gate = new Gate();
		// The follow-up turn after a structured result is answered at once; only first turns are held.
		const unfollow = env.server.route((r) =>
			r.lastUserText.startsWith("fan5 item") && r.lastToolOutput !== undefined ? { text: "ok" } : undefined,
		);
		const unroute = env.server.route(gate.rule("fan5 item", (r) => submit({ done: r.lastUserText })));
		try {
			const before = env.server.requests.length;
			const run = runGraph({
				graph: {
					nodes: {
						scan: { agent: "scout", task: "fan5 scan", output_schema: scanSchema },
						each: {
							kind: "fanout",
							depends_on: ["scan"],
							over: "${nodes.scan.output.items}",
							concurrency: 2,
							node: {
								agent: "scout",
								task: "fan5 item ${index}: ${item.name}",
								output_schema: object({ done: { type: "string" } }),
							},
						},
					},
					outputs: { all: "${nodes.each.output}" },
				},
			});
			for (let released = 0; released < 5; released++) {
				await gate.waitHeld(Math.min(2, 5 - released));
				expect(gate.held).toBeLessThanOrEqual(2);
				gate.releaseOne();
			}
			const { isError, text, result, nodes } = await run;
			expect(isError, text).toBe(false);
			expect(result.details.outputs).toEqual({
				all: names.map((name, index) => ({ done: `fan5 item ${index}: ${name}` })),
			});
			const items = env.server.requests.slice(before).filter((r) => firstTurn(r, "fan5 item"));
			expect(items).toHaveLength(5);
			expect(peakInFlight(items)).toBeLessThanOrEqual(2);
			const each = nodes.find((node) => node.key === "each");
			expect(each?.progress).toBe("5/5 ✓");
			expect(each?.parts?.map((part) => [part.name, part.status])).toEqual(
				names.map((_name, index) => [`item ${index}`, "completed"]),
			);
			for (const part of each?.parts ?? []) expect(part.nativeSessionId).toBeDefined();
			expect(text).toContain("- each: completed · 5/5 ✓");
		} finally {
			unroute();
			unfollow();
		}
	});

	it("fails a fan-out over 30 items with max_items 20 before any item starts, naming the sizes", async () => {
		const before = env.server.requests.length;
		const { states, text } = await runGraph({
			graph: {
				inputs: LIST_INPUTS,
				nodes: {
					each: {
						kind: "fanout",
						over: "${inputs.list}",
						max_items: 20,
						node: { agent: "scout", task: "fan30 item ${item}" },
					},
					after: { agent: "scout", task: "fan30 after", depends_on: ["each"] },
				},
			},
			inputs: { list: Array.from({ length: 30 }, (_v, i) => `n${i}`) },
		});
		expect(states).toEqual({ each: "failed", after: "skipped (dependency each failed)" });
		expect(text).toContain("over: ${inputs.list} has 30 items, above max_items 20; no item was started");
		expect(env.server.requests.slice(before)).toHaveLength(0);
	});
});

describe("fanout items that fail", () => {
	it("keeps null in a failed item's slot with on_item_failure continue, and names the failure", async () => {
		env.server.scriptFor("fanc item b", { error: { status: 400, message: "scripted item failure" } });
		const unroute = env.server.route((r) =>
			r.lastUserText.startsWith("fanc item") && r.lastToolOutput === undefined
				? submit({ v: r.lastUserText })
				: undefined,
		);
		try {
			const { states, result, text } = await runGraph({
				graph: {
					inputs: LIST_INPUTS,
					nodes: {
						each: {
							kind: "fanout",
							over: "${inputs.list}",
							on_item_failure: "continue",
							node: { agent: "scout", task: "fanc item ${item}", output_schema: object({ v: { type: "string" } }) },
						},
					},
					outputs: { all: "${nodes.each.output}" },
				},
				inputs: { list: ["a", "b", "c"] },
			});
			expect(states).toEqual({ each: "completed" });
			expect(result.details.outputs).toEqual({ all: [{ v: "fanc item a" }, null, { v: "fanc item c" }] });
			expect(text).toContain("- each: completed · 2/3 ✓ · 1 ✗");
			expect(text).toContain("1 of 3 items failed: item 1: ");
			expect(text).toMatch(/ {2}- item 1: failed · pi scout .*scripted item failure/);
		} finally {
			unroute();
		}
	});
});

const verdictSchema = object({ decision: { enum: ["pass", "revise"] }, feedback: { type: "string" } });

/** Routes the evaluator's rounds to `verdicts` in order, and answers every worker turn with text. */
function scriptLoop(prefix: string, verdicts: Array<{ decision: string; feedback: string }>) {
	let round = 0;
	return env.server.route((r) => {
		if (r.lastUserText.startsWith(`${prefix} work`)) return { text: `worked ${r.lastUserText}` };
		if (!r.lastUserText.startsWith(`${prefix} judge`)) return undefined;
		if (r.lastToolOutput !== undefined) return { text: "judged" };
		return submit(verdicts[round++]);
	});
}

const loop = (prefix: string, extra: Record<string, unknown> = {}) => ({
	kind: "feedback",
	worker: { agent: "scout", task: `${prefix} work: [\${feedback}]` },
	evaluator: { agent: "scout", task: `${prefix} judge`, output_schema: verdictSchema },
	max_iterations: 5,
	...extra,
});

describe("feedback nodes", () => {
	it("runs revise, revise, pass: exactly 3 worker and 3 evaluator runs, round 3's worker saw round 2's feedback", async () => {
		const unroute = scriptLoop("fb3", [
			{ decision: "revise", feedback: "add tests" },
			{ decision: "revise", feedback: "rename x" },
			{ decision: "pass", feedback: "" },
		]);
		try {
			const before = env.server.requests.length;
			const { isError, text, nodes } = await runGraph({ graph: { nodes: { loop: loop("fb3") } } });
			expect(isError, text).toBe(false);
			const ours = env.server.requests.slice(before);
			const workers = ours.filter((r) => firstTurn(r, "fb3 work")).map((r) => r.lastUserText);
			expect(workers).toEqual(["fb3 work: []", "fb3 work: [add tests]", "fb3 work: [rename x]"]);
			expect(ours.filter((r) => firstTurn(r, "fb3 judge"))).toHaveLength(3);
			const node = nodes[0];
			expect(node.progress).toBe("round 3/5");
			expect(node.parts?.map((part) => part.name)).toEqual([
				"round 1 worker",
				"round 1 evaluator",
				"round 2 worker",
				"round 2 evaluator",
				"round 3 worker",
				"round 3 evaluator",
			]);
			expect(text).toContain("- loop: completed · round 3/5");
		} finally {
			unroute();
		}
	});

	it("ends at max_iterations 2 failed (exhausted), or accepts the last round with accept_last", async () => {
		const revise = { decision: "revise", feedback: "again" };
		const unroute = scriptLoop("fb2", [revise, revise, revise, revise]);
		try {
			const failed = await runGraph({ graph: { nodes: { loop: loop("fb2", { max_iterations: 2 }) } } });
			expect(failed.states).toEqual({ loop: "failed" });
			expect(failed.nodes[0].reason).toBe("exhausted: no pass in 2 rounds (max_iterations)");
			expect(failed.text).toContain("- loop: failed (exhausted)");
			const accepted = await runGraph({
				graph: { nodes: { loop: loop("fb2", { max_iterations: 2, on_exhausted: "accept_last" }) } },
			});
			expect(accepted.states).toEqual({ loop: "completed" });
			expect(accepted.text).toContain("- loop: completed · round 2/2");
			expect(accepted.text).toContain("exhausted: no pass in 2 rounds; accepted the last (on_exhausted: accept_last)");
		} finally {
			unroute();
		}
	});
});

describe("rounds and items a stop keeps from starting", () => {
	it("records every round a budget stop kept from starting as skipped with zero attempts", async () => {
		const unroute = env.server.route((r) =>
			r.lastUserText.startsWith("fbstop work") ? { text: "costly", usage: { input: 400, output: 100 } } : undefined,
		);
		try {
			const before = env.server.requests.length;
			const { states, nodes, result } = await runGraph({
				graph: { nodes: { loop: loop("fbstop", { max_iterations: 2 }) }, limits: { max_tokens: 300 } },
			});
			expect(states).toEqual({ loop: "skipped (budget: max_tokens)" });
			expect(result.details.budgetStop?.budget).toBe("max_tokens");
			expect(nodes[0].parts?.map((part) => [part.name, part.status, part.attempts])).toEqual([
				["round 1 worker", "completed", 1],
				["round 1 evaluator", "skipped", 0],
				["round 2 worker", "skipped", 0],
				["round 2 evaluator", "skipped", 0],
			]);
			expect(env.server.requests.slice(before).some((r) => r.lastUserText.startsWith("fbstop judge"))).toBe(false);
		} finally {
			unroute();
		}
	});
});

describe("graph nodes", () => {
	it("refuses a subgraph cycle a → b → a before anything runs, naming the cycle", async () => {
		const files = [
			writeUserGraph("cyc-a", { nodes: { inner: { kind: "graph", graph: "cyc-b" } } }),
			writeUserGraph("cyc-b", { nodes: { back: { kind: "graph", graph: "cyc-a" } } }),
		];
		try {
			const before = env.server.requests.length;
			const { isError, text } = await runGraph({ name: "cyc-a" });
			expect(isError).toBe(true);
			expect(text).toMatch(/^agent_graph: nothing was started\./);
			expect(text).toContain("graph: cycle cyc-a → cyc-b → cyc-a: a saved graph cannot contain itself");
			expect(env.server.requests.length).toBe(before);
		} finally {
			for (const file of files) rmSync(file);
		}
	});

	it("runs a saved graph inside a graph with its inputs; its outputs are the node's output", async () => {
		const file = writeUserGraph("sub-say", {
			inputs: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
			nodes: {
				say: { agent: "scout", task: "sub say ${inputs.topic}", output_schema: object({ line: { type: "string" } }) },
			},
			outputs: { said: "${nodes.say.output.line}" },
		});
		env.server.scriptFor("sub say", submit({ line: "said it" }));
		try {
			const { isError, text, states, result } = await runGraph({
				graph: {
					inputs: { type: "object", properties: { t: { type: "string" } }, required: ["t"] },
					nodes: {
						inner: { kind: "graph", graph: "sub-say", inputs: { topic: "${inputs.t} now" } },
						after: { agent: "scout", depends_on: ["inner"], task: "sub after: ${nodes.inner.output.said}" },
					},
					outputs: { said: "${nodes.inner.output.said}" },
				},
				inputs: { t: "rust" },
			});
			expect(isError, text).toBe(false);
			expect(states).toEqual({ "inner/say": "completed", inner: "completed", after: "completed" });
			expect(result.details.outputs).toEqual({ said: "said it" });
			expect(env.server.requests.some((r) => r.lastUserText === "sub say rust now")).toBe(true);
			expect(env.server.requests.some((r) => r.lastUserText === "sub after: said it")).toBe(true);
		} finally {
			rmSync(file);
		}
	});
});

describe("graph nodes in the parent's limits", () => {
	it("counts a subgraph's nodes in the parent's max_nodes_started: what is over it is skipped (budget)", async () => {
		const file = writeUserGraph("sub-two", {
			nodes: {
				one: { kind: "command", run: ["echo", "one"] },
				two: { kind: "command", run: ["echo", "two"], depends_on: ["one"] },
			},
			outputs: { last: "${nodes.two.output.stdout_tail}" },
		});
		try {
			const { states, result } = await runGraph({
				graph: { nodes: { inner: { kind: "graph", graph: "sub-two" } }, limits: { max_nodes_started: 1 } },
			});
			expect(states).toEqual({
				"inner/one": "completed",
				"inner/two": "skipped (budget: max_nodes_started)",
				inner: "skipped (budget: max_nodes_started)",
			});
			expect(result.details.budgetStop).toEqual({ budget: "max_nodes_started", limit: 1, spent: 1 });
		} finally {
			rmSync(file);
		}
	});
});

describe("command gates", () => {
	it("fails a command gate whose test command fails, with the exit code and the output tail; its dependents are skipped", async () => {
		const script = "console.log('ran 3 tests'); console.error('1 failing: adds numbers'); process.exit(3)";
		const before = env.server.requests.length;
		const { states, text, nodes } = await runGraph({
			graph: {
				nodes: {
					verify: { kind: "command", run: [process.execPath, "-e", script] },
					review: { agent: "scout", task: "cmd review", depends_on: ["verify"] },
					passes: { kind: "command", run: [process.execPath, "-e", "console.log('fine')"] },
				},
				outputs: { ok: "${nodes.passes.output.stdout_tail}" },
			},
		});
		expect(states).toEqual({ verify: "failed", review: "skipped (dependency verify failed)", passes: "completed" });
		const verify = nodes.find((node) => node.key === "verify");
		expect(verify?.reason).toContain("exit code 3");
		expect(verify?.reason).toContain("1 failing: adds numbers");
		expect(text).toContain(`- verify: failed · $ ${process.execPath} -e`);
		expect(text).toContain("exit code 3; output tail: 1 failing: adds numbers");
		expect(text).toContain("- passes: completed · $ ");
		expect(text).toContain('outputs: {"ok":"fine\\n"}');
		expect(env.server.requests.slice(before).some((r) => r.lastUserText === "cmd review")).toBe(false);
	});

	it("kills a command gate at its timeout_ms, process group and all, and fails the node saying so", async () => {
		const marker = join(env.workDir, "cmd-timeout-pid");
		const script = `require("fs").writeFileSync(${JSON.stringify(marker)}, String(process.pid)); setInterval(() => {}, 1000)`;
		const { states, nodes } = await runGraph({
			graph: { nodes: { hangs: { kind: "command", run: [process.execPath, "-e", script], timeout_ms: 1000 } } },
		});
		expect(states).toEqual({ hangs: "failed" });
		expect(nodes[0].reason).toContain("timed out after 1000 ms");
		const pid = Number(readFileSync(marker, "utf8"));
		expect(() => process.kill(pid, 0)).toThrow();
		rmSync(marker);
	});

	it("asks about a project graph naming the commands of each user graph it runs as a subgraph, and runs none when declined", async () => {
		const marker = join(env.home.dir, "deployed");
		const push = [process.execPath, "-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, process.argv[1])`];
		mkdirSync(join(env.home.agentDir, "graphs"), { recursive: true });
		// The user's own graph: no gate of its own, but the project graph below chooses its input.
		writeFileSync(
			join(env.home.agentDir, "graphs", "deploy.json"),
			JSON.stringify({
				inputs: { type: "object", properties: { target: { type: "string" } }, required: ["target"] },
				nodes: { push: { kind: "command", run: [...push, "${inputs.target}"] } },
			}),
		);
		const project = join(env.workDir, "subgraph-consent");
		const lint = join(project, ".pi", "graphs", "lint.json");
		mkdirSync(join(project, ".pi", "graphs"), { recursive: true });
		writeFileSync(
			lint,
			JSON.stringify({ nodes: { lint: { kind: "graph", graph: "deploy", inputs: { target: "attacker-host" } } } }),
		);
		const asked: string[] = [];
		const ui = confirmingUi(async (_title, message) => asked.push(message) < 0);
		const session = await createExtensionSession({
			cwd: project,
			agentDir: env.home.agentDir,
			projectTrusted: false,
			uiContext: ui,
		});
		try {
			const { isError, text } = await runGraph({ name: "lint", agentScope: "both" }, session);
			expect(asked).toHaveLength(1);
			expect(asked[0]).toContain(`project graph "lint" (${lint}; runs commands: ${process.execPath} -e `);
			// With what the project graph gives it: the consent shows what the template will be.
			expect(asked[0]).toContain('"${inputs.target}" (user graph "deploy" with inputs {"target":"attacker-host"}))');
			expect(isError).toBe(true);
			expect(text).toContain('declined to run project graph "lint"');
			expect(existsSync(marker)).toBe(false);
		} finally {
			session.dispose();
			rmSync(join(env.home.agentDir, "graphs", "deploy.json"));
		}
	});

	it("refuses a command in an untrusted project graph before anything runs, naming the command", async () => {
		const project = join(env.workDir, "cmdproj");
		mkdirSync(join(project, ".pi", "graphs"), { recursive: true });
		writeFileSync(
			join(project, ".pi", "graphs", "verify.json"),
			JSON.stringify({ nodes: { check: { kind: "command", run: ["touch", "pwned"] } } }),
		);
		const session = await createExtensionSession({ cwd: project, agentDir: env.home.agentDir, projectTrusted: false });
		try {
			const { isError, text } = await runGraph({ name: "verify", agentScope: "project" }, session);
			expect(isError).toBe(true);
			expect(text).toMatch(/^agent_graph: nothing was started\./);
			expect(text).toContain('refused to run project graph "verify"');
			expect(text).toContain("runs commands: touch pwned");
			expect(existsSync(join(project, "pwned"))).toBe(false);
		} finally {
			session.dispose();
		}
	});
});

describe("human gates without a UI", () => {
	it("fails closed in a session without a UI, or parks the run unfinished in its run directory with on_headless park", async () => {
		const closed = await runGraph({ graph: { nodes: { ask: { kind: "human", question: "Go?", choices: ["yes"] } } } });
		expect(closed.states).toEqual({ ask: "failed" });
		expect(closed.text).toContain("- ask: failed (declined): declined: no UI to ask (headless)");
		const parked = await runGraph({
			graph: {
				nodes: {
					ask: { kind: "human", question: "Go on?", choices: ["yes", "no"], on_headless: "park" },
					after: { kind: "command", depends_on: ["ask"], run: ["echo", "${nodes.ask.output}"] },
				},
			},
		});
		expect(parked.states).toEqual({ ask: "waiting", after: "waiting" });
		expect(parked.text).toContain("parked: ask wait for an answer; the run stays unfinished");
		const runId = parked.result.details.runId as string;
		const snapshot = JSON.parse(
			readFileSync(join(graphsRoot(env.home.agentDir), runId, "snapshot.json"), "utf8"),
		) as RunSnapshot;
		expect(snapshot.finished).toBeFalsy();
		expect(snapshot.state.nodes.ask.parked?.question).toBe("Go on?");
	});
});
