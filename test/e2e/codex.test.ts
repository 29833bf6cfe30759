/**
 * Real codex children (codex-cli 0.171.0 from node_modules) against the fake model server, through the
 * `subagent` tool in a real Pi session, plus adapter-level runs for what the tool cannot set up (an
 * unreachable endpoint with a short wall-clock timeout).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { LaunchSpec } from "../../src/core/launch-spec.ts";
import { createCodexAdapter } from "../../src/harness/codex/adapter.ts";
import { runChild } from "../../src/runs/run-child.ts";
import { LAUNCH_RECORD_TYPE, type LaunchRecord } from "../../src/sessions/launch-record.ts";
import { createCodexHome } from "../support/codex-home.ts";
import { type E2eEnv, runOf, runTwoTurns, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";
import { writeJson } from "../support/files.ts";
import { nativeLaunchSpec } from "../support/launch-spec.ts";
import { CODEX_BIN } from "../support/native-homes.ts";
import { groupMembers, isAlive, processesMatching, waitUntil } from "../support/processes.ts";
import { expectRefused } from "../support/refusals.ts";

let env: E2eEnv;
let rosterSkills: string[];

/** A normalized roster whose codex child selects a skill directory and a single skill file. */
function writeRoster(root: string): string {
	writeJson(join(root, "lead/agent.json"), {
		agent: { name: "lead", description: "Leads", agent_type: "pi", model: "fake/fake-model", effort: "low" },
		roster: { enabled: true, roles: [{ agent_file: "../implementer/agent.json" }] },
	});
	writeJson(join(root, "implementer/agent.json"), {
		agent: {
			name: "implementer",
			description: "Implements with codex",
			agent_type: "codex",
			model: "gpt-5.5",
			effort: "low",
			resources: { skills: ["./skills", "./extra/tdd.md"] },
		},
		roster: { enabled: false, roles: [] },
	});
	for (const name of ["review", "style"]) {
		mkdirSync(join(root, "implementer/skills", name), { recursive: true });
		writeFileSync(join(root, "implementer/skills", name, "SKILL.md"), `# ${name}\n`);
	}
	mkdirSync(join(root, "implementer/extra"), { recursive: true });
	writeFileSync(join(root, "implementer/extra/tdd.md"), "# tdd\n");
	rosterSkills = [
		join(root, "implementer/extra/tdd.md"),
		join(root, "implementer/skills/review/SKILL.md"),
		join(root, "implementer/skills/style/SKILL.md"),
	];
	return join(root, "lead/agent.json");
}

beforeAll(async () => {
	env = await startE2eEnv({
		nativeHomes: true,
		agents: {
			coder: { description: "Codes with codex", body: "CODER-BODY: you write code.", fields: { harness: "codex" } },
			"listed-tools": {
				description: "A codex agent with a tool list codex cannot enforce",
				body: "x",
				tools: ["read"],
				fields: { harness: "codex" },
			},
		},
	});
	process.env.PI_AGENTSHELL_ROSTER_FILE = writeRoster(join(env.home.dir, "rosters"));
	env.session.dispose();
	env.session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
});
afterAll(async () => {
	delete process.env.PI_AGENTSHELL_ROSTER_FILE;
	await env?.close();
});

const launch = (overrides: Partial<LaunchSpec>): LaunchSpec =>
	nativeLaunchSpec({ harness: "codex", cwd: env.workDir, ...overrides });

