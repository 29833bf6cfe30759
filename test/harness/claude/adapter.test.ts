import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LaunchSpec } from "../../../src/core/launch-spec.ts";
import type { RunEvent } from "../../../src/core/run-event.ts";
import {
	ClaudeEventParser,
	claudeBypassRefusal,
	createClaudeAdapter,
	settingSources,
} from "../../../src/harness/claude/adapter.ts";
import { launchSpec, resources, validationProblems } from "../../support/launch-spec.ts";

const adapter = createClaudeAdapter({ command: () => ({ file: "claude", args: [] }) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const spec = (overrides: Partial<LaunchSpec> = {}): LaunchSpec =>
	launchSpec({ harness: "claude_code", cwd: "/work/tree", ...overrides });

const problemsOf = (launch: LaunchSpec, bypassRefusal?: string): string[] =>
	validationProblems(createClaudeAdapter({ command: () => ({ file: "claude", args: [] }), bypassRefusal }), launch);

describe("claude command line", () => {
	it("maps each launch field to its claude flag and sends the task on stdin", () => {
		const runDir = mkdtempSync(join(tmpdir(), "claude-run-"));
		const command = adapter.buildCommand(
			spec({
				model: "claude-opus-5-5",
				effort: "low",
				systemPromptAddition: "--be terse",
				allowedTools: ["Read", "Bash(git *)"],
				disallowedTools: ["Write"],
			}),
			runDir,
		);
		expect(command.file).toBe("claude");
		const [p, format, verbose, session, ...rest] = command.args;
		expect([p, format, verbose]).toEqual(["-p", "--output-format=stream-json", "--verbose"]);
		expect(session).toMatch(/^--session-id=/);
		expect(session?.slice("--session-id=".length)).toMatch(UUID);
		const promptFile = join(runDir, "append-system-prompt.md");
		expect(rest).toEqual([
			"--model=claude-opus-5-5",
			"--effort=low",
			`--append-system-prompt-file=${promptFile}`,
			"--allowedTools=Read",
			"--allowedTools=Bash(git *)",
			"--disallowedTools=Write",
		]);
		expect(readFileSync(promptFile, "utf8")).toBe("--be terse");
		expect(command.stdin).toBe("-@task");
		expect(command.env).toEqual({});
	});

	it("picks a new session id for every launch", () => {
		const id = () => adapter.buildCommand(spec(), "/unused")?.args[3];
		expect(id()).not.toBe(id());
	});

	it("resumes by id instead of choosing one", () => {
		const args = adapter.buildCommand(spec({ session: { kind: "resume", nativeSessionId: "s-1" } }), "/unused").args;
		expect(args).toContain("--resume=s-1");
		expect(args.some((arg) => arg.startsWith("--session-id"))).toBe(false);
	});

	it("skips permission checks only with auto_approve", () => {
		expect(adapter.buildCommand(spec({ autoApprove: true }), "/unused").args).toContain(
			"--dangerously-skip-permissions",
		);
		expect(adapter.buildCommand(spec(), "/unused").args.join(" ")).not.toContain("permission");
	});

	it("maps plugins, mcp_servers: [], inheritance and instruction files to claude's flags and variables", () => {
		const command = adapter.buildCommand(
			spec({
				resources: resources({
					plugins: ["/p/one", "/p/two"],
					mcp_servers: [],
					inherit_personal_resources: false,
					include_instruction_files: false,
				}),
			}),
			"/unused",
		);
		expect(command.args.slice(4)).toEqual([
			"--plugin-dir=/p/one",
			"--plugin-dir=/p/two",
			"--strict-mcp-config",
			"--setting-sources=project,local",
		]);
		expect(command.env).toEqual({ CLAUDE_CODE_DISABLE_CLAUDE_MDS: "1" });
	});

	it("chooses setting sources from the inheritance flags", () => {
		expect(settingSources(resources({}))).toBeUndefined();
		expect(settingSources(resources({ inherit_project_resources: false }))).toBe("user");
		expect(settingSources(resources({ inherit_personal_resources: false, inherit_project_resources: false }))).toBe("");
	});

	it("appends the skill reference block to the verbatim task", () => {
		const command = adapter.buildCommand(spec({ task: "Review.", skillReferences: ["/r/SKILL.md"] }), "/unused");
		expect(command.stdin).toBe(
			'Review.\n\nSelected skill files: read and follow these before doing the assigned task.\n- "/r/SKILL.md"',
		);
	});
});

describe("claude validation", () => {
	it("rejects ad-hoc skills, extensions, MCP selections and the home-prompt switch, all at once", () => {
		const problems = problemsOf(
			spec({
				allowedTools: [],
				resources: resources({
					skills: ["/s"],
					extensions: ["/e.ts"],
					packages: ["pkg"],
					mcp_servers: ["srv"],
					include_home_system_prompt: false,
				}),
			}),
		);
		expect(problems.map((p) => p.split(":").slice(0, 2).join(":"))).toEqual([
			"claude_code harness: allowed_tools",
			"claude_code harness: resources.skills is not supported for ad-hoc calls or inline roster entries (the native CLI has no per-run skill option); select skills through a normalized agent.json roster entry, which delivers them as prompt references",
			"claude_code harness: resources.extensions",
			"claude_code harness: resources.packages",
			"claude_code harness: resources.mcp_servers",
			"claude_code harness: resources.include_home_system_prompt",
		]);
	});

	it("rejects an effort outside claude's levels, which claude itself would silently accept", () => {
		expect(problemsOf(spec({ effort: "hgih" }))).toEqual([
			'claude_code harness: effort "hgih" is not a claude effort level (low, medium, high, xhigh, max)',
		]);
		expect(problemsOf(spec({ effort: "xhigh" }))).toEqual([]);
	});

	it("rejects auto_approve where claude would refuse to bypass permissions", () => {
		const refusal = claudeBypassRefusal({}, 0);
		expect(refusal).toContain("IS_SANDBOX=1");
		expect(problemsOf(spec({ autoApprove: true }), refusal)).toEqual([`claude_code harness: auto_approve: ${refusal}`]);
		expect(claudeBypassRefusal({ IS_SANDBOX: "1" }, 0)).toBeUndefined();
		expect(claudeBypassRefusal({ IS_SANDBOX: "yes" }, 0)).toContain(
			'IS_SANDBOX=1 is set in the environment (it is "yes"',
		);
		expect(claudeBypassRefusal({ IS_SANDBOX: "true" }, 0)).toContain("IS_SANDBOX=1");
		expect(claudeBypassRefusal({}, 1000)).toBeUndefined();
	});
});

function parseAll(records: unknown[]): RunEvent[] {
	const parser = new ClaudeEventParser();
	return records.flatMap((record) => parser.parse(record));
}

const SESSION = "af6fe0d8-0000-4000-8000-000000000000";
const assistant = (id: string, block: unknown, extra: Record<string, unknown> = {}) => ({
	type: "assistant",
	message: {
		id,
		model: "claude-opus-5-5",
		content: [block],
		usage: { input_tokens: 900, cache_read_input_tokens: 50, cache_creation_input_tokens: 0, output_tokens: 1 },
	},
	parent_tool_use_id: null,
	session_id: SESSION,
	...extra,
});
const result = (extra: Record<string, unknown>) => ({
	type: "result",
	subtype: "success",
	is_error: false,
	num_turns: 2,
	session_id: SESSION,
	total_cost_usd: 0.0107,
	usage: { input_tokens: 1809, cache_read_input_tokens: 50, cache_creation_input_tokens: 7, output_tokens: 66 },
	permission_denials: [],
	...extra,
});

describe("claude events", () => {
	it("assembles per-block assistant records into messages, with tool activity, usage and cost from result", () => {
		const events = parseAll([
			{ type: "system", subtype: "init", session_id: SESSION, tools: ["Bash"], model: "claude-opus-5-5" },
			assistant("msg_1", { type: "thinking", thinking: "plan" }),
			assistant("msg_1", { type: "text", text: "I will call " }),
			assistant("msg_1", { type: "text", text: "Bash." }),
			assistant("msg_1", { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "echo hi" } }),
			{
				type: "user",
				message: {
					role: "user",
					content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "hi", is_error: false }],
				},
				parent_tool_use_id: null,
				session_id: SESSION,
			},
			assistant("msg_2", { type: "text", text: "The command printed: hi." }),
			result({ result: "The command printed: hi." }),
		]);
		const model = "claude-opus-5-5";
		expect(events).toEqual([
			{ type: "session", nativeSessionId: SESSION },
			{ type: "thinking", text: "plan" },
			{ type: "assistant_text", text: "I will call ", final: false, model },
			{ type: "assistant_text", text: "Bash.", final: false, model },
			{ type: "tool_start", toolCallId: "toolu_1", toolName: "Bash", args: { command: "echo hi" } },
			{ type: "assistant_text", text: "I will call Bash.", final: true, model },
			{ type: "tool_end", toolCallId: "toolu_1", toolName: "Bash", output: "hi", isError: false },
			{ type: "assistant_text", text: "The command printed: hi.", final: false, model },
			{ type: "assistant_text", text: "The command printed: hi.", final: true, model },
			{
				type: "usage",
				model,
				usage: {
					inputTokens: 1809,
					outputTokens: 66,
					cacheReadTokens: 50,
					cacheWriteTokens: 7,
					costUsd: 0.0107,
					contextTokens: 950,
					turns: 2,
				},
			},
			{ type: "done", status: "completed" },
		]);
	});

	it("takes the answer from result when no assistant text came before it, and never twice", () => {
		const only = parseAll([result({ result: "from result" })]).filter((e) => e.type === "assistant_text");
		expect(only).toEqual([{ type: "assistant_text", text: "from result", final: true }]);
		const both = parseAll([
			assistant("m1", { type: "text", text: "streamed answer" }),
			result({ result: "streamed answer" }),
		]).filter((e) => e.type === "assistant_text" && e.final);
		expect(both).toEqual([{ type: "assistant_text", text: "streamed answer", final: true, model: "claude-opus-5-5" }]);
	});

	it("fails on is_error even when the subtype says success, with claude's API error text", () => {
		const events = parseAll([
			{
				type: "assistant",
				message: {
					id: "x",
					model: "<synthetic>",
					content: [{ type: "text", text: "API Error: 400 Fake 400 from test server" }],
				},
				error: "unknown",
				session_id: SESSION,
			},
			result({ is_error: true, api_error_status: 400, result: "API Error: 400 Fake 400 from test server" }),
		]);
		expect(events.filter((e) => e.type === "assistant_text")).toEqual([]);
		expect(events.at(-1)).toEqual({
			type: "done",
			status: "failed",
			error: "API Error: 400 Fake 400 from test server",
		});
	});

	it("fails an error subtype with its errors", () => {
		const events = parseAll([
			result({
				subtype: "error_during_execution",
				is_error: true,
				errors: ["No conversation found with session ID: 0000"],
			}),
		]);
		expect(events.at(-1)).toEqual({
			type: "done",
			status: "failed",
			error: "No conversation found with session ID: 0000",
		});
	});

	it("reports permission denials", () => {
		const events = parseAll([
			result({
				permission_denials: [{ tool_name: "Bash", tool_use_id: "toolu_9", tool_input: { command: "touch x" } }],
			}),
		]);
		expect(events.filter((e) => e.type === "permission_denied")).toEqual([
			{ type: "permission_denied", denial: { toolName: "Bash", toolCallId: "toolu_9", input: { command: "touch x" } } },
		]);
		expect(events.at(-1)).toEqual({ type: "done", status: "completed" });
	});

	it("skips sub-agent records and reports API retries as diagnostics", () => {
		const events = parseAll([
			assistant("sub", { type: "text", text: "inner" }, { parent_tool_use_id: "toolu_task" }),
			{ type: "system", subtype: "api_retry", attempt: 1, max_retries: 10, error: "unknown", session_id: SESSION },
		]);
		expect(events).toEqual([
			{ type: "session", nativeSessionId: SESSION },
			{ type: "diagnostic", message: "claude: API retry 1/10 (unknown)" },
		]);
	});
});
