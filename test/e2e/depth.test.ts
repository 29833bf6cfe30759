import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";

const PACKAGE_DIR = resolve(import.meta.dirname, "../..");
let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({});
});
afterAll(async () => env?.close());

describe("delegation depth", () => {
	it("refuses a launch at max_sub_agent_depth before anything is spawned", async () => {
		process.env.PI_AGENTSHELL_DEPTH = "1";
		process.env.PI_AGENTSHELL_MAX_DEPTH = "1";
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
		try {
			const before = env.server.requests.length;
			const { result, isError } = await session.callTool<SubagentDetails>("subagent", { agent_type: "pi", task: "x" });
			expect(isError).toBe(true);
			expect(textOf(result)).toContain(
				"delegation depth limit reached: this session is at depth 1 and max_sub_agent_depth is 1, so a child at depth 2 is refused",
			);
			expect(env.server.requests.length).toBe(before);
		} finally {
			session.dispose();
			delete process.env.PI_AGENTSHELL_DEPTH;
			delete process.env.PI_AGENTSHELL_MAX_DEPTH;
		}
	});

	it("refuses a nested pi child that loads this extension and delegates past the limit", async () => {
		env.server.route((request) => {
			if (!request.userTexts.some((text) => text.includes("delegate further"))) return undefined;
			if (request.lastToolOutput !== undefined) return { text: `nested result: ${request.lastToolOutput}` };
			if (!request.toolNames.includes("subagent")) return { text: "the child did not get the subagent tool" };
			return { toolCalls: [{ name: "subagent", arguments: { agent_type: "pi", task: "grandchild task" } }] };
		});
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "delegate further",
			resources: { extensions: [PACKAGE_DIR] },
		});
		expect(isError, textOf(result)).toBe(false);
		const answer = result.details.children[0].result?.finalAnswer ?? "";
		expect(answer).toContain("nested result:");
		expect(answer).toContain(
			"this session is at depth 1 and max_sub_agent_depth is 1, so a child at depth 2 is refused",
		);
		expect(env.server.requests.some((r) => r.lastUserText.includes("grandchild task"))).toBe(false);
	});
});