describe("a real codex child", () => {
	it("answers in plain text with its thread id, usage and the agent body as developer instructions", async () => {
		env.server.scriptFor("codex says hello", {
			text: "Hello from codex",
			usage: { input: 1200, output: 40, cacheRead: 200 },
		});
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "coder",
			task: "codex says hello",
		});
		expect(isError).toBe(false);
		const run = runOf(result.details);
		expect(textOf(result)).toBe(`Hello from codex\n\nsession: ${run.nativeSessionId} (resume with resume_session_id)`);
		expect(run).toMatchObject({ status: "completed", harness: "codex", finalAnswer: "Hello from codex", tools: [] });
		expect(run.nativeSessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
		expect(run.usage).toMatchObject({ inputTokens: 1200, cacheReadTokens: 200, outputTokens: 40, turns: 1 });
		expect(run.usage.costUsd).toBeUndefined();
		const request = env.server.requests.find((r) => r.lastUserText === "codex says hello");
		expect(request?.protocol).toBe("openai-responses");
		expect(request?.roles).toContain("developer");
		expect(request?.systemPrompt).toContain("CODER-BODY: you write code.");
	});

	it("runs a shell command and reports it as tool activity in details", async () => {
		env.server.scriptFor(
			"codex runs a command",
			{ toolCalls: [{ name: "exec_command", arguments: { cmd: "echo codex-tool-42" } }] },
			(request) => ({ text: `The command said ${/codex-tool-42/.exec(request.lastToolOutput ?? "")?.[0]}` }),
		);
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "coder",
			task: "codex runs a command",
		});
		expect(isError).toBe(false);
		const run = runOf(result.details);
		expect(run.finalAnswer).toBe("The command said codex-tool-42");
		expect(run.tools).toHaveLength(1);
		expect(run.tools[0]).toMatchObject({ toolName: "command_execution", pending: false, isError: false });
		expect(JSON.stringify(run.tools[0].args)).toContain("echo codex-tool-42");
		expect(run.tools[0].output).toBe("codex-tool-42\n");
		expect(run.nativeSessionId).toBeDefined();
		expect(run.usage.inputTokens).toBeGreaterThan(0);
		expect(env.server.requests.filter((r) => r.lastUserText === "codex runs a command")).toHaveLength(2);
	});

	it("sends the model and effort to the model", async () => {
		env.server.scriptFor("codex model check", { text: "ok" });
		const { isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "codex",
			task: "codex model check",
			model: "gpt-6-sol",
			effort: "high",
		});
		expect(isError).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText === "codex model check");
		expect(request).toMatchObject({ model: "gpt-6-sol", effort: "high" });
	});

	it("fails with the provider's message when the model answers HTTP 400", async () => {
		env.server.scriptFor("codex provokes a 400", {
			error: { status: 400, message: "Fake 400 from the test server" },
		});
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "coder",
			task: "codex provokes a 400",
		});
		expect(isError).toBe(true);
		const run = runOf(result.details);
		expect(run.status).toBe("failed");
		expect(run.error).toBe("Fake 400 from the test server (invalid_request_error)");
		expect(run.exitCode).toBe(1);
		expect(textOf(result)).toContain("Fake 400 from the test server");
	});

	it("counts the usage of a turn that failed after a tool call", async () => {
		env.server.scriptFor(
			"codex spends then fails",
			{ toolCalls: [{ name: "exec_command", arguments: { cmd: "echo spent" } }], usage: { input: 1000, output: 77 } },
			{ error: { status: 400, message: "second request refused" } },
		);
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "coder",
			task: "codex spends then fails",
		});
		expect(isError).toBe(true);
		const run = runOf(result.details);
		expect(run.status).toBe("failed");
		expect(run.usage.inputTokens + run.usage.cacheReadTokens).toBe(1000);
		expect(run.usage.outputTokens).toBe(77);
		expect(result.usage?.output).toBe(77);
	});

	it("keeps an agent's developer instructions once when its thread is resumed", async () => {
		env.server.scriptFor("coder first", { text: "ok" });
		const first = await env.session.callTool<SubagentDetails>("subagent", { agent: "coder", task: "coder first" });
		const id = runOf(first.result.details).nativeSessionId as string;
		env.server.scriptFor("coder again", { text: "ok again" });
		const second = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: id,
			task: "coder again",
		});
		expect(second.isError, textOf(second.result)).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText === "coder again");
		expect(request?.systemPrompt.split("CODER-BODY").length).toBe(2);
	});

	it("fails a resume when codex starts a new thread instead of the requested one", async () => {
		env.server.scriptFor("resume a thread by name", { text: "fresh thread answered" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "codex",
			resume_session_id: "not-a-known-thread",
			task: "resume a thread by name",
		});
		expect(isError).toBe(true);
		const run = runOf(result.details);
		expect(run.status).toBe("failed");
		expect(run.error).toContain("instead of resuming not-a-known-thread");
	});

	it("leaves no process of the group alive after an abort mid-run", async () => {
		// Commands run in codex's bwrap sandbox, a PID namespace: find them by command line, not by $$ / $!.
		const cmd = "sleep 7340001 & exec sleep 7340002";
		env.server.scriptFor("codex starts sleeping", { toolCalls: [{ name: "exec_command", arguments: { cmd } }] });
		const controller = new AbortController();
		const call = env.session.callTool<SubagentDetails>(
			"subagent",
			{ agent: "coder", task: "codex starts sleeping" },
			controller.signal,
		);
		const sleeps = /^sleep 734000[12]$/;
		await waitUntil(() => processesMatching(sleeps).length === 2, "both sleeps to start");
		const sandbox = processesMatching(`--sandbox-policy-cwd ${env.workDir}`);
		expect(sandbox.length).toBeGreaterThan(0);
		controller.abort();
		const { result } = await call;
		const run = runOf(result.details);
		expect(run.status).toBe("aborted");
		await waitUntil(
			() =>
				groupMembers(run.pid as number).length === 0 &&
				processesMatching(sleeps).length === 0 &&
				sandbox.every((pid) => !isAlive(pid)),
			"codex, its sandbox and the command's processes to die",
		);
	});

	it("leaves no command process alive after an abort with auto_approve (no sandbox: commands get their own sessions)", async () => {
		const cmd = "sleep 7350001 & exec sleep 7350002";
		env.server.scriptFor("codex sleeps unsandboxed", { toolCalls: [{ name: "exec_command", arguments: { cmd } }] });
		const controller = new AbortController();
		const call = env.session.callTool<SubagentDetails>(
			"subagent",
			{ agent: "coder", task: "codex sleeps unsandboxed", auto_approve: true },
			controller.signal,
		);
		const sleeps = /^sleep 735000[12]$/;
		await waitUntil(() => processesMatching(sleeps).length === 2, "both sleeps to start");
		controller.abort();
		const { result } = await call;
		const run = runOf(result.details);
		expect(run.status).toBe("aborted");
		await waitUntil(
			() => groupMembers(run.pid as number).length === 0 && processesMatching(sleeps).length === 0,
			"codex and the command's processes to die",
		);
	});

	it("delivers a 300 KB task starting with - byte for byte", async () => {
		const unit = "codex line with @file and --flag and ünïcödé ✓\n";
		const task = `-${unit.repeat(Math.ceil(300_000 / Buffer.byteLength(unit))).trimEnd()}`;
		env.server.scriptFor("codex line with @file", { text: "received" });
		const { isError } = await env.session.callTool<SubagentDetails>("subagent", { agent: "coder", task });
		expect(isError).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText.startsWith("-codex line with @file"));
		expect(request?.lastUserText === task).toBe(true);
	});

	it("rejects tool lists on codex before launch, naming the harness and the option", async () => {
		const before = env.server.requests.length;
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "codex",
			task: "never sent",
			allowed_tools: ["read"],
		});
		expect(isError).toBe(true);
		expect(textOf(result)).toContain("nothing was started");
		expect(textOf(result)).toContain("codex harness: allowed_tools cannot be enforced");
		expect(result.details.children).toEqual([]);
		expect(env.server.requests.length).toBe(before);
	});

	it("names the agent file when its tools: field cannot be enforced by codex", async () => {
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "listed-tools",
			task: "never sent",
		});
		expect(isError).toBe(true);
		expect(textOf(result)).toContain(
			`agent "listed-tools" (${join(env.home.agentDir, "agents/listed-tools.md")}): codex harness: allowed_tools cannot be enforced`,
		);
	});
});

