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

const ORCHESTRATION_TOOLS = ["subagent", "agent_graph", "subagent_roster", "subagent_jobs"];

describe("delegation depth", () => {
	it("offers no orchestration tool to a session already at max_sub_agent_depth", async () => {
		process.env.PI_AGENTSHELL_DEPTH = "1";
		process.env.PI_AGENTSHELL_MAX_DEPTH = "1";
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
		try {
			for (const name of ORCHESTRATION_TOOLS) expect(session.toolDefinition(name)).toBeUndefined();
		} finally {
			session.dispose();
			delete process.env.PI_AGENTSHELL_DEPTH;
			delete process.env.PI_AGENTSHELL_MAX_DEPTH;
		}
	});

	it("offers a real pi child at the maximum depth no orchestration tool, and one below it all four", async () => {
		const toolsSeen = new Map<string, string[]>();
		env.server.route((request) => {
			const task = request.userTexts.find((text) => text.startsWith("list your tools"));
			if (!task) return undefined;
			toolsSeen.set(task, request.toolNames);
			return { text: "listed" };
		});
		const atMax = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "list your tools at max",
			resources: { extensions: [PACKAGE_DIR] },
		});
		expect(atMax.isError, textOf(atMax.result)).toBe(false);
		process.env.PI_AGENTSHELL_MAX_DEPTH = "2";
		try {
			const below = await env.session.callTool<SubagentDetails>("subagent", {
				agent_type: "pi",
				task: "list your tools below max",
				resources: { extensions: [PACKAGE_DIR] },
			});
			expect(below.isError, textOf(below.result)).toBe(false);
		} finally {
			delete process.env.PI_AGENTSHELL_MAX_DEPTH;
		}
		const max = toolsSeen.get("list your tools at max") ?? [];
		const lower = toolsSeen.get("list your tools below max") ?? [];
		expect(max).toContain("read");
		for (const name of ORCHESTRATION_TOOLS) {
			expect(max).not.toContain(name);
			expect(lower).toContain(name);
		}
	});
});
