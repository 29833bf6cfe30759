/**
 * Tool restrictions are enforced or refused (SECURITY.md "Tool restrictions"): real claude and pi children
 * against the fake model server.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { createClaudeAdapter } from "../../src/harness/claude/adapter.ts";
import { runChild } from "../../src/runs/run-child.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { nativeLaunchSpec } from "../support/launch-spec.ts";
import { CLAUDE_BIN } from "../support/native-homes.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({ nativeHomes: true });
});
afterAll(async () => env?.close());

describe("claude allowed_tools", () => {
	it("offers only the allowlisted tools, so a call to another tool never runs, even with auto_approve", async () => {
		// auto_approve as root needs IS_SANDBOX=1 (claude's own rule); this test machine is the sandbox.
		const adapter = createClaudeAdapter({ command: () => ({ file: CLAUDE_BIN, args: [] }) });
		const marker = join(env.workDir, "written-by-bash");
		env.server.scriptFor(
			"claude asks for bash",
			{ toolCalls: [{ name: "Bash", arguments: { command: `touch ${marker}`, description: "Write" } }] },
			(request) => ({ text: `tool said: ${request.lastToolOutput}` }),
		);
		const run = await runChild(
			nativeLaunchSpec({
				harness: "claude_code",
				cwd: env.workDir,
				task: "claude asks for bash",
				allowedTools: ["Read"],
				autoApprove: true,
			}),
			adapter,
			{ env: { ...(process.env as Record<string, string>), IS_SANDBOX: "1" } },
		);
		expect(run.status, JSON.stringify(run)).toBe("completed");
		expect(existsSync(marker)).toBe(false);
		const first = env.server.requests.find((r) => r.lastUserText === "claude asks for bash");
		expect(first?.toolNames).toContain("Read");
		expect(first?.toolNames).not.toContain("Bash");
		expect(run.finalAnswer).toContain("No such tool available: Bash");
	});

	it("fails the run naming an allowlisted tool claude does not have", async () => {
		env.server.scriptFor("claude with a typo", { text: "should not matter" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "claude_code",
			task: "claude with a typo",
			allowed_tools: ["Read", "Raed"],
		});
		expect(isError).toBe(true);
		const run = runOf(result.details);
		expect(run.status).toBe("failed");
		expect(run.error).toContain('allowed_tools: "Raed" is not a tool of this claude_code child, which offers: Read');
		expect(textOf(result)).toContain('"Raed" is not a tool');
	});
});

describe("pi tool names", () => {
	it("refuses an unknown tool before launch when the child loads no extensions, naming pi's tools", async () => {
		const before = env.server.requests.length;
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "pi with glob",
			allowed_tools: ["read", "glob"],
			disallowed_tools: ["bsah"],
			resources: {
				skills: [],
				plugins: [],
				extensions: [],
				packages: [],
				mcp_servers: [],
				inherit_personal_resources: false,
				inherit_project_resources: false,
				include_instruction_files: true,
				include_home_system_prompt: true,
			},
		});
		expect(isError).toBe(true);
		const text = textOf(result);
		expect(text).toContain("subagent: nothing was started.");
		expect(text).toContain('allowed_tools: "glob" is not a tool of this child');
		expect(text).toContain('disallowed_tools: "bsah" is not a tool of this child');
		expect(text).toContain("read, bash, powershell, edit, write, grep, find, ls");
		expect(env.server.requests.length).toBe(before);
	});

	it("refuses a tool both allowed and disallowed before launch, whatever the child loads", async () => {
		const before = env.server.requests.length;
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "pi with read twice",
			allowed_tools: ["read"],
			disallowed_tools: ["read"],
		});
		expect(isError).toBe(true);
		const text = textOf(result);
		expect(text).toContain("subagent: nothing was started.");
		expect(text).toContain('tools: "read" is both allowed and disallowed; keep it in one list');
		expect(env.server.requests.length).toBe(before);
	});

	it("fails the run when the child reports its tools without an allowlisted one", async () => {
		env.server.scriptFor("pi with glob inherited", { text: "should not matter" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "pi with glob inherited",
			allowed_tools: ["read", "glob"],
		});
		expect(isError).toBe(true);
		const run = runOf(result.details);
		expect(run.status).toBe("failed");
		expect(run.error).toContain('allowed_tools: "glob" is not a tool of this pi child, which offers: read');
	});

	it("fails the run when no allowlisted tool exists, so pi offers none and reports no tool list", async () => {
		env.server.scriptFor("pi with only a typo", { text: "should not matter" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "pi with only a typo",
			allowed_tools: ["reed"],
		});
		expect(isError).toBe(true);
		const run = runOf(result.details);
		expect(run.status).toBe("failed");
		expect(run.error).toContain('allowed_tools: "reed" is not a tool of this pi child, which offers: no tools');
	});
});

describe("claude allowed_tools: []", () => {
	it("offers the model no tool at all", async () => {
		env.server.scriptFor("claude with no tools", { text: "none" });
		const { isError, result } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "claude_code",
			task: "claude with no tools",
			allowed_tools: [],
		});
		expect(isError, textOf(result)).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText === "claude with no tools");
		expect(request?.toolNames.filter((name) => name !== "DeferredToolPlaceholder")).toEqual([]);
	});
});
