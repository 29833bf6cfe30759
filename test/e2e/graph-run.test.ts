/**
 * How an `agent_graph` run goes, through real pi children against the fake model: failures skip
 * dependents only, conditions, budgets, dispatch-time re-checks, fail_fast, cancellation and the shared
 * global limit.
 */
/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: graph templates are written with ${…} placeholders. */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Theme } from "@earendil-works/pi-coding-agent";
import type { Component } from "@earendil-works/pi-tui";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { GraphDetails } from "../../src/core/graph-details.ts";
import { type E2eEnv, startE2eEnv, textOf, withSettingsSession } from "../support/e2e-env.ts";
import { Gate } from "../support/gate.ts";
import { isAlive, waitUntil } from "../support/processes.ts";
import { peakInFlight } from "../support/request-log.ts";

let env: E2eEnv;

/** A theme that tags colours instead of emitting escapes, so tests can read both text and colour. */
const theme = {
	fg: (color: string, text: string) => `<${color}>${text}</>`,
	bold: (text: string) => text,
} as unknown as Theme;

beforeAll(async () => {
	env = await startE2eEnv({ agents: { scout: { description: "Scouts", body: "You scout." } } });
});
afterAll(async () => env?.close());

type Node = Record<string, unknown>;
const pi = (task: string, extra: Node = {}): Node => ({ agent: "scout", task, ...extra });

async function runGraph(graph: Record<string, unknown>, extra: Record<string, unknown> = {}, signal?: AbortSignal) {
	const outcome = await env.session.callTool<GraphDetails>("agent_graph", { graph, ...extra }, signal);
	const text = textOf(outcome.result);
	const states = Object.fromEntries(
		outcome.result.details.nodes.map((node) => [
			node.key,
			node.status === "skipped" ? `skipped (${node.reason})` : node.status,
		]),
	);
	return { ...outcome, text, states };
}

