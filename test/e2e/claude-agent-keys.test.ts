/**
 * The Claude Code keys this package hands to claude's `--agents` definition as written (docs/agent-libraries.md
 * §Claude Code format), each checked against the pinned claude offline: what a key does to the session's
 * agent, or why it is refused before start.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";

let env: E2eEnv;
let configDir: string;

beforeAll(async () => {
	env = await startE2eEnv({ nativeHomes: true });
	configDir = (env.native as NonNullable<E2eEnv["native"]>).claude.configDir;
	mkdirSync(join(configDir, "agents"), { recursive: true });
	mkdirSync(join(configDir, "skills", "probe-skill"), { recursive: true });
	writeFileSync(
		join(configDir, "skills", "probe-skill", "SKILL.md"),
		"---\nname: probe-skill\ndescription: A probe skill\n---\nPROBE-SKILL-BODY\n",
	);
	writeFileSync(join(configDir, "CLAUDE.md"), "USER-CLAUDE-MD-MARKER\n");
});
afterAll(async () => env?.close());

/** Writes a Claude Code agent `name` with `frontmatter` lines to the user's claude agents directory. */
function agent(name: string, frontmatter: string): void {
	writeFileSync(
		join(configDir, "agents", `${name}.md`),
		`---\nname: ${name}\ndescription: probe\n${frontmatter}\n---\nAGENT-BODY-${name}\n`,
	);
}

async function probe(name: string, frontmatter: string, task: string) {
	agent(name, frontmatter);
	env.server.scriptFor(task, { text: `${name} answered` });
	const outcome = await env.session.callTool<SubagentDetails>("subagent", { agent: name, task });
	const requests = env.server.requests.filter((r) => JSON.stringify(r.body ?? "").includes(task));
	return { outcome, requests, body: requests.map((r) => JSON.stringify(r.body)).join("\n") };
}

describe("Claude Code keys on the claude harness", () => {
	it("runs the agent's hooks (a UserPromptSubmit command runs)", async () => {
		const ran = join(env.workDir, "hook-ran");
		const hooks = `hooks:\n  UserPromptSubmit:\n    - hooks:\n        - type: command\n          command: touch ${ran}`;
		const { outcome } = await probe("k-hooks", hooks, "hooks probe task");
		expect(outcome.isError, textOf(outcome.result)).toBe(false);
		expect(existsSync(ran)).toBe(true);
	});

	it("starts the agent's mcpServers (claude's list form)", async () => {
		const started = join(env.workDir, "mcp-started");
		const servers = `mcpServers:\n  - probe:\n      command: sh\n      args: ["-c", "touch ${started}"]`;
		const { outcome } = await probe("k-mcp", servers, "mcp probe task");
		expect(outcome.isError, textOf(outcome.result)).toBe(false);
		expect(existsSync(started)).toBe(true);
	});

	it("runs permissionMode: default as claude's default mode (a Write is denied) and refuses acceptEdits without auto_approve, writing nothing", async () => {
		for (const mode of ["default", "acceptEdits"]) {
			agent(`k-perm-${mode}`, `permissionMode: ${mode}\ntools: Write`);
			const file = join(env.workDir, `${mode}-written.txt`);
			env.server.scriptFor(
				`permission probe ${mode}`,
				{ toolCalls: [{ name: "Write", arguments: { file_path: file, content: "w" } }] },
				{ text: "wrote" },
			);
			const { result, isError } = await env.session.callTool("subagent", {
				agent: `k-perm-${mode}`,
				task: `permission probe ${mode}`,
			});
			expect(existsSync(file), textOf(result)).toBe(false);
			if (mode === "acceptEdits") {
				expect(isError).toBe(true);
				expect(textOf(result)).toContain('permissionMode: "acceptEdits" would let the child run tools');
			}
		}
	});

	it("applies maxTurns: the run ends after that many turns", async () => {
		agent("k-turns", "maxTurns: 1\ntools: Read");
		writeFileSync(join(env.workDir, "turns.txt"), "x\n");
		env.server.scriptFor(
			"turns probe task",
			{ toolCalls: [{ name: "Read", arguments: { file_path: join(env.workDir, "turns.txt") } }] },
			{ text: "a second turn" },
		);
		const { result } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "k-turns",
			task: "turns probe task",
		});
		expect(runOf(result.details).finalAnswer).not.toBe("a second turn");
		expect(env.server.requests.filter((r) => JSON.stringify(r.body ?? "").includes("turns probe task"))).toHaveLength(
			1,
		);
	});

	it("applies omitClaudeMd: true, so the user's CLAUDE.md is not in the request", async () => {
		const control = await probe("k-with-md", "", "claude md control task");
		expect(control.body).toContain("USER-CLAUDE-MD-MARKER");
		const omitted = await probe("k-omit-md", "omitClaudeMd: true", "claude md omitted task");
		expect(omitted.outcome.isError, textOf(omitted.outcome.result)).toBe(false);
		expect(omitted.body).not.toContain("USER-CLAUDE-MD-MARKER");
	});

	it.each([
		["skills", "skills: [probe-skill]"],
		["memory", "memory: user"],
		["initialPrompt", "initialPrompt: start here"],
	])("refuses %s before start: claude does not apply it to a session's agent", async (key, line) => {
		agent(`k-refused-${key}`, line);
		const before = env.server.requests.length;
		const { result, isError } = await env.session.callTool("subagent", { agent: `k-refused-${key}`, task: "x" });
		expect(isError).toBe(true);
		expect(textOf(result)).toContain(`${join(configDir, "agents", `k-refused-${key}.md`)}: ${key}: `);
		expect(env.server.requests.length).toBe(before);
	});
});
