import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, runOf, startE2eEnv } from "../support/e2e-env.ts";
import { groupMembers, isAlive, pidRecordingCommand, recordedPids, waitUntil } from "../support/processes.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({
		agents: {
			echo: { description: "Answers plainly", body: "You answer plainly." },
			shell: { description: "Runs shell commands", body: "You run commands.", tools: ["bash"] },
		},
	});
});
afterAll(async () => env?.close());

describe("a real pi child in single mode", () => {
	it("returns a plain-text answer with usage and a native session id", async () => {
		env.server.scriptFor("say hello", { text: "Hello from the child", usage: { input: 120, output: 30 } });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			task: "say hello",
		});
		expect(isError).toBe(false);
		const run = runOf(result.details);
		expect(result.content[0]).toMatchObject({
			type: "text",
			text: `Hello from the child\n\nsession: ${run.nativeSessionId} (resume with resume_session_id)`,
		});
		expect(run.status).toBe("completed");
		expect(run.nativeSessionId).toMatch(/\S/);
		expect(run.usage.inputTokens).toBe(120);
		expect(run.usage.outputTokens).toBe(30);
		expect(run.usage.costUsd).toBeGreaterThan(0);
		expect(run.model).toBe("fake/fake-model");
		expect(result.usage?.input).toBe(120);
		expect(result.usage?.output).toBe(30);
		const request = env.server.requests.find((r) => r.lastUserText.includes("say hello"));
		expect(request?.systemPrompt).toContain("You answer plainly.");
	});

	it("accepts prompt as an alias of task", async () => {
		env.server.scriptFor("alias check", { text: "alias ok" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			prompt: "alias check",
		});
		expect(isError).toBe(false);
		expect(runOf(result.details).finalAnswer).toBe("alias ok");
	});

	it("reports a bash tool call in details and answers with the final text", async () => {
		env.server.scriptFor(
			"run a command",
			{ toolCalls: [{ name: "bash", arguments: { command: "echo tool-output-42" } }] },
			(request) => ({ text: `The command printed ${request.lastToolOutput?.trim()}` }),
		);
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "shell",
			task: "run a command",
		});
		expect(isError).toBe(false);
		const run = runOf(result.details);
		expect(run.finalAnswer).toBe("The command printed tool-output-42");
		expect(run.tools).toHaveLength(1);
		expect(run.tools[0]).toMatchObject({ toolName: "bash", args: { command: "echo tool-output-42" }, pending: false });
		expect(run.tools[0].output).toContain("tool-output-42");
		expect(run.usage.turns).toBe(2);
		const request = env.server.requests.find((r) => r.lastUserText.includes("run a command"));
		expect(request?.toolNames).toEqual(["bash"]);
	});

	it("fails with the provider's message when the model answers HTTP 500", async () => {
		env.server.scriptFor("provoke an error", { error: { status: 500, message: "upstream exploded (fake)" } });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			task: "provoke an error",
		});
		expect(isError).toBe(true);
		const run = runOf(result.details);
		expect(run.status).toBe("failed");
		expect(run.error).toContain("upstream exploded (fake)");
		const text = (result.content[0] as { text: string }).text;
		expect(text).toContain("upstream exploded (fake)");
		expect(text).toContain(`, ended with exit code 0`);
		expect(text).toContain(`process: ${run.command} (pid ${run.pid})`);
		expect(text).toContain(`cwd: ${env.workDir}`);
	});

	it("kills the whole process group on abort and keeps the partial output", async () => {
		const pidDir = join(env.workDir, "abort-pids");
		const command = pidRecordingCommand(pidDir, "sleep 1000");
		env.server.scriptFor("start sleeping", {
			text: "Starting the sleeps now.",
			toolCalls: [{ name: "bash", arguments: { command } }],
		});
		const controller = new AbortController();
		const call = env.session.callTool<SubagentDetails>(
			"subagent",
			{ agent: "shell", task: "start sleeping" },
			controller.signal,
		);
		const { bg, fg } = await recordedPids(pidDir, "the sleeps to start");
		expect(isAlive(bg) && isAlive(fg)).toBe(true);
		controller.abort();
		const { result } = await call;
		const run = runOf(result.details);
		expect(run.status).toBe("aborted");
		expect(run.pid).toBeGreaterThan(0);
		await waitUntil(
			() => !isAlive(bg) && !isAlive(fg) && groupMembers(run.pid as number).length === 0,
			"the group to die",
		);
		// The tool call is recorded; whether pi reported the killed command's end before it died itself is
		// the order of two reactions to one signal, so `pending` may be either.
		expect(run.tools).toHaveLength(1);
		expect(run.tools[0]).toMatchObject({ toolName: "bash", args: { command } });
		expect(run.finalAnswer).toBe("Starting the sleeps now.");
	});

	it("delivers a 300 KB task starting with - and containing @file text byte for byte", async () => {
		writeFileSync(join(env.workDir, "secret.txt"), "FILE CONTENT MUST NOT BE INLINED");
		const unit = "line with @secret.txt and --flag and ünïcödé ✓\n";
		const task = `-${unit.repeat(Math.ceil(300_000 / Buffer.byteLength(unit))).trimEnd()}`;
		expect(Buffer.byteLength(task)).toBeGreaterThan(300_000);
		env.server.scriptFor("line with @secret.txt", { text: "received" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", { agent: "echo", task });
		expect(isError).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText.includes("line with @secret.txt"));
		expect(request?.lastUserText === task).toBe(true);
		expect(runOf(result.details).finalAnswer).toBe("received");
	});

	it("delivers a task with surrounding whitespace and blank lines byte for byte (pi's RPC prompt is not trimmed)", async () => {
		const task = "\n\n   indented whitespace task\t\n  keep the trailing spaces   \n\n";
		env.server.scriptFor("indented whitespace task", { text: "kept" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", { agent: "echo", task });
		expect(isError).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText.includes("indented whitespace task"));
		expect(JSON.stringify(request?.lastUserText)).toBe(JSON.stringify(task));
		expect(runOf(result.details).finalAnswer).toBe("kept");
	});

	it("names the available agents when the agent is unknown and spawns nothing", async () => {
		const before = env.server.requests.length;
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", { agent: "nope", task: "x" });
		expect(isError).toBe(true);
		const text = (result.content[0] as { text: string }).text;
		expect(text).toContain('unknown agent "nope"');
		expect(text).toContain("echo (user, pi)");
		expect(text).toContain("shell (user, pi)");
		expect(result.details.children).toEqual([]);
		expect(env.server.requests.length).toBe(before);
	});

	it("names a missing cwd and spawns nothing", async () => {
		const before = env.server.requests.length;
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			task: "x",
			cwd: "no/such/dir",
		});
		expect(isError).toBe(true);
		const text = (result.content[0] as { text: string }).text;
		expect(text).toContain(`cwd: ${join(env.workDir, "no/such/dir")} does not exist`);
		expect(env.server.requests.length).toBe(before);
	});
});
