import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { LaunchSpec, Resources } from "../../../src/core/launch-spec.ts";
import { createPiAdapter } from "../../../src/harness/pi/adapter.ts";
import { OUTPUT_SCHEMA_ENV, piResourceFlags } from "../../../src/harness/pi/command.ts";
import { DEFAULT_RESOURCES } from "../../../src/launch/resolve-resources.ts";
import { launchSpec, resources, validationProblems } from "../../support/launch-spec.ts";
import { releaseDirectories } from "../../support/teardown.ts";
import { makeTempDir, tempDirsRemovedAfter } from "../../support/temp-dir.ts";

const tempDir = tempDirsRemovedAfter(afterEach);

const dir = makeTempDir("pi-adapter-");
afterAll(() => releaseDirectories([dir]));
const adapter = createPiAdapter({
	invocation: () => ({ file: "node", args: ["cli.js"] }),
	sessionDir: "/sessions",
	agentDir: dir,
});

const spec = (overrides: Partial<LaunchSpec> = {}): LaunchSpec => launchSpec({ harness: "pi", cwd: dir, ...overrides });

describe("pi command line", () => {
	it("maps each launch field to its pi flag and sends the task as an RPC prompt command", () => {
		const runDir = tempDir("pi-run-");
		const command = adapter.buildCommand(
			spec({
				model: "fake/m",
				effort: "high",
				allowedTools: ["read", "bash"],
				disallowedTools: ["write"],
				systemPromptAddition: "--be careful",
				projectTrusted: true,
			}),
			runDir,
		);
		expect(command.file).toBe("node");
		expect(command.args).toEqual([
			"cli.js",
			"--mode",
			"rpc",
			"--offline",
			"--session-dir",
			"/sessions",
			"--model",
			"fake/m",
			"--thinking",
			"high",
			"--tools",
			"read,bash",
			"--exclude-tools",
			"write",
			"--append-system-prompt",
			join(runDir, "append-system-prompt.md"),
			"--approve",
		]);
		expect(readFileSync(join(runDir, "append-system-prompt.md"), "utf8")).toBe("--be careful");
		const lines = (command.conversation?.startLines() ?? []).map((line) => JSON.parse(line));
		expect(lines.map((line) => line.type)).toEqual(["get_state", "prompt"]);
		expect(lines[1].message).toBe("-@task");
	});

	it("passes --no-approve in an untrusted project and --no-tools for an empty allowlist", () => {
		const command = adapter.buildCommand(spec({ allowedTools: [] }), dir);
		expect(command.args).toContain("--no-approve");
		expect(command.args).toContain("--no-tools");
	});

	it("resumes by the exact session file of the native session id, never by a prefix", () => {
		const sessionDir = tempDir("pi-sessions-");
		writeFileSync(join(sessionDir, "2026-11-29T10-00-00-000Z_abc.jsonl"), "");
		writeFileSync(join(sessionDir, "2026-11-29T10-00-00-000Z_abcdef.jsonl"), "");
		const resuming = createPiAdapter({ invocation: () => ({ file: "node", args: [] }), sessionDir, agentDir: dir });
		const command = resuming.buildCommand(spec({ session: { kind: "resume", nativeSessionId: "abc" } }), dir);
		expect(command.args.join(" ")).toContain(`--session ${join(sessionDir, "2026-11-29T10-00-00-000Z_abc.jsonl")}`);
		expect(validationProblems(resuming, spec({ session: { kind: "resume", nativeSessionId: "ab" } }))).toEqual([
			expect.stringContaining(`pi harness: no pi session "ab" in ${sessionDir}`),
		]);
	});
});

