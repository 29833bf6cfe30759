/**
 * Real claude children (Claude Code 2.1.332 from node_modules) against the fake model server, through the
 * `subagent` tool in a real Pi session, plus adapter-level runs: the raw init event (which the tool does
 * not return) and output cut off mid-record (a scripted stand-in, since the real binary cannot be made to
 * do that on demand).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { LaunchSpec } from "../../src/core/launch-spec.ts";
import { createClaudeAdapter } from "../../src/harness/claude/adapter.ts";
import { startProcess } from "../../src/process/start-process.ts";
import { applyEnvOverrides } from "../../src/runs/child-env.ts";
import { runChild } from "../../src/runs/run-child.ts";
import { type E2eEnv, runOf, runTwoTurns, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { nativeLaunchSpec } from "../support/launch-spec.ts";
import { CLAUDE_BIN } from "../support/native-homes.ts";
import { groupMembers, isAlive, pidRecordingCommand, recordedPids, waitUntil } from "../support/processes.ts";

const SCRIPTED_CLI = resolve(import.meta.dirname, "../support/fault-cli/pi-script.mjs");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({
		nativeHomes: true,
		agents: {
			reviewer: {
				description: "Reviews with claude",
				body: "REVIEWER-BODY: you review code.",
				fields: { harness: "claude_code" },
			},
			operator: {
				description: "Runs commands with claude",
				body: "You run commands.",
				tools: ["Bash"],
				fields: { harness: "claude_code" },
			},
		},
	});
});
afterAll(async () => env?.close());

const spec = (overrides: Partial<LaunchSpec>): LaunchSpec =>
	nativeLaunchSpec({ harness: "claude_code", cwd: env.workDir, ...overrides });

describe("a real claude child", () => {
	it("answers in plain text with the session id it was given, usage, cost and the agent body", async () => {
		env.server.scriptFor("claude says hello", {
			text: "Hello from claude",
			usage: { input: 900, output: 30, cacheRead: 50 },
		});
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "reviewer",
			task: "claude says hello",
		});
		expect(isError).toBe(false);
		const run = runOf(result.details);
		expect(textOf(result)).toBe(`Hello from claude\n\nsession: ${run.nativeSessionId} (resume with resume_session_id)`);
		expect(run).toMatchObject({ status: "completed", harness: "claude_code", finalAnswer: "Hello from claude" });
		expect(run.tools).toEqual([]);
		expect(run.nativeSessionId).toMatch(UUID);
		expect(run.usage).toMatchObject({ inputTokens: 900, outputTokens: 30, cacheReadTokens: 50, turns: 1 });
		expect(run.usage.costUsd).toBeGreaterThan(0);
		expect(run.model).toBe("claude-opus-5-5");
		const request = env.server.requests.find((r) => r.lastUserText === "claude says hello");
		expect(request?.protocol).toBe("anthropic-messages");
		expect(request?.headers["x-claude-code-session-id"]).toBe(run.nativeSessionId);
		expect(request?.systemPrompt).toContain("REVIEWER-BODY: you review code.");
	});

	it("runs a Bash command and reports it as tool activity in details", async () => {
		env.server.scriptFor(
			"claude runs a command",
			{
				text: "Running it.",
				toolCalls: [{ name: "Bash", arguments: { command: "echo claude-tool-42", description: "Print" } }],
			},
			(request) => ({ text: `The command said ${request.lastToolOutput?.trim()}` }),
		);
		// The call approves Bash (`--allowedTools`); the agent file's own `tools` only offer it.
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "operator",
			task: "claude runs a command",
			allowed_tools: ["Bash"],
		});
		expect(isError).toBe(false);
		const run = runOf(result.details);
		expect(run.finalAnswer).toBe("The command said claude-tool-42");
		expect(run.tools).toEqual([
			{
				toolCallId: expect.stringMatching(/^call_fake_\d+_0$/),
				toolName: "Bash",
				args: { command: "echo claude-tool-42", description: "Print" },
				output: "claude-tool-42",
				isError: false,
				pending: false,
			},
		]);
		expect(
			run.transcript.filter((item) => item.kind === "text").map((item) => item.kind === "text" && item.text),
		).toEqual(["Running it.", "The command said claude-tool-42"]);
		expect(run.usage.turns).toBe(2);
		expect(run.nativeSessionId).toMatch(UUID);
	});

	it("sends the model and effort to the model", async () => {
		env.server.scriptFor("claude model check", { text: "ok" });
		const { isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "claude_code",
			task: "claude model check",
			model: "claude-sonnet-5-5",
			effort: "high",
		});
		expect(isError).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText === "claude model check");
		expect(request).toMatchObject({ model: "claude-sonnet-5-5", effort: "high" });
	});

	it("fails with the provider's message when the model answers HTTP 400", async () => {
		// Claude retries a 400 with fewer beta features, so every request of this task gets the 400.
		const unroute = env.server.route((request) =>
			request.lastUserText === "claude provokes a 400"
				? { error: { status: 400, message: "Fake 400 from the test server" } }
				: undefined,
		);
		try {
			const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
				agent: "reviewer",
				task: "claude provokes a 400",
			});
			expect(isError).toBe(true);
			const run = runOf(result.details);
			expect(run.status).toBe("failed");
			expect(run.error).toBe("API Error: 400 Fake 400 from the test server");
			expect(run.finalAnswer).toBe("");
			expect(textOf(result)).toContain("Fake 400 from the test server");
		} finally {
			unroute();
		}
	});

	it("leaves no process of the group alive after an abort mid-run", async () => {
		const pidDir = join(env.workDir, "claude-abort-pids");
		// Claude's Bash tool blocks long `sleep`s; `tail -f /dev/null` waits just as well.
		const command = pidRecordingCommand(pidDir, "tail -f /dev/null");
		env.server.scriptFor("claude starts sleeping", {
			toolCalls: [{ name: "Bash", arguments: { command, description: "Sleep" } }],
		});
		const controller = new AbortController();
		const call = env.session.callTool<SubagentDetails>(
			"subagent",
			{ agent: "operator", task: "claude starts sleeping", allowed_tools: ["Bash"] },
			controller.signal,
		);
		const { bg, fg } = await recordedPids(pidDir, "the waiting commands to start");
		expect(isAlive(bg) && isAlive(fg)).toBe(true);
		controller.abort();
		const { result } = await call;
		const run = runOf(result.details);
		expect(run.status).toBe("aborted");
		await waitUntil(
			() => !isAlive(bg) && !isAlive(fg) && groupMembers(run.pid as number).length === 0,
			"the group and the command's processes to die",
		);
	});

	it("runs in claude's default permission mode and reports the denied tool call", async () => {
		env.server.scriptFor(
			"claude tries to write",
			{ toolCalls: [{ name: "Bash", arguments: { command: "touch denied-file", description: "Write" } }] },
			(request) => ({ text: `Could not: ${request.lastToolOutput}` }),
		);
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "reviewer",
			task: "claude tries to write",
		});
		expect(isError).toBe(false);
		const run = runOf(result.details);
		expect(run.status).toBe("completed");
		expect(run.permissionDenials).toEqual([
			{
				toolName: "Bash",
				toolCallId: expect.any(String),
				input: { command: "touch denied-file", description: "Write" },
			},
		]);
		expect(run.tools[0]).toMatchObject({ toolName: "Bash", isError: true });
		expect(run.diagnostics.some((line) => line.startsWith("permission denied: Bash"))).toBe(true);
		expect(textOf(result)).toContain('[permission denied for 1 tool call(s): Bash {"command":"touch denied-file"');
		expect(existsSync(join(env.workDir, "denied-file"))).toBe(false);
	});

	it("offers an agent file's tools without approving them: only the call's allowed_tools let a call run unasked (SECURITY.md \"Trust\")", async () => {
		env.server.scriptFor(
			"operator tries unapproved",
			{ toolCalls: [{ name: "Bash", arguments: { command: "touch unapproved-file", description: "Write" } }] },
			(request) => ({ text: `Could not: ${request.lastToolOutput}` }),
		);
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "operator",
			task: "operator tries unapproved",
		});
		expect(isError, textOf(result)).toBe(false);
		const run = runOf(result.details);
		expect(run.command).toContain("--tools=Bash");
		expect(run.command).not.toContain("--allowedTools");
		expect(run.permissionDenials?.map((denial) => denial.toolName)).toEqual(["Bash"]);
		expect(existsSync(join(env.workDir, "unapproved-file"))).toBe(false);
	});
});

describe("claude tool controls", () => {
	it("passes disallowed_tools to the child: Bash is gone from the init event's tool list", async () => {
		const adapter = createClaudeAdapter({ command: () => ({ file: CLAUDE_BIN, args: [] }) });
		env.server.scriptFor("claude lists its tools", { text: "listed" });
		const launch = spec({ task: "claude lists its tools", disallowedTools: ["Bash"] });
		const command = adapter.buildCommand(launch, env.workDir);
		const records: Array<Record<string, unknown>> = [];
		const running = startProcess(
			{
				file: command.file,
				args: command.args,
				cwd: launch.cwd,
				env: applyEnvOverrides(process.env as Record<string, string>, command.env),
				openStdin: true,
			},
			{
				limits: launch.limits,
				onRecord(record) {
					records.push(record as Record<string, unknown>);
					// The turn is over: close stdin, as the run layer does.
					if ((record as { type?: string }).type === "result") running.input?.end();
				},
				onDiagnostic: () => {},
			},
		);
		for (const line of command.conversation?.startLines() ?? []) running.input?.writeLine(line);
		const outcome = await running.done;
		expect(outcome.exitCode).toBe(0);
		const init = records.find((record) => record.type === "system" && record.subtype === "init");
		expect(init?.tools).toEqual(expect.arrayContaining(["Read", "Edit"]));
		expect(init?.tools).not.toContain("Bash");
		const request = env.server.requests.find((r) => r.lastUserText === "claude lists its tools");
		expect(request?.toolNames).not.toContain("Bash");
	});

	it("passes disallowed_tools from a subagent call to the model request", async () => {
		env.server.scriptFor("claude without bash", { text: "no bash here" });
		const { isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "claude_code",
			task: "claude without bash",
			disallowed_tools: ["Bash"],
		});
		expect(isError).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText === "claude without bash");
		expect(request?.toolNames).toContain("Read");
		expect(request?.toolNames).not.toContain("Bash");
	});
});

describe("resuming a claude session", () => {
	it("continues the same session from its cwd and counts only this run's usage", async () => {
		const adapter = createClaudeAdapter({ command: () => ({ file: CLAUDE_BIN, args: [] }) });
		const { first, second, request } = await runTwoTurns(env, adapter, spec, "claude");
		expect(first.status).toBe("completed");
		const sessionId = first.nativeSessionId as string;
		expect(second).toMatchObject({ status: "completed", finalAnswer: "second", nativeSessionId: sessionId });
		expect(second.usage).toMatchObject({ inputTokens: 300, outputTokens: 30, turns: 1 });
		expect(request?.userTexts).toContain("claude first turn");
	});
});

describe("claude output cut off mid-record", () => {
	it("is a protocol failure, never a success", async () => {
		const adapter = createClaudeAdapter({
			command: () => ({
				file: process.execPath,
				args: [
					SCRIPTED_CLI,
					JSON.stringify([
						{ emit: { type: "system", subtype: "init", session_id: "11111111-2222-4333-8444-555555555555" } },
						{
							emit: {
								type: "assistant",
								message: { id: "m1", model: "claude-opus-5-5", content: [{ type: "text", text: "Half an ans" }] },
								session_id: "11111111-2222-4333-8444-555555555555",
							},
						},
						{ raw: '{"type":"result","subtype":"success","is_error":false,"result":"Half an ans' },
					]),
				],
			}),
		});
		const result = await runChild(spec({}), adapter, { env: { ...(process.env as Record<string, string>) } });
		expect(result.status).toBe("failed");
		expect(result.exitCode).toBe(0);
		expect(result.error).toMatch(/^protocol: the child exited with code 0 without a terminal event/);
		expect(result.nativeSessionId).toBe("11111111-2222-4333-8444-555555555555");
		expect(result.finalAnswer).toBe("Half an ans");
		expect(result.finalAnswerWarning).toBeDefined();
		expect(result.diagnostics.some((line) => line.startsWith("protocol fault:"))).toBe(true);
	});
});
