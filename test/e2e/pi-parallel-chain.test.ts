import { readFileSync, statSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, startE2eEnv, textOf, withSettingsSession } from "../support/e2e-env.ts";
import { Gate } from "../support/gate.ts";
import { groupMembers, isAlive, waitUntil } from "../support/processes.ts";
import { peakInFlight } from "../support/request-log.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({ agents: { echo: { description: "Answers plainly", body: "You answer plainly." } } });
});
afterAll(async () => env?.close());

describe("parallel calls", () => {
	it("returns three distinct answers in task order, whatever order they finish in", async () => {
		const gate = new Gate();
		const scripted: Record<string, string> = {
			"task alpha": "answer A",
			"task beta": "answer B",
			"task gamma": "answer C",
		};
		const unroute = env.server.route(gate.rule("task ", (request) => ({ text: scripted[request.lastUserText] })));
		const call = env.session.callTool<SubagentDetails>("subagent", {
			tasks: [
				{ agent: "echo", task: "task alpha", task_name: "first" },
				{ agent: "echo", task: "task beta", task_name: "second" },
				{ agent: "echo", task: "task gamma", task_name: "third" },
			],
		});
		// They finish in reverse order for certain: each is let go only once the one after it has completed.
		await gate.waitHeld(3);
		for (const [index, task] of [
			[2, "task gamma"],
			[1, "task beta"],
		] as const) {
			const completed = env.session.waitForUpdate(
				(partial) => (partial.details as SubagentDetails).children[index]?.phase === "completed",
			);
			gate.releaseText(task);
			await completed;
		}
		gate.releaseText("task alpha");
		const { result, isError } = await call;
		unroute();
		expect(isError).toBe(false);
		const answers = result.details.children.map((child) => child.result?.finalAnswer);
		expect(answers).toEqual(["answer A", "answer B", "answer C"]);
		const text = textOf(result);
		expect(text).toMatch(/^3\/3 tasks completed/);
		const positions = ['echo "first"', "answer A", 'echo "second"', "answer B", 'echo "third"', "answer C"].map((s) =>
			text.indexOf(s),
		);
		expect(positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]))).toBe(true);
		expect(result.usage?.output).toBe(
			result.details.children.reduce((sum, child) => sum + (child.result?.usage.outputTokens ?? 0), 0),
		);
		expect(result.usage?.output).toBeGreaterThan(0);
	});

	it("never has more than `concurrency` children in flight (setting limits.concurrency: 2, 5 tasks)", async () => {
		const gate = new Gate();
		const unroute = env.server.route(gate.rule("bounded ", (request) => ({ text: `${request.lastUserText} done` })));
		try {
			await withSettingsSession(env, { limits: { concurrency: 2 } }, async (session) => {
				const before = env.server.requests.length;
				const call = session.callTool<SubagentDetails>("subagent", {
					tasks: [1, 2, 3, 4, 5].map((n) => ({ agent: "echo", task: `bounded ${n}` })),
				});
				// The limit is reached (two held at once), then each release lets exactly one more start.
				await gate.releaseAll(5, 2);
				const { result } = await call;
				expect(result.details.children.map((c) => c.result?.finalAnswer)).toEqual(
					[1, 2, 3, 4, 5].map((n) => `bounded ${n} done`),
				);
				const ours = env.server.requests.slice(before);
				expect(ours).toHaveLength(5);
				expect(peakInFlight(ours)).toBeLessThanOrEqual(2);
			});
		} finally {
			unroute();
		}
	});

	it("finishes two parallel calls made in the same assistant turn under the global limit", async () => {
		const before = env.server.requests.length;
		const gate = new Gate();
		const unroute = env.server.route(gate.rule("gated ", (request) => ({ text: `${request.lastUserText} done` })));
		try {
			const tasks = (prefix: string) => [1, 2, 3].map((n) => ({ agent: "echo", task: `gated ${prefix} item ${n}` }));
			const calls = env.session.callTools([
				{ name: "subagent", args: { tasks: tasks("left") } },
				{ name: "subagent", args: { tasks: tasks("right") } },
			]);
			// Four held at once: both calls run together (a lone call has only 3 tasks), up to the shared limit of 4.
			await gate.releaseAll(6, 4);
			const outcomes = await calls;
			for (const [i, prefix] of ["left", "right"].entries()) {
				const details = outcomes[i].result.details as SubagentDetails;
				expect(details.children.map((c) => c.result?.finalAnswer)).toEqual(
					[1, 2, 3].map((n) => `gated ${prefix} item ${n} done`),
				);
			}
			const ours = env.server.requests.slice(before);
			expect(ours).toHaveLength(6);
			expect(peakInFlight(ours)).toBeLessThanOrEqual(4);
		} finally {
			unroute();
		}
	});

	it("kills every running child on abort, and queued tasks never reach the model", async () => {
		const before = env.server.requests.length;
		const markers = [1, 2, 3, 4, 5, 6].map((n) => `hang number ${n}`);
		for (const marker of markers) env.server.scriptFor(marker, { hang: true });
		const controller = new AbortController();
		const call = env.session.callTool<SubagentDetails>(
			"subagent",
			{ tasks: markers.map((task) => ({ agent: "echo", task })) },
			controller.signal,
		);
		await env.server.waitFor((requests) => requests.length - before >= 4);
		controller.abort();
		const { result } = await call;
		const phases = result.details.children.map((child) => child.phase);
		expect(phases.filter((p) => p === "aborted")).toHaveLength(4);
		expect(phases.filter((p) => p === "skipped")).toHaveLength(2);
		const pids = result.details.children.flatMap((child) => (child.result?.pid ? [child.result.pid] : []));
		expect(pids).toHaveLength(4);
		await waitUntil(() => pids.every((pid) => !isAlive(pid) && groupMembers(pid).length === 0), "children to die");
		expect(env.server.requests.length - before).toBe(4);
		const text = textOf(result);
		expect(text).toContain("0/6 tasks completed");
		expect(text.match(/— aborted/g)).toHaveLength(4);
		expect(text.match(/never started/g)).toHaveLength(2);
	});

	it("truncates a 200 KB answer for the model and keeps all of it in the artifact", async () => {
		const line = `${"x".repeat(99)}\n`;
		const big = line.repeat(2_000);
		expect(big.length).toBe(200_000);
		env.server.scriptFor("big answer please", { text: big });
		const { result } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			task: "big answer please",
		});
		const text = textOf(result);
		const run = result.details.children[0].result;
		expect(run?.artifactPath).toBeDefined();
		expect(text).toContain(`full answer in ${run?.artifactPath}`);
		expect(Buffer.byteLength(text)).toBeLessThan(52 * 1024);
		expect(statSync(run?.artifactPath as string).size).toBe(200_000);
		expect(readFileSync(run?.artifactPath as string, "utf8")).toBe(big);
	});
});

