import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LaunchError } from "../../../src/core/launch-error.ts";
import type { LaunchSpec, Resources } from "../../../src/core/launch-spec.ts";
import type { RunEvent } from "../../../src/core/run-event.ts";
import { createPiAdapter, piResourceFlags } from "../../../src/harness/pi/adapter.ts";
import { DEFAULT_RESOURCES } from "../../../src/launch/resolve-resources.ts";
import { launchSpec, resources } from "../../support/launch-spec.ts";

const dir = mkdtempSync(join(tmpdir(), "pi-adapter-"));
const adapter = createPiAdapter({
	invocation: () => ({ file: "node", args: ["cli.js"] }),
	sessionDir: "/sessions",
	agentDir: dir,
});

const spec = (overrides: Partial<LaunchSpec> = {}): LaunchSpec => launchSpec({ harness: "pi", cwd: dir, ...overrides });

describe("pi command line", () => {
	it("maps each launch field to its pi flag and sends the task on stdin", () => {
		const runDir = mkdtempSync(join(tmpdir(), "pi-run-"));
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
			"json",
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
		expect(command.stdin).toBe("-@task");
	});

	it("passes --no-approve in an untrusted project and --no-tools for an empty allowlist", () => {
		const command = adapter.buildCommand(spec({ allowedTools: [] }), dir);
		expect(command.args).toContain("--no-approve");
		expect(command.args).toContain("--no-tools");
	});

	it("resumes by the exact session file of the native session id, never by a prefix", () => {
		const sessionDir = mkdtempSync(join(tmpdir(), "pi-sessions-"));
		writeFileSync(join(sessionDir, "2026-11-29T10-00-00-000Z_abc.jsonl"), "");
		writeFileSync(join(sessionDir, "2026-11-29T10-00-00-000Z_abcdef.jsonl"), "");
		const resuming = createPiAdapter({ invocation: () => ({ file: "node", args: [] }), sessionDir, agentDir: dir });
		const command = resuming.buildCommand(spec({ session: { kind: "resume", nativeSessionId: "abc" } }), dir);
		expect(command.args.join(" ")).toContain(`--session ${join(sessionDir, "2026-11-29T10-00-00-000Z_abc.jsonl")}`);
		expect(() => resuming.validate(spec({ session: { kind: "resume", nativeSessionId: "ab" } }))).toThrow(
			`pi harness: no pi session "ab" in ${sessionDir}`,
		);
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
				dir,
				dir,
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
		expect(piResourceFlags(DEFAULT_RESOURCES, dir, dir)).toEqual([]);
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
			expect(() => adapter.validate(spec({ resources: resources(overrides) }))).toThrow(LaunchError);
			expect(() => adapter.validate(spec({ resources: resources(overrides) }))).toThrow(`pi harness: ${message}`);
		});
	}

	it("honours include_home_system_prompt: false only when there is no home SYSTEM.md", () => {
		const home = mkdtempSync(join(tmpdir(), "pi-agent-"));
		expect(piResourceFlags(resources({ include_home_system_prompt: false }), dir, home)).toEqual([]);
		writeFileSync(join(home, "SYSTEM.md"), "custom");
		expect(() => piResourceFlags(resources({ include_home_system_prompt: false }), dir, home)).toThrow(
			`cannot be honoured by pi while ${join(home, "SYSTEM.md")} exists`,
		);
		const project = mkdtempSync(join(tmpdir(), "pi-project-"));
		mkdirSync(join(project, ".pi"));
		writeFileSync(join(project, ".pi/SYSTEM.md"), "project prompt");
		expect(() => piResourceFlags(resources({ include_home_system_prompt: false }), project, dir)).toThrow(
			"it would change the project prompt",
		);
	});
});

describe("pi events", () => {
	const parse = (records: unknown[]): RunEvent[] => {
		const parser = adapter.createParser(spec());
		return records.flatMap((record) => parser.parse(record));
	};
	const assistant = (stopReason: string, extra: Record<string, unknown> = {}) => ({
		type: "message_end",
		message: {
			role: "assistant",
			content: [{ type: "text", text: "hi" }],
			provider: "p",
			model: "m",
			stopReason,
			...extra,
		},
	});

	it("takes the session id from the header", () => {
		expect(parse([{ type: "session", id: "s-1", version: 3 }])).toEqual([{ type: "session", nativeSessionId: "s-1" }]);
	});

	it("reports usage with cost and the model as provider/id", () => {
		const events = parse([
			assistant("stop", {
				usage: { input: 3, output: 4, cacheRead: 1, cacheWrite: 2, totalTokens: 10, cost: { total: 0.5 } },
			}),
		]);
		expect(events).toContainEqual({ type: "assistant_text", text: "hi", final: true, model: "p/m" });
		expect(events).toContainEqual({
			type: "usage",
			model: "p/m",
			usage: {
				inputTokens: 3,
				outputTokens: 4,
				cacheReadTokens: 1,
				cacheWriteTokens: 2,
				costUsd: 0.5,
				contextTokens: 10,
				turns: 1,
			},
		});
	});

	it("ends failed when the last assistant message stopped with an error, and completed after a retry succeeded", () => {
		const failed = parse([assistant("error", { errorMessage: "boom" }), { type: "agent_settled", aborted: false }]);
		expect(failed.at(-1)).toEqual({ type: "done", status: "failed", error: "boom" });
		const retried = parse([assistant("error", { errorMessage: "boom" }), assistant("stop"), { type: "agent_settled" }]);
		expect(retried.at(-1)).toEqual({ type: "done", status: "completed" });
	});

	it("ends aborted when pi settles an aborted run", () => {
		expect(parse([{ type: "agent_settled", aborted: true }]).at(-1)).toMatchObject({ type: "done", status: "aborted" });
	});

	it("maps tool execution start and end, joining text output", () => {
		const events = parse([
			{ type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: { command: "ls" } },
			{
				type: "tool_execution_end",
				toolCallId: "t1",
				toolName: "bash",
				result: { content: [{ type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }] },
				isError: true,
			},
		]);
		expect(events).toEqual([
			{ type: "tool_start", toolCallId: "t1", toolName: "bash", args: { command: "ls" } },
			{ type: "tool_end", toolCallId: "t1", toolName: "bash", output: "a[image]b", isError: true },
		]);
	});

	it("streams text and thinking deltas", () => {
		expect(
			parse([
				{ type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "he" } },
				{ type: "message_update", assistantMessageEvent: { type: "thinking_delta", delta: "hmm" } },
			]),
		).toEqual([
			{ type: "assistant_text", text: "he", final: false },
			{ type: "thinking", text: "hmm" },
		]);
	});
});
