/**
 * Resuming a session started from a Claude Code or codex agent file (docs/agent-libraries.md §Resuming):
 * the resume launches with the same translated settings as the launch it continues, through the real
 * claude and codex binaries.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession, type ExtensionSession } from "../support/extension-session.ts";

const FIXTURES = resolve(import.meta.dirname, "../fixtures/agent-libraries");

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({ nativeHomes: true });
	const codexHome = (env.native as NonNullable<E2eEnv["native"]>).codex.env.CODEX_HOME as string;
	mkdirSync(join(codexHome, "agents"), { recursive: true });
	copyFileSync(join(FIXTURES, "codex-fixer.toml"), join(codexHome, "agents", "fixer.toml"));
	// A project agent of a project that is not explicitly trusted: claude is started with
	// --setting-sources=user there, so it cannot find this file by itself; only --agents defines it.
	mkdirSync(join(env.workDir, ".claude", "agents"), { recursive: true });
	copyFileSync(join(FIXTURES, "claude-code-reviewer.md"), join(env.workDir, ".claude", "agents", "cc-reviewer.md"));
});
afterAll(async () => env?.close());

async function run(session: ExtensionSession, args: Record<string, unknown>, answer: string) {
	env.server.scriptFor(args.task as string, { text: answer });
	const outcome = await session.callTool<SubagentDetails>("subagent", args);
	expect(outcome.isError, textOf(outcome.result)).toBe(false);
	expect(runOf(outcome.result.details).finalAnswer).toBe(answer);
	const request = env.server.requests.find((r) => r.lastUserText?.startsWith(args.task as string));
	if (!request) throw new Error(`no request for ${args.task}`);
	return { request, id: runOf(outcome.result.details).nativeSessionId as string };
}

describe("resuming a session of an agent library file", () => {
	it("resumes a Claude Code agent's session with its --agents definition again: its prompt instead of claude's and only its tools", async () => {
		// The user confirms the project agent in a dialog (the project is not explicitly trusted).
		const uiContext = new Proxy({} as ExtensionUIContext, {
			get: (_target, key) => (key === "confirm" ? async () => true : () => undefined),
		});
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, uiContext });
		try {
			const first = await run(
				session,
				{ agent: "cc-reviewer", agentScope: "project", task: "remember the claude word" },
				"claude word kept",
			);
			const { request } = await run(
				session,
				{ resume_session_id: first.id, agentScope: "project", task: "continue the claude review" },
				"claude resumed",
			);
			expect(request.userTexts).toContain("remember the claude word");
			expect(request.model).toMatch(/^claude-sonnet-/);
			expect(request.systemPrompt).toContain("CLAUDE-CODE-LIBRARY-PROMPT");
			// The agent's prompt replaces claude's default one, as at the first launch.
			expect(request.systemPrompt?.length).toBe(first.request.systemPrompt?.length);
			expect(request.toolNames.filter((name) => name !== "DeferredToolPlaceholder").sort()).toEqual([
				"Glob",
				"Grep",
				"Read",
			]);
		} finally {
			session.dispose();
		}
	});

	it("resumes a codex agent's session with its developer instructions once, its effort and its sandbox again", async () => {
		const first = await run(env.session, { agent: "fixer", task: "remember the codex word" }, "codex word kept");
		const { request } = await run(
			env.session,
			{ resume_session_id: first.id, task: "continue the codex fix" },
			"codex resumed",
		);
		expect(request.userTexts).toContain("remember the codex word");
		expect(request.effort).toBe("high");
		const body = JSON.stringify(request.body);
		expect(body.split("CODEX-LIBRARY-INSTRUCTIONS").length - 1).toBe(1);
		expect(body).toContain("`sandbox_mode` is `read-only`");
		expect(body).not.toContain("workspace-write");
	});
});
