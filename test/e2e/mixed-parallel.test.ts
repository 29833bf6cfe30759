/**
 * One parallel `subagent` call whose children run on all three harnesses: a real pi, codex and claude
 * child each, chosen by the `harness:` field of their Markdown agent definitions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({
		nativeHomes: true,
		agents: {
			scout: { description: "Scouts with pi", body: "You scout." },
			coder: { description: "Codes with codex", body: "You code.", fields: { harness: "codex" } },
			reviewer: { description: "Reviews with claude", body: "You review.", fields: { harness: "claude_code" } },
		},
	});
});
afterAll(async () => env?.close());

describe("a parallel call mixing harnesses", () => {
	it("returns the answers of a pi, a codex and a claude child in call order", async () => {
		env.server.scriptFor("mixed: scout the repo", { text: "pi scouted", usage: { input: 10, output: 2 } });
		env.server.scriptFor("mixed: write the code", { text: "codex coded", usage: { input: 20, output: 3 } });
		env.server.scriptFor("mixed: review the code", { text: "claude reviewed", usage: { input: 30, output: 4 } });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			tasks: [
				{ agent: "scout", task: "mixed: scout the repo" },
				{ agent: "coder", task: "mixed: write the code" },
				{ agent: "reviewer", task: "mixed: review the code" },
			],
		});
		expect(isError).toBe(false);
		const children = result.details.children;
		expect(children.map((child) => [child.harness, child.phase, child.result?.finalAnswer])).toEqual([
			["pi", "completed", "pi scouted"],
			["codex", "completed", "codex coded"],
			["claude_code", "completed", "claude reviewed"],
		]);
		for (const child of children) expect(child.result?.nativeSessionId).toBeDefined();
		const text = textOf(result);
		expect(text).toMatch(/^3\/3 tasks completed/);
		expect(text.indexOf("pi scouted")).toBeLessThan(text.indexOf("codex coded"));
		expect(text.indexOf("codex coded")).toBeLessThan(text.indexOf("claude reviewed"));
		expect(result.usage).toMatchObject({ input: 60, output: 9 });
		const protocols = ["mixed: scout the repo", "mixed: write the code", "mixed: review the code"].map(
			(task) => env.server.requests.find((request) => request.lastUserText === task)?.protocol,
		);
		expect(protocols).toEqual(["openai-chat", "openai-responses", "anthropic-messages"]);
	});

	it("resumes the three children in one parallel call by their native session ids alone", async () => {
		const tasks = ["scout", "coder", "reviewer"].map((agent) => ({ agent, task: `resume start ${agent}` }));
		for (const { task } of tasks) env.server.scriptFor(task, { text: `${task} done` });
		const first = await env.session.callTool<SubagentDetails>("subagent", { tasks });
		expect(first.isError, textOf(first.result)).toBe(false);
		const ids = first.result.details.children.map((child) => child.result?.nativeSessionId as string);
		for (const agent of ["scout", "coder", "reviewer"]) {
			env.server.scriptFor(`resume next ${agent}`, { text: `${agent} resumed` });
		}
		const second = await env.session.callTool<SubagentDetails>("subagent", {
			tasks: ids.map((id, i) => ({ resume_session_id: id, task: `resume next ${tasks[i].agent}` })),
		});
		expect(second.isError, textOf(second.result)).toBe(false);
		const children = second.result.details.children;
		expect(children.map((child) => [child.harness, child.result?.nativeSessionId, child.result?.finalAnswer])).toEqual([
			["pi", ids[0], "scout resumed"],
			["codex", ids[1], "coder resumed"],
			["claude_code", ids[2], "reviewer resumed"],
		]);
		const bodies: Record<string, string> = { scout: "You scout.", coder: "You code.", reviewer: "You review." };
		for (const agent of ["scout", "coder", "reviewer"]) {
			const request = env.server.requests.find((r) => r.lastUserText === `resume next ${agent}`);
			expect(request?.userTexts.some((text) => text.includes(`resume start ${agent}`))).toBe(true);
			// Each resumed child still has its agent's instructions, exactly once.
			expect(request?.systemPrompt.split(bodies[agent]).length, agent).toBe(2);
		}
	});
});