describe("selected skills of a codex child", () => {
	it("sends a normalized roster child's skills to the model as a reference block after the task", async () => {
		env.server.scriptFor("implement the export", { text: "implemented" });
		const { isError } = await env.session.callTool<SubagentDetails>("subagent", {
			roster_entry: "implementer",
			task_name: "Export",
			task: "implement the export",
		});
		expect(isError).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText.startsWith("implement the export"));
		expect(request?.lastUserText).toBe(
			[
				"implement the export",
				"",
				"Selected skill files: read and follow these before doing the assigned task.",
				...rosterSkills.map((file) => `- ${JSON.stringify(file)}`),
			].join("\n"),
		);
		expect(request).toMatchObject({ model: "gpt-5.5", effort: "low" });
	});

	it("records the entry's full skill selection, so a resume given the entry's own resources is accepted", async () => {
		env.server.scriptFor("own the export", { text: "owned" });
		const first = await env.session.callTool<SubagentDetails>("subagent", {
			roster_entry: "implementer",
			task: "own the export",
		});
		expect(first.isError, textOf(first.result)).toBe(false);
		const id = runOf(first.result.details).nativeSessionId as string;
		const record = env.session
			.branch()
			.find((e) => e.customType === LAUNCH_RECORD_TYPE && (e.data as LaunchRecord).nativeSessionId === id)
			?.data as LaunchRecord;
		const rosterDir = join(env.home.dir, "rosters");
		const selected = [join(rosterDir, "implementer/skills"), join(rosterDir, "implementer/extra/tdd.md")];
		expect(record.resources?.skills).toEqual(selected);
		env.server.scriptFor("continue the export", { text: "continued" });
		const resumed = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: id,
			task: "continue the export",
			resources: { skills: selected },
		});
		expect(resumed.isError, textOf(resumed.result)).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText.startsWith("continue the export"));
		expect(request?.lastUserText).toContain(`- ${JSON.stringify(rosterSkills[0])}`);
	});

	it("rejects the same skills on an ad-hoc codex call before launch", async () => {
		await expectRefused(
			env,
			{
				agent_type: "codex",
				task: "never sent",
				resources: { skills: [rosterSkills[0]] },
			},
			"codex harness: resources.skills is not supported for ad-hoc calls",
		);
	});
});

