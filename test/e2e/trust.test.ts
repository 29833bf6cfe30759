import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({});
	mkdirSync(join(env.workDir, ".pi/agents"), { recursive: true });
	writeFileSync(
		join(env.workDir, ".pi/agents/local.md"),
		"---\nname: local\ndescription: A project agent\n---\nYou are the project's own agent.\n",
	);
});
afterAll(async () => env?.close());

describe("project agents and trust", () => {
	it("refuses a project agent in an untrusted project with no UI, and spawns nothing", async () => {
		const session = await createExtensionSession({
			cwd: env.workDir,
			agentDir: env.home.agentDir,
			projectTrusted: false,
		});
		try {
			const before = env.server.requests.length;
			const { result, isError } = await session.callTool<SubagentDetails>("subagent", {
				agent: "local",
				task: "hello",
				agentScope: "project",
			});
			expect(isError).toBe(true);
			const text = textOf(result);
			expect(text).toContain(`refused to run project agent "local" (${join(env.workDir, ".pi/agents/local.md")})`);
			expect(text).toContain("this project is not trusted, and there is no UI to confirm");
			expect(env.server.requests.length).toBe(before);
		} finally {
			session.dispose();
		}
	});

	it("runs a project agent in a trusted project", async () => {
		env.server.scriptFor("trusted hello", { text: "project agent answered" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "local",
			task: "trusted hello",
			agentScope: "project",
		});
		expect(isError, textOf(result)).toBe(false);
		expect(result.details.children[0].result?.finalAnswer).toBe("project agent answered");
		const request = env.server.requests.find((r) => r.lastUserText.includes("trusted hello"));
		expect(request?.systemPrompt).toContain("You are the project's own agent.");
	});

	it("does not see project agents in the default user scope", async () => {
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", { agent: "local", task: "x" });
		expect(isError).toBe(true);
		expect(textOf(result)).toContain('unknown agent "local" in scope "user"');
	});
});
