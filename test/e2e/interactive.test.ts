/**
 * `interactive: true` through the registered `subagent` tool: the real pi, claude and codex TUIs run in
 * tmux on the parent session's private socket, against the fake model server (docs/interactive.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { RunResult, RunSnapshot } from "../../src/core/run-result.ts";
import { type E2eEnv, runOf, textOf } from "../support/e2e-env.ts";
import { scriptTui, startInteractiveE2eEnv, tmuxSucceeds } from "../support/interactive-env.ts";
import { isAlive } from "../support/processes.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startInteractiveE2eEnv();
});
afterAll(async () => env?.close());

async function expectGone(run: RunSnapshot): Promise<void> {
	const info = run.interactive;
	if (!info) throw new Error("not an interactive run");
	expect(await tmuxSucceeds(info.socket, "has-session", "-t", `=${info.session}`)).toBe(false);
	expect(run.pid !== undefined && isAlive(run.pid)).toBe(false);
}

describe("interactive subagent calls", () => {
	it.each([
		["pi", /^[0-9a-f-]{36}$/],
		["claude_code", /^[0-9a-f-]{36}$/],
		["codex", /^[0-9a-f-]{36}$/],
	] as const)(
		"a single interactive %s call returns the final answer, session id and attach command",
		async (harness, id) => {
			const task = `interactive single ${harness}`;
			scriptTui(env.server, task, { text: `${harness} answered in its TUI` });
			const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
				agent_type: harness,
				task,
				interactive: true,
			});
			const run = runOf(result.details);
			expect(isError, textOf(result)).toBe(false);
			expect(run.finalAnswer).toBe(`${harness} answered in its TUI`);
			expect(run.nativeSessionId).toMatch(id);
			const info = run.interactive as NonNullable<RunResult["interactive"]>;
			expect(textOf(result)).toContain(`${harness} answered in its TUI`);
			// The tmux session is gone once the run ended: the result gives no attach command for it.
			expect(textOf(result)).toContain(`Interactive session ${info.session}: removed when the run ended.`);
			expect(textOf(result)).not.toContain(info.attachCommand);
			expect(info.attachCommand).toMatch(new RegExp(`tmux -S ${info.socket} attach -t ${info.session}$`));
			await expectGone(run);
		},
		60_000,
	);

	it("a parallel call runs one interactive and one headless child side by side", async () => {
		scriptTui(env.server, "mixed interactive child", { text: "from the TUI" });
		scriptTui(env.server, "mixed headless child", { text: "from headless" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			tasks: [
				{ agent_type: "pi", task: "mixed interactive child", interactive: true },
				{ agent_type: "pi", task: "mixed headless child" },
			],
		});
		expect(isError, textOf(result)).toBe(false);
		const [tui, headless] = [runOf(result.details, 0), runOf(result.details, 1)];
		expect([tui.finalAnswer, headless.finalAnswer]).toEqual(["from the TUI", "from headless"]);
		expect(tui.interactive?.session).toBeDefined();
		expect(headless.interactive).toBeUndefined();
		expect(textOf(result)).toMatch(/^2\/2 tasks completed/);
	}, 60_000);

	it("inactivity_timeout_ms ends a child whose screen stopped changing, with a warning", async () => {
		// claude asks before running `touch` (permission mode default): the question sits still on screen.
		scriptTui(env.server, "stuck on a question", {
			toolCalls: [{ name: "Bash", arguments: { command: "touch made-by-claude" } }],
		});
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "claude_code",
			task: "stuck on a question",
			interactive: true,
			inactivity_timeout_ms: 1500,
		});
		const run = runOf(result.details);
		expect(isError).toBe(true);
		expect(run.status).toBe("timed_out");
		expect(run.interactive?.warning).toMatch(/no change on the child's screen for \d+ ms \(inactivity_timeout_ms\)/);
		expect(textOf(result)).toContain("Warning: no change on the child's screen");
		await expectGone(run);
	}, 60_000);

	it("aborting the call kills the child's tmux session", async () => {
		env.server.scriptFor("hang until aborted", { hang: true });
		const controller = new AbortController();
		const call = env.session.callTool<SubagentDetails>(
			"subagent",
			{ agent_type: "pi", task: "hang until aborted", interactive: true },
			controller.signal,
		);
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "hang until aborted"), 30_000);
		controller.abort();
		const { result } = await call;
		const run = runOf(result.details);
		expect(run.status).toBe("aborted");
		await expectGone(run);
	}, 60_000);

	it("a chain hands one interactive step's answer to the next", async () => {
		scriptTui(env.server, "chain step one", { text: "ANSWER-ONE" });
		scriptTui(env.server, "chain step two got ANSWER-ONE", { text: "second saw it" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			chain: [
				{ agent_type: "pi", task: "chain step one", interactive: true },
				{ agent_type: "claude_code", task: "chain step two got {previous}", interactive: true },
			],
		});
		expect(isError, textOf(result)).toBe(false);
		expect(runOf(result.details, 1).finalAnswer).toBe("second saw it");
	}, 90_000);

	it("a TUI that exits before its records end the turn fails with its last screen lines", async () => {
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			model: "nowhere/no-such-model",
			task: "never answered",
			interactive: true,
		});
		const run = runOf(result.details);
		expect(isError).toBe(true);
		expect(run.status).toBe("failed");
		expect(run.error).toMatch(/the pi TUI exited( with status \d+)? before its records showed the end of the turn/);
		expect(run.diagnostics.join("\n")).toContain("no-such-model");
		await expectGone(run);
	}, 60_000);

	it("refuses stay_open without interactive before starting anything", async () => {
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "never runs",
			stay_open: true,
		});
		expect(isError).toBe(true);
		expect(textOf(result)).toContain("stay_open applies only with interactive: true");
		expect(env.server.requests.some((r) => r.lastUserText === "never runs")).toBe(false);
	});
});