describe("chain calls", () => {
	it("passes the previous answer byte for byte, even with $&, $1, {previous} and U+2028", async () => {
		const tricky = "A $& B $1 C {previous} D \u2028 E $$ F";
		env.server.scriptFor("chain step one", { text: tricky });
		env.server.scriptFor("step two got:", (request) => ({ text: `seen ${request.lastUserText.length} chars` }));
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			chain: [
				{ agent: "echo", task: "chain step one" },
				{ agent: "echo", task: "step two got: {previous} (end)" },
			],
		});
		expect(isError).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText.startsWith("step two got:"));
		expect(request?.lastUserText).toBe(`step two got: ${tricky} (end)`);
		expect(result.details.children.map((c) => c.phase)).toEqual(["completed", "completed"]);
	});

	it("stops at a failing second step, names it, and keeps the first step's result", async () => {
		const before = env.server.requests.length;
		env.server.scriptFor("chain fail one", { text: "first is fine" });
		env.server.scriptFor("chain fail two", { error: { status: 500, message: "step two blew up" } });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			chain: [
				{ agent: "echo", task: "chain fail one" },
				{ agent: "echo", task: "chain fail two after {previous}" },
				{ agent: "echo", task: "chain fail three" },
			],
		});
		expect(isError).toBe(true);
		expect(result.details.children.map((c) => c.phase)).toEqual(["completed", "failed", "skipped"]);
		const text = textOf(result);
		expect(text).toContain("the chain stopped at step 2 (echo: failed)");
		expect(text).toContain("first is fine");
		expect(text).toContain("step two blew up");
		expect(env.server.requests.slice(before).some((r) => r.lastUserText.includes("chain fail three"))).toBe(false);
	});
});

describe("mode selection", () => {
	it("refuses a call that mixes modes, listing the fields given", async () => {
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			task: "x",
			tasks: [{ agent: "echo", task: "y" }],
		});
		expect(isError).toBe(true);
		expect(textOf(result)).toContain("got single (agent, task) and tasks");
	});

	it("refuses a call with no mode", async () => {
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", { cwd: "." });
		expect(isError).toBe(true);
		expect(textOf(result)).toContain("none was given");
	});
});