describe("pi structured results", () => {
	const outputSchema = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };

	it("loads the submit_result extension with the schema in a private run file", () => {
		const runDir = tempDir("pi-run-");
		const command = adapter.buildCommand(spec({ outputSchema }), runDir);
		const extension = command.args[command.args.indexOf("-e") + 1];
		expect(extension).toMatch(/src\/harness\/pi\/submit-result-extension\.ts$/);
		const file = command.env[OUTPUT_SCHEMA_ENV] as string;
		expect(file).toBe(join(runDir, "output-schema.json"));
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(outputSchema);
		expect(statSync(file).mode & 0o777).toBe(0o600);
	});

	it("offers submit_result beside an allowlist, an empty one included", () => {
		const listed = adapter.buildCommand(spec({ outputSchema, allowedTools: ["read"] }), dir).args;
		expect(listed.slice(listed.indexOf("--tools"), listed.indexOf("--tools") + 2)).toEqual([
			"--tools",
			"read,submit_result",
		]);
		const none = adapter.buildCommand(spec({ outputSchema, allowedTools: [] }), dir).args;
		expect(none).not.toContain("--no-tools");
		expect(none.slice(none.indexOf("--tools"), none.indexOf("--tools") + 2)).toEqual(["--tools", "submit_result"]);
	});

	it("counts submit_result among the tools of a child that loads no extensions only with an output_schema", () => {
		const isolated = resources({
			inherit_personal_resources: false,
			inherit_project_resources: false,
			mcp_servers: [],
		});
		const allowedTools = ["read", "submit_result"];
		expect(validationProblems(adapter, spec({ outputSchema, allowedTools, resources: isolated }))).toEqual([]);
		expect(validationProblems(adapter, spec({ allowedTools, resources: isolated }))).toEqual([
			expect.stringContaining('allowed_tools: "submit_result" is not a tool of this child'),
		]);
		const args = adapter.buildCommand(spec({ outputSchema, allowedTools, resources: isolated }), dir).args;
		expect(args[args.indexOf("--tools") + 1]).toBe("read,submit_result");
	});

	it("refuses disallowed_tools that exclude submit_result", () => {
		expect(validationProblems(adapter, spec({ outputSchema, disallowedTools: ["submit_result"] }))).toEqual([
			"pi harness: disallowed_tools: submit_result is how a pi child with output_schema submits its result; it cannot be excluded",
		]);
	});
});

describe("pi resources", () => {
	it("maps skills, extensions and the exclusion flags", () => {
		expect(
			piResourceFlags(
				resources({
					skills: ["/s1", "/s2"],
					extensions: ["/e"],
					mcp_servers: [],
					inherit_personal_resources: false,
					inherit_project_resources: false,
					include_instruction_files: false,
				}),
			),
		).toEqual([
			"--skill",
			"/s1",
			"--skill",
			"/s2",
			"-e",
			"/e",
			"--no-extensions",
			"--no-skills",
			"--no-prompt-templates",
			"--no-themes",
			"--no-mcp",
			"--no-context-files",
		]);
	});

	it("adds nothing for the defaults", () => {
		expect(piResourceFlags(DEFAULT_RESOURCES)).toEqual([]);
	});

	const refused: Array<[string, Partial<Resources>, string]> = [
		["plugins", { plugins: ["/p"] }, "resources.plugins: the pi harness has no plugins"],
		["packages", { packages: ["x"] }, "resources.packages: must be empty"],
		[
			"a non-empty mcp_servers list",
			{ mcp_servers: ["srv"] },
			"resources.mcp_servers: only null (inherit) or [] (disable)",
		],
		[
			"one inheritance flag alone",
			{ inherit_personal_resources: false },
			"resources.inherit_personal_resources / inherit_project_resources: pi can exclude personal and project discovery only together",
		],
		[
			"both inheritance flags without mcp_servers: []",
			{ inherit_personal_resources: false, inherit_project_resources: false },
			"resources.mcp_servers: must be [] when both inheritance flags are false",
		],
	];
	for (const [what, overrides, message] of refused) {
		it(`refuses ${what} before launch, naming the harness`, () => {
			expect(validationProblems(adapter, spec({ resources: resources(overrides) }))).toEqual([
				expect.stringContaining(`pi harness: ${message}`),
			]);
		});
	}

	it("honours include_home_system_prompt: false only when there is no home SYSTEM.md", () => {
		const home = tempDir("pi-agent-");
		const withHome = createPiAdapter({
			invocation: () => ({ file: "node", args: [] }),
			sessionDir: dir,
			agentDir: home,
		});
		const noHomePrompt = spec({ resources: resources({ include_home_system_prompt: false }) });
		expect(validationProblems(withHome, noHomePrompt)).toEqual([]);
		expect(piResourceFlags(resources({ include_home_system_prompt: false }))).toEqual([]);
		writeFileSync(join(home, "SYSTEM.md"), "custom");
		expect(validationProblems(withHome, noHomePrompt)).toEqual([
			expect.stringContaining(`cannot be honoured by pi while ${join(home, "SYSTEM.md")} exists`),
		]);
		const project = tempDir("pi-project-");
		mkdirSync(join(project, ".pi"));
		writeFileSync(join(project, ".pi/SYSTEM.md"), "project prompt");
		expect(validationProblems(adapter, { ...noHomePrompt, cwd: project })).toEqual([
			expect.stringContaining("it would change the project prompt"),
		]);
	});
});