describe("resuming a codex thread", () => {
	it("continues the same thread and counts only this run's usage", async () => {
		const native = env.native;
		if (!native) throw new Error("nativeHomes not set");
		const adapter = createCodexAdapter({
			command: () => ({ file: CODEX_BIN, args: [] }),
			codexHome: native.codex.codexHome,
		});
		const { first, second, request } = await runTwoTurns(env, adapter, launch, "codex");
		expect(first.status).toBe("completed");
		const threadId = first.nativeSessionId as string;
		expect(second).toMatchObject({ status: "completed", finalAnswer: "second", nativeSessionId: threadId });
		expect(second.usage).toMatchObject({ inputTokens: 300, outputTokens: 30, turns: 1 });
		expect(request?.userTexts).toContain("codex first turn");
	});
});

/** A TCP port on 127.0.0.1 with nothing listening (bound, then released). */
async function deadPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

describe("codex against an unreachable model endpoint", () => {
	it("times out cleanly at the wall-clock limit and leaves nothing alive", async () => {
		const home = createCodexHome({ baseUrl: `http://127.0.0.1:${await deadPort()}/v1` });
		const workDir = join(home.dir, "work");
		mkdirSync(workDir);
		const spec = launch({
			task: "nobody will answer",
			cwd: workDir,
			limits: { ...launch({}).limits, timeoutMs: 3_000 },
		});
		const adapter = createCodexAdapter({ command: () => ({ file: CODEX_BIN, args: [] }), codexHome: home.codexHome });
		try {
			const result = await runChild(spec, adapter, {
				env: { ...(process.env as Record<string, string>), ...home.env },
			});
			// Ended by the limit, not before it (codex never gives up on the endpoint by itself: the test's own
			// timeout is what catches a limit that does not fire; no upper bound on a loaded machine).
			expect(result.status).toBe("timed_out");
			expect(result.error).toMatch(/^timed out after \d+ ms \(the limit is 3000 ms, setting limits\.timeout_ms\)/);
			expect(result.durationMs).toBeGreaterThanOrEqual(3_000);
			expect(result.nativeSessionId).toBeDefined();
			await waitUntil(() => groupMembers(result.pid as number).length === 0, "the codex group to die");
		} finally {
			await home.cleanup();
		}
	});
});