describe("agent_graph runs", () => {
	it("fails a node alone: its dependents are skipped with the reason, an independent branch completes", async () => {
		env.server.scriptFor("branch: broken", { error: { status: 400, message: "scripted failure" } });
		env.server.scriptFor("branch: after broken", { text: "never" });
		env.server.scriptFor("branch: independent", { text: "fine" });
		const { text, states, isError } = await runGraph({
			nodes: {
				broken: pi("branch: broken"),
				after: pi("branch: after broken", { depends_on: ["broken"] }),
				later: pi("branch: later", { depends_on: ["after"] }),
				independent: pi("branch: independent"),
			},
		});
		expect(isError).toBe(true);
		expect(states).toEqual({
			broken: "failed",
			after: "skipped (dependency broken failed)",
			later: "skipped (dependency after skipped)",
			independent: "completed",
		});
		expect(text).toMatch(/- broken: failed .*scripted failure/);
		expect(
			env.server.requests.some((r) => r.lastUserText.startsWith("branch: after") || r.lastUserText === "branch: later"),
		).toBe(false);
	});

	it("skips a node whose when is false, and the node's dependents", async () => {
		const graph = {
			inputs: { type: "object", properties: { mode: { enum: ["quick", "deep"] } }, required: ["mode"] },
			nodes: {
				always: pi("when: always"),
				deep: pi("when: deep ${inputs.mode}", { when: { ref: "${inputs.mode}", equals: "deep" } }),
				report: pi("when: report", { depends_on: ["deep"] }),
			},
		};
		const quick = await runGraph(graph, { inputs: { mode: "quick" } });
		expect(quick.isError, quick.text).toBe(false);
		expect(quick.states).toEqual({
			always: "completed",
			deep: "skipped (condition)",
			report: "skipped (dependency deep skipped)",
		});
		expect(env.server.requests.some((r) => r.lastUserText.startsWith("when: deep"))).toBe(false);
		const deep = await runGraph(graph, { inputs: { mode: "deep" } });
		expect(deep.states).toEqual({ always: "completed", deep: "completed", report: "completed" });
		expect(env.server.requests.some((r) => r.lastUserText === "when: deep deep")).toBe(true);
	});

	it("stops at a spent budget: no further node starts, the rest are skipped, the result says which and how much", async () => {
		env.server.scriptFor("budget: first", { text: "spent", usage: { input: 400, output: 100 } });
		const { text, states, isError, result } = await runGraph({
			nodes: {
				first: pi("budget: first"),
				second: pi("budget: second"),
				third: pi("budget: third", { depends_on: ["first"] }),
			},
			limits: { concurrency: 1, max_tokens: 300 },
		});
		expect(isError).toBe(true);
		expect(states).toEqual({
			first: "completed",
			second: "skipped (budget: max_tokens)",
			third: "skipped (budget: max_tokens)",
		});
		expect(result.details.budgetStop).toEqual({ budget: "max_tokens", limit: 300, spent: 500 });
		expect(text).toContain("budget max_tokens 300 spent (500 tokens): no further node started");
		expect(
			env.server.requests.some((r) => r.lastUserText === "budget: second" || r.lastUserText === "budget: third"),
		).toBe(false);
	});

	it("cancels running nodes at timeout_ms and skips the rest, saying so", async () => {
		env.server.scriptFor("timeout: hangs", { hang: true });
		const { states, text, result } = await runGraph({
			nodes: { hangs: pi("timeout: hangs"), after: pi("timeout: after", { depends_on: ["hangs"] }) },
			limits: { timeout_ms: 1000 },
		});
		expect(states).toEqual({ hangs: "cancelled", after: "skipped (budget: timeout_ms)" });
		expect(result.details.budgetStop).toEqual({ budget: "timeout_ms", limit: 1000, spent: 1000 });
		expect(text).toContain("limit timeout_ms 1000 reached after 1000 ms: no further node started");
	});

	it("ends at timeout_ms when a node's command ignores SIGTERM, and leaves none of its processes", async () => {
		const pidFile = join(env.home.dir, "ignores-term.pid");
		const command = `trap '' TERM; echo $$ > ${pidFile}; sleep 600; echo never`;
		const unroute = env.server.route((request) =>
			request.lastUserText === "timeout: ignores TERM" && request.lastToolOutput === undefined
				? { toolCalls: [{ name: "bash", arguments: { command } }] }
				: undefined,
		);
		try {
			const { states } = await runGraph({
				nodes: { stubborn: pi("timeout: ignores TERM") },
				limits: { timeout_ms: 3000 },
			});
			expect(states).toEqual({ stubborn: "cancelled" });
			// The shell that ignored SIGTERM was started (its pid recorded) and is gone with its sleep.
			const shell = Number(readFileSync(pidFile, "utf8"));
			expect(shell).toBeGreaterThan(0);
			await waitUntil(() => !isAlive(shell), "the SIGTERM-ignoring shell to be gone", 3000);
		} finally {
			unroute();
		}
	});

	it("fails a node closed when its agent file is removed between validation and dispatch; the run completes", async () => {
		const agentFile = join(env.home.agentDir, "agents", "doomed.md");
		writeFileSync(agentFile, "---\nname: doomed\ndescription: Goes away\n---\nYou go away.\n");
		const gate = new Gate();
		const unroute = env.server.route(gate.rule("dispatch: first", () => ({ text: "first done" })));
		try {
			const run = runGraph({
				nodes: {
					first: pi("dispatch: first"),
					gone: { agent: "doomed", task: "dispatch: gone", depends_on: ["first"] },
					other: pi("dispatch: other", { depends_on: ["first"] }),
				},
			});
			await gate.waitHeld(1);
			rmSync(agentFile);
			gate.releaseOne();
			const { states, result } = await run;
			expect(states).toEqual({ first: "completed", gone: "failed", other: "completed" });
			const gone = result.details.nodes.find((node) => node.key === "gone");
			expect(gone?.reason).toContain('refused at dispatch: node "gone": unknown agent "doomed"');
			expect(env.server.requests.some((r) => r.lastUserText === "dispatch: gone")).toBe(false);
		} finally {
			unroute();
			rmSync(agentFile, { force: true });
		}
	});

	it("cancels the rest on the first failure with fail_fast", async () => {
		env.server.scriptFor("fast: broken", { error: { status: 400, message: "scripted failure" } });
		env.server.scriptFor("fast: hangs", { hang: true });
		const { states, text } = await runGraph({
			nodes: {
				hangs: pi("fast: hangs"),
				broken: pi("fast: broken"),
				after: pi("fast: after", { depends_on: ["hangs"] }),
			},
			fail_fast: true,
		});
		expect(states).toEqual({
			hangs: "cancelled",
			broken: "failed",
			after: 'skipped (cancelled: fail_fast: node "broken" failed)',
		});
		expect(text).toContain('cancelled (fail_fast: node "broken" failed)');
	});

	it("shows every node live (running, waiting on its dependency) and cancels the run on abort (Escape)", async () => {
		env.server.scriptFor("escape: hangs", { hang: true });
		const controller = new AbortController();
		const run = runGraph(
			{ nodes: { hangs: pi("escape: hangs"), after: pi("escape: after", { depends_on: ["hangs"] }) } },
			{},
			controller.signal,
		);
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "escape: hangs"));
		controller.abort();
		const { states, updates } = await run;
		expect(states).toEqual({ hangs: "cancelled", after: "skipped (cancelled: the run was cancelled)" });
		// The live view showed the running node and the one waiting on it.
		const live = updates.find((update) => update.details.nodes[0]?.status === "running");
		expect(live?.details.nodes[1]).toMatchObject({ key: "after", status: "waiting", waitingOn: ["hangs"] });
		const tool = env.session.toolDefinition("agent_graph") as {
			renderResult(result: unknown, options: unknown, theme: Theme, context: unknown): Component;
		};
		const lines = tool.renderResult(live, { expanded: false, isPartial: true }, theme, {}).render(160).join("\n");
		expect(lines).toContain("<muted>1 running · 1 waiting");
		expect(lines).toMatch(/<warning>⏳<\/> <accent>hangs<\/> <dim>pi scout<\/> <warning>[a-z ]+ \d+\.\ds<\/>/);
		expect(lines).toContain("<muted>◦</> <accent>after</> <muted>waiting on hangs</>");
	});

	it("never exceeds the global limit shared with a concurrent subagent call (gate-proven peak)", async () => {
		const gate = new Gate();
		const unroute = env.server.route(gate.rule("shared ", (request) => ({ text: `${request.lastUserText} done` })));
		try {
			await withSettingsSession(env, { limits: { global_concurrency: 2 } }, async (session) => {
				const before = env.server.requests.length;
				const calls = session.callTools([
					{
						name: "agent_graph",
						args: { graph: { nodes: { a: pi("shared graph a"), b: pi("shared graph b"), c: pi("shared graph c") } } },
					},
					{ name: "subagent", args: { tasks: [1, 2].map((n) => ({ agent: "scout", task: `shared call ${n}` })) } },
				]);
				await gate.releaseAll(5, 2);
				const [graph, call] = await calls;
				expect((graph.result.details as GraphDetails).nodes.map((node) => node.status)).toEqual([
					"completed",
					"completed",
					"completed",
				]);
				expect((call.result.details as SubagentDetails).children.map((child) => child.phase)).toEqual([
					"completed",
					"completed",
				]);
				const ours = env.server.requests.slice(before);
				expect(ours).toHaveLength(5);
				expect(peakInFlight(ours)).toBeLessThanOrEqual(2);
			});
		} finally {
			unroute();
		}
	});

	it("caps long outputs for the model like an answer, the whole JSON in an artifact file", async () => {
		await withSettingsSession(env, { limits: { output_max_bytes: 40 } }, async (session) => {
			const long = "x".repeat(100);
			const { result } = await session.callTool<GraphDetails>("agent_graph", {
				graph: {
					inputs: { type: "object", properties: { text: { type: "string" } } },
					nodes: { only: pi("outputs: only") },
					outputs: { text: "${inputs.text}" },
				},
				inputs: { text: long },
			});
			const text = textOf(result);
			const path = /the whole JSON is in (\S+)\]/.exec(text)?.[1] as string;
			expect(text).toContain(`outputs: {"text":"${"x".repeat(31)}\n[outputs truncated: 40 of 111 bytes shown;`);
			expect(readFileSync(path, "utf8")).toBe(JSON.stringify({ text: long }));
			expect(result.details.outputs).toEqual({ text: long });
		});
	});
});
