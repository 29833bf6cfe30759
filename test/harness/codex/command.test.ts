import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { LaunchSpec } from "../../../src/core/launch-spec.ts";
import { createCodexAdapter } from "../../../src/harness/codex/adapter.ts";
import { tomlString } from "../../../src/harness/codex/command.ts";
import { launchSpec, resources, validationProblems } from "../../support/launch-spec.ts";
import { releaseDirectories } from "../../support/teardown.ts";
import { makeTempDir, tempDirsRemovedAfter } from "../../support/temp-dir.ts";

const tempDir = tempDirsRemovedAfter(afterEach);

const dir = makeTempDir("codex-adapter-");
afterAll(() => releaseDirectories([dir]));
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
			"--skip-git-repo-check",
			"--cd=/work/tree",
			"--model=gpt-5.5",
			"-c",
			'model_reasoning_effort="high"',
			"-c",
			'developer_instructions="Say \\"hi\\"\\nthen stop"',
			"-c",
			"project_doc_max_bytes=0",
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

	it("writes the output schema to a private run file for --output-schema, before resume", () => {
		const outputSchema = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };
		const runDir = tempDir("codex-run-");
		const resume = { kind: "resume", nativeSessionId: "thread-1" } as const;
		const args = adapter.buildCommand(spec({ outputSchema, session: resume }), runDir).args;
		const file = join(runDir, "output-schema.json");
		expect(args.indexOf(`--output-schema=${file}`)).toBeLessThan(args.indexOf("resume"));
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(outputSchema);
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
