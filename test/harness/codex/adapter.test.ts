import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LaunchError } from "../../../src/core/launch-error.ts";
import type { LaunchSpec } from "../../../src/core/launch-spec.ts";
import type { RunEvent } from "../../../src/core/run-event.ts";
import {
	CodexEventParser,
	createCodexAdapter,
	readableError,
	readThreadUsage,
	tomlString,
} from "../../../src/harness/codex/adapter.ts";
import { launchSpec, resources, validationProblems } from "../../support/launch-spec.ts";

const dir = mkdtempSync(join(tmpdir(), "codex-adapter-"));
const adapter = createCodexAdapter({
	command: () => ({ file: "codex", args: [] }),
	codexHome: join(dir, "codex-home"),
});

const spec = (overrides: Partial<LaunchSpec> = {}): LaunchSpec =>
	launchSpec({ harness: "codex", cwd: "/work/tree", ...overrides });

const problemsOf = (launch: LaunchSpec): string[] => validationProblems(adapter, launch);

describe("codex command line", () => {
	it("maps each launch field to its codex flag and sends the task on stdin", () => {
		const command = adapter.buildCommand(
			spec({ model: "gpt-5.5", effort: "high", systemPromptAddition: 'Say "hi"\nthen stop' }),
			dir,
		);
		expect(command.file).toBe("codex");
		expect(command.args).toEqual([
			"exec",
			"--json",
			"--cd=/work/tree",
			"--skip-git-repo-check",
			"--model=gpt-5.5",
			"-c",
			'model_reasoning_effort="high"',
			"-c",
			'developer_instructions="Say \\"hi\\"\\nthen stop"',
			"--sandbox=workspace-write",
			"-",
		]);
		expect(command.stdin).toBe("-@task");
		expect(command.env).toEqual({});
	});

	it("bypasses approvals and the sandbox only with auto_approve", () => {
		const args = adapter.buildCommand(spec({ autoApprove: true }), dir).args;
		expect(args).toContain("--dangerously-bypass-approvals-and-sandbox");
		expect(args.some((arg) => arg.startsWith("--sandbox"))).toBe(false);
	});

	it("resumes a thread by id with the options before the subcommand and an explicit --cd", () => {
		const args = adapter.buildCommand(spec({ session: { kind: "resume", nativeSessionId: "thread-1" } }), dir).args;
		// `--` ends the options: an id is never read as one (e.g. `--last`).
		expect(args.slice(-4)).toEqual(["resume", "--", "thread-1", "-"]);
		expect(args.indexOf("--cd=/work/tree")).toBeLessThan(args.indexOf("resume"));
	});

	it("appends the skill reference block to the verbatim task", () => {
		const command = adapter.buildCommand(
			spec({ task: "Fix it.", skillReferences: ["/s/a/SKILL.md", "/s/b c/SKILL.md"] }),
			dir,
		);
		expect(command.stdin).toBe(
			'Fix it.\n\nSelected skill files: read and follow these before doing the assigned task.\n- "/s/a/SKILL.md"\n- "/s/b c/SKILL.md"',
		);
	});

	it("encodes TOML strings codex can parse, including DEL", () => {
		expect(tomlString("a\u007fb\u0001\\")).toBe('"a\\u007fb\\u0001\\\\"');
	});
});

describe("codex validation", () => {
	it("rejects tool lists it cannot enforce, naming the harness and option", () => {
		expect(problemsOf(spec({ allowedTools: ["read"] }))).toEqual([
			"codex harness: allowed_tools cannot be enforced: codex exec has no tool allow list (use the sandbox instead)",
		]);
		expect(problemsOf(spec({ disallowedTools: ["bash"] }))[0]).toMatch(/^codex harness: disallowed_tools/);
		expect(problemsOf(spec({ disallowedTools: [] }))).toEqual([]);
	});

	it("rejects ad-hoc skills and every resource codex cannot honour, all at once", () => {
		const problems = problemsOf(
			spec({
				resources: resources({
					skills: ["/s/SKILL.md"],
					plugins: ["/p"],
					extensions: ["/e.ts"],
					mcp_servers: [],
					inherit_personal_resources: false,
					inherit_project_resources: false,
					include_instruction_files: false,
					include_home_system_prompt: false,
				}),
			}),
		);
		expect(problems.map((p) => p.split(":")[1]?.trim())).toEqual([
			"resources.skills is not supported for ad-hoc calls or inline roster entries (the native CLI has no per-run skill option); select skills through a normalized agent.json roster entry, which delivers them as prompt references",
			"resources.plugins",
			"resources.extensions",
			"resources.mcp_servers",
			"resources.inherit_personal_resources",
			"resources.inherit_project_resources",
			"resources.include_instruction_files",
			"resources.include_home_system_prompt",
		]);
		expect(() => adapter.buildCommand(spec({ resources: resources({ plugins: ["/p"] }) }), dir)).toThrow(LaunchError);
	});

	it("accepts default resources and skill references of a normalized child", () => {
		expect(problemsOf(spec({ resources: resources({}), skillReferences: ["/s/SKILL.md"] }))).toEqual([]);
	});

	it("rejects an agent body too large for one argument", () => {
		expect(problemsOf(spec({ systemPromptAddition: "x".repeat(140_000) }))[0]).toMatch(
			/^codex harness: the agent body is \d+ bytes once encoded/,
		);
	});
});

