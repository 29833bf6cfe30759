/**
 * Totals include everything that was spent (docs/tools.md §Results): a pi child that delegates to a pi
 * grandchild reports the grandchild's usage in its own, because Pi records a tool result's usage in the
 * child's stream and the pi adapter reads it. Real pi processes at every level against the fake model.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";

const PACKAGE_DIR = resolve(import.meta.dirname, "../..");
let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({});
	// Two levels below the root: the root's settings allow depth 2.
	mkdirSync(join(env.home.agentDir, "extensions"), { recursive: true });
	writeFileSync(join(env.home.agentDir, "extensions", "agentshell.json"), JSON.stringify({ max_sub_agent_depth: 2 }));
	env.session.dispose();
	env.session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
});
afterAll(async () => env?.close());

describe("usage of descendants", () => {
	it("counts a pi grandchild's tokens in the pi child's usage and in the root's totals", async () => {
		env.server.route((request) => {
			if (request.userTexts.some((text) => text.includes("grandchild work"))) {
				return { text: "grandchild done", usage: { input: 1000, output: 100 } };
			}
			if (!request.userTexts.some((text) => text.includes("delegate to a grandchild"))) return undefined;
			if (request.lastToolOutput !== undefined) return { text: "child done", usage: { input: 20, output: 2 } };
			return {
				toolCalls: [{ name: "subagent", arguments: { agent_type: "pi", task: "grandchild work" } }],
				usage: { input: 10, output: 1 },
			};
		});
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "delegate to a grandchild",
			resources: { extensions: [PACKAGE_DIR] },
		});
		expect(isError, textOf(result)).toBe(false);
		const child = runOf(result.details);
		expect(child.finalAnswer).toBe("child done");
		expect(env.server.requests.some((r) => r.lastUserText === "grandchild work")).toBe(true);
		// The child's own two turns (10 + 20 input, 1 + 2 output) plus the grandchild's 1000 / 100.
		expect(child.usage).toMatchObject({ inputTokens: 1030, outputTokens: 103, turns: 2 });
		expect(result.usage).toMatchObject({ input: 1030, output: 103 });
		expect(result.usage?.cost.total).toBeGreaterThan(0);
	});
});

describe("background calls of a nested child", () => {
	it("refuses background: true in a pi child running in RPC mode up front, and starts no grandchild", async () => {
		env.server.route((request) => {
			if (!request.userTexts.some((text) => text.includes("delegate in the background"))) return undefined;
			if (request.lastToolOutput !== undefined) return { text: `tool said: ${request.lastToolOutput}` };
			return {
				toolCalls: [
					{ name: "subagent", arguments: { agent_type: "pi", task: "background grandchild", background: true } },
				],
			};
		});
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "delegate in the background",
			resources: { extensions: [PACKAGE_DIR] },
		});
		expect(isError, textOf(result)).toBe(false);
		const child = runOf(result.details);
		expect(child.finalAnswer).toContain("tool said: subagent: nothing was started.");
		expect(child.finalAnswer).toContain(
			"this pi is a sub-agent at depth 1 in RPC mode, whose parent closes its input once this turn ends",
		);
		expect(env.server.requests.some((r) => r.userTexts.some((text) => text.includes("background grandchild")))).toBe(
			false,
		);
	});
});
