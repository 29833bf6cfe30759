import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LaunchSpec } from "../../../src/core/launch-spec.ts";
import { createClaudeAdapter } from "../../../src/harness/claude/adapter.ts";
import { claudeBypassRefusal, settingSources } from "../../../src/harness/claude/command.ts";
import { launchSpec, resources, validationProblems } from "../../support/launch-spec.ts";
import { tempDirsRemovedAfter } from "../../support/temp-dir.ts";

const tempDir = tempDirsRemovedAfter(afterEach);

const adapter = createClaudeAdapter({ command: () => ({ file: "claude", args: [] }) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const spec = (overrides: Partial<LaunchSpec> = {}): LaunchSpec =>
	launchSpec({ harness: "claude_code", cwd: "/work/tree", ...overrides });

const problemsOf = (launch: LaunchSpec, bypassRefusal?: string): string[] =>
	validationProblems(createClaudeAdapter({ command: () => ({ file: "claude", args: [] }), bypassRefusal }), launch);

describe("claude command line", () => {
	it("offers an allow list that is not the call's own (an agent file's tools) without approving its rules", () => {
		const command = adapter.buildCommand(spec({ allowedTools: ["Read", "Bash(git *)"] }), tempDir("claude-run-"));
		expect(command.args).toContain("--tools=Read,Bash");
		expect(command.args.filter((arg) => arg.startsWith("--allowedTools"))).toEqual([]);
	});

	it("maps each launch field to its claude flag and sends the task on stdin", () => {
		const runDir = tempDir("claude-run-");
		const command = adapter.buildCommand(
			spec({
				model: "claude-opus-5-5",
				effort: "low",
				systemPromptAddition: "--be terse",
				allowedTools: ["Read", "Bash(git *)"],
				approvedTools: ["Read", "Bash(git *)"],
				disallowedTools: ["Write"],
			}),
			runDir,
		);
		expect(command.file).toBe("claude");
		const [p, input, format, verbose, replay, session, ...rest] = command.args;
		expect([p, input, format, verbose, replay]).toEqual([
			"-p",
			"--input-format=stream-json",
			"--output-format=stream-json",
			"--verbose",
			"--replay-user-messages",
		]);
		expect(session).toMatch(/^--session-id=/);
		expect(session?.slice("--session-id=".length)).toMatch(UUID);
		const promptFile = join(runDir, "append-system-prompt.md");
		expect(rest).toEqual([
			"--model=claude-opus-5-5",
			"--effort=low",
			`--append-system-prompt-file=${promptFile}`,
			"--permission-mode=default",
			"--tools=Read,Bash",
			"--allowedTools=Read",
			"--allowedTools=Bash(git *)",
			"--disallowedTools=Write",
			"--setting-sources=user",
		]);
		expect(readFileSync(promptFile, "utf8")).toBe("--be terse");
		expect(command.conversation?.startLines()).toEqual([
			JSON.stringify({ type: "user", message: { role: "user", content: "-@task" } }),
		]);
		expect(command.env).toEqual({});
	});

	it("offers no tools at all for allowed_tools: []", () => {
		expect(adapter.buildCommand(spec({ allowedTools: [] }), "/unused").args).toContain("--tools=");
	});

	it("picks a new session id for every launch", () => {
		const id = () => adapter.buildCommand(spec(), "/unused")?.args[5];
		expect(id()).not.toBe(id());
	});

	it("resumes by id instead of choosing one", () => {
		const args = adapter.buildCommand(spec({ session: { kind: "resume", nativeSessionId: "s-1" } }), "/unused").args;
		expect(args).toContain("--resume=s-1");
		expect(args.some((arg) => arg.startsWith("--session-id"))).toBe(false);
	});

	it("skips permission checks only with auto_approve; otherwise runs in claude's default permission mode", () => {
		const approved = adapter.buildCommand(spec({ autoApprove: true }), "/unused").args;
		expect(approved).toContain("--dangerously-skip-permissions");
		expect(approved.join(" ")).not.toContain("--permission-mode");
		const asking = adapter.buildCommand(spec(), "/unused").args;
		expect(asking).toContain("--permission-mode=default");
		expect(asking.join(" ")).not.toContain("--dangerously-skip-permissions");
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
				projectTrusted: true,
			}),
			"/unused",
		);
		expect(command.args.slice(6)).toEqual([
			"--permission-mode=default",
			"--setting-sources=project,local",
			"--plugin-dir=/p/one",
			"--plugin-dir=/p/two",
			"--strict-mcp-config",
		]);
		expect(command.env).toEqual({ CLAUDE_CODE_DISABLE_CLAUDE_MDS: "1" });
	});

	it("chooses setting sources from the inheritance flags", () => {
		expect(settingSources(resources({}), true)).toBeUndefined();
		expect(settingSources(resources({ inherit_project_resources: false }), true)).toBe("user");
		expect(
			settingSources(resources({ inherit_personal_resources: false, inherit_project_resources: false }), true),
		).toBe("");
	});

	it("loads no project or local settings in a cwd that is not explicitly trusted", () => {
		expect(settingSources(undefined, false)).toBe("user");
		expect(settingSources(resources({}), false)).toBe("user");
		expect(settingSources(resources({ inherit_personal_resources: false }), false)).toBe("");
	});

	it("appends the skill reference block to the verbatim task", () => {
		const command = adapter.buildCommand(spec({ task: "Review.", skillReferences: ["/r/SKILL.md"] }), "/unused");
		const [line] = command.conversation?.startLines() ?? [];
		expect(JSON.parse(line ?? "{}").message.content).toBe(
			'Review.\n\nSelected skill files: read and follow these before doing the assigned task.\n- "/r/SKILL.md"',
		);
	});
});

describe("claude structured results", () => {
	const outputSchema = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };

	it("passes the schema as --json-schema", () => {
		const args = adapter.buildCommand(spec({ outputSchema }), tempDir("claude-run-")).args;
		expect(args).toContain(`--json-schema=${JSON.stringify(outputSchema)}`);
	});

	it("refuses disallowed_tools that exclude StructuredOutput", () => {
		expect(problemsOf(spec({ outputSchema, disallowedTools: ["StructuredOutput"] }))).toEqual([
			"claude_code harness: disallowed_tools: StructuredOutput is how a claude child with output_schema submits its result; it cannot be excluded",
		]);
	});
});

describe("claude validation", () => {
	it("rejects ad-hoc skills, extensions, MCP selections and the home-prompt switch, all at once", () => {
		const problems = problemsOf(
			spec({
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