function parseAll(parser: CodexEventParser, records: unknown[]): RunEvent[] {
	return records.flatMap((record) => parser.parse(record));
}

describe("codex events", () => {
	it("maps a tool turn: thread id, command start and end, answer, usage and the terminal event", () => {
		const events = parseAll(new CodexEventParser(), [
			{ type: "thread.started", thread_id: "01a2-thread" },
			{ type: "turn.started" },
			{ type: "item.completed", item: { id: "item_0", type: "reasoning", text: "**Deciding**" } },
			{
				type: "item.started",
				item: {
					id: "item_1",
					type: "command_execution",
					command: "/bin/bash -lc 'echo hi'",
					aggregated_output: "",
					exit_code: null,
					status: "in_progress",
				},
			},
			{
				type: "item.completed",
				item: {
					id: "item_1",
					type: "command_execution",
					command: "/bin/bash -lc 'echo hi'",
					aggregated_output: "hi\n",
					exit_code: 0,
					status: "completed",
				},
			},
			{ type: "item.completed", item: { id: "item_2", type: "agent_message", text: "The command printed: hi" } },
			{
				type: "turn.completed",
				usage: { input_tokens: 2003, cached_input_tokens: 200, cache_write_input_tokens: 0, output_tokens: 84 },
			},
		]);
		expect(events).toEqual([
			{ type: "session", nativeSessionId: "01a2-thread" },
			{ type: "thinking", text: "**Deciding**" },
			{
				type: "tool_start",
				toolCallId: "item_1",
				toolName: "command_execution",
				args: { command: "/bin/bash -lc 'echo hi'" },
			},
			{ type: "tool_end", toolCallId: "item_1", toolName: "command_execution", output: "hi\n", isError: false },
			{ type: "assistant_text", text: "The command printed: hi", final: true },
			{
				type: "usage",
				usage: { inputTokens: 1803, cacheReadTokens: 200, cacheWriteTokens: 0, outputTokens: 84, turns: 1 },
			},
			{ type: "done", status: "completed" },
		]);
	});

	it("reports no cost: codex does not say what a turn cost", () => {
		const [usage] = parseAll(new CodexEventParser(), [{ type: "turn.completed", usage: { input_tokens: 5 } }]);
		expect(usage?.type === "usage" && usage.usage.costUsd).toBeUndefined();
	});

	it("turns the thread's cumulative usage into this run's delta on resume", () => {
		const parser = new CodexEventParser({
			threadId: "t",
			baseline: { input_tokens: 1003, cached_input_tokens: 3, output_tokens: 42 },
		});
		const [session, usage] = parseAll(parser, [
			{ type: "thread.started", thread_id: "t" },
			{ type: "turn.completed", usage: { input_tokens: 2007, cached_input_tokens: 7, output_tokens: 84 } },
		]);
		expect(session).toEqual({ type: "session", nativeSessionId: "t" });
		expect(usage).toMatchObject({ usage: { inputTokens: 1000, cacheReadTokens: 4, outputTokens: 42, turns: 1 } });
	});

	it("fails a resume that silently started a new thread", () => {
		const events = parseAll(new CodexEventParser({ threadId: "old", baseline: undefined }), [
			{ type: "thread.started", thread_id: "new" },
		]);
		expect(events.at(-1)).toEqual({
			type: "done",
			status: "failed",
			error: "codex started a new thread new instead of resuming old",
		});
	});

	it("maps turn.failed to a failure with the provider's message out of the JSON body", () => {
		const body = JSON.stringify({ error: { message: "Fake 400", type: "invalid_request_error", code: null } });
		const events = parseAll(new CodexEventParser(), [
			{ type: "error", message: body },
			{ type: "turn.failed", error: { message: body } },
		]);
		expect(events).toEqual([
			{ type: "error", message: "Fake 400 (invalid_request_error)" },
			{ type: "error", message: "Fake 400 (invalid_request_error)" },
			{ type: "done", status: "failed", error: "Fake 400 (invalid_request_error)" },
		]);
	});

	it("keeps reconnect errors non-terminal and error items as diagnostics", () => {
		const events = parseAll(new CodexEventParser(), [
			{ type: "error", message: "Reconnecting... waiting for network" },
			{ type: "item.completed", item: { id: "item_0", type: "error", message: "Model metadata not found" } },
		]);
		expect(events).toEqual([
			{ type: "error", message: "Reconnecting... waiting for network" },
			{ type: "diagnostic", message: "codex: Model metadata not found" },
		]);
	});

	it("maps file changes, MCP calls, web searches and todo lists to tool activity", () => {
		const events = parseAll(new CodexEventParser(), [
			{
				type: "item.completed",
				item: { id: "a", type: "file_change", changes: [{ path: "/w/x.txt", kind: "add" }], status: "completed" },
			},
			{
				type: "item.completed",
				item: {
					id: "b",
					type: "mcp_tool_call",
					server: "fake",
					tool: "ping",
					arguments: { text: "hi" },
					result: null,
					error: { message: "MCP tool call requires approval" },
					status: "failed",
				},
			},
			{ type: "item.completed", item: { id: "c", type: "web_search", query: "vitest" } },
			{
				type: "item.completed",
				item: { id: "d", type: "todo_list", items: [{ text: "Write", completed: true }] },
			},
		]);
		const ends = events.filter((event) => event.type === "tool_end");
		expect(ends).toEqual([
			{ type: "tool_end", toolCallId: "a", toolName: "file_change", output: "add /w/x.txt", isError: false },
			{
				type: "tool_end",
				toolCallId: "b",
				toolName: "mcp:fake/ping",
				output: "MCP tool call requires approval",
				isError: true,
			},
			{ type: "tool_end", toolCallId: "c", toolName: "web_search", output: "", isError: false },
			{ type: "tool_end", toolCallId: "d", toolName: "todo_list", output: "[x] Write", isError: false },
		]);
		expect(events.filter((event) => event.type === "tool_start")).toHaveLength(4);
	});

	it("marks a failing command as an error", () => {
		const [, end] = parseAll(new CodexEventParser(), [
			{
				type: "item.completed",
				item: {
					id: "x",
					type: "command_execution",
					command: "false",
					aggregated_output: "",
					exit_code: 2,
					status: "failed",
				},
			},
		]);
		expect(end).toMatchObject({ type: "tool_end", isError: true });
	});
});

describe("codex usage baseline of a resumed thread", () => {
	it("reads the last cumulative total from the thread's rollout file", () => {
		const home = join(dir, "home-with-rollout");
		const day = join(home, "sessions", "2026", "11", "29");
		mkdirSync(day, { recursive: true });
		const tokenCount = (input: number) =>
			JSON.stringify({
				type: "event_msg",
				payload: { type: "token_count", info: { total_token_usage: { input_tokens: input, output_tokens: 1 } } },
			});
		writeFileSync(
			join(day, "rollout-2026-11-29T23-00-00-thread-9.jsonl"),
			`${tokenCount(100)}\n${tokenCount(300)}\n{"type":"event_msg","payl`,
		);
		expect(readThreadUsage(home, "thread-9")).toEqual({ input_tokens: 300, output_tokens: 1 });
		expect(readThreadUsage(home, "other-thread")).toBeUndefined();
		expect(readThreadUsage(join(dir, "no-such-home"), "thread-9")).toBeUndefined();
	});
});

describe("codex error text", () => {
	it("leaves plain messages alone", () => {
		expect(readableError("stream disconnected before completion")).toBe("stream disconnected before completion");
		expect(readableError("status 400: {not json")).toBe("status 400: {not json");
	});
});
