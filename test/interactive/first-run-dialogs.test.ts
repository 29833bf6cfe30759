/**
 * Interactive children whose harness stops on a first-run dialog (docs/interactive.md "First-run dialogs"),
 * each with a fresh home: claude's folder trust and API-key approval are answered with the parent's own
 * decisions; a dialog the parent has not decided shows in the result (what it waits on, with the attach
 * command) and, left alone for `dialog_timeout_ms`, ends the run `failed` with the screen's text.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunResult } from "../../src/core/run-result.ts";
import { createClaudeAdapter } from "../../src/harness/claude/adapter.ts";
import { createCodexAdapter } from "../../src/harness/codex/adapter.ts";
import { runInteractive } from "../../src/interactive/run-interactive.ts";
import { findTmux, TmuxHost } from "../../src/interactive/tmux-host.ts";
import { type ClaudeHome, createClaudeHome, FAKE_ANTHROPIC_KEY } from "../support/claude-home.ts";
import { type CodexHome, createCodexHome } from "../support/codex-home.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { scriptTui } from "../support/interactive-env.ts";
import { NATIVE_LIMITS, nativeLaunchSpec } from "../support/launch-spec.ts";
import { CLAUDE_BIN, CODEX_BIN } from "../support/native-homes.ts";

let server: FakeModelServer;
let host: TmuxHost;
const homes: Array<ClaudeHome | CodexHome> = [];
beforeAll(async () => {
	server = await startFakeModelServer();
	host = new TmuxHost(findTmux() as string);
});
afterAll(async () => {
	await host?.close();
	for (const home of homes) await home.cleanup();
	await server?.close();
});

/** A fresh claude home with only onboarding done (without it, claude checks api.anthropic.com and exits offline). */
function freshClaude(): { home: ClaudeHome; workDir: string } {
	const home = createClaudeHome(server);
	homes.push(home);
	const version = (
		JSON.parse(readFileSync("node_modules/@anthropic-ai/claude-code/package.json", "utf8")) as { version: string }
	).version;
	const state = { hasCompletedOnboarding: true, lastOnboardingVersion: version, theme: "dark" };
	writeFileSync(join(home.configDir, ".claude.json"), JSON.stringify(state));
	const workDir = join(realpathSync(home.dir), "work");
	mkdirSync(workDir);
	return { home, workDir };
}

const claude = createClaudeAdapter({ command: () => ({ file: CLAUDE_BIN, args: [] }) });
const environment = (home: { env: Record<string, string> }) => {
	const env: Record<string, string> = {};
	for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
	return Object.assign(env, home.env);
};

describe("first-run dialogs of interactive children", () => {
	it("claude in a directory the parent trusts: its folder-trust and API-key dialogs are answered with the parent's decisions", async () => {
		const { home, workDir } = freshClaude();
		scriptTui(server, "DIALOG-trusted", { text: "answered without a dialog" });
		const spec = nativeLaunchSpec({
			harness: "claude_code",
			cwd: workDir,
			task: "DIALOG-trusted say hi",
			projectTrusted: true,
			// Before the answers, the TUI waited on its dialog until this ended it.
			limits: { ...NATIVE_LIMITS, timeoutMs: 30_000 },
			interactive: { stayOpen: false, inactivityTimeoutMs: null, dialogTimeoutMs: 20_000 },
		});
		const result = await runInteractive(spec, claude, { host: () => host, env: environment(home) });
		expect(result.status, result.error).toBe("completed");
		expect(result.finalAnswer).toBe("answered without a dialog");
		const config = JSON.parse(readFileSync(join(home.configDir, ".claude.json"), "utf8"));
		expect(config.projects[workDir].hasTrustDialogAccepted).toBe(true);
		expect(config.customApiKeyResponses.approved).toContain(FAKE_ANTHROPIC_KEY.slice(-20));
	}, 60_000);

	it("claude in a directory the parent does not trust: the run says it waits on the folder-trust dialog, then fails with the screen", async () => {
		const { home, workDir } = freshClaude();
		const waits: string[] = [];
		const spec = nativeLaunchSpec({
			harness: "claude_code",
			cwd: workDir,
			task: "DIALOG-untrusted say hi",
			projectTrusted: false,
			limits: { ...NATIVE_LIMITS, timeoutMs: 60_000 },
			interactive: { stayOpen: false, inactivityTimeoutMs: null, dialogTimeoutMs: 2000 },
		});
		const result: RunResult = await runInteractive(spec, claude, {
			host: () => host,
			env: environment(home),
			onUpdate: (partial) => {
				const info = partial.interactive;
				if (info?.waitingOn) waits.push(`${info.waitingOn} | ${info.attachCommand}`);
			},
		});
		expect(result.status).toBe("failed");
		expect(waits[0]).toMatch(
			/^its claude_code folder trust dialog: ".*Is this a project you created or one you trust\?.*" \| .+ -S .+ attach -t claude-code-/,
		);
		expect(result.error).toContain("waited on its claude_code folder trust dialog");
		expect(result.error).toContain("(interactive.dialog_timeout_ms)");
		expect(result.error).toContain("Yes, I trust this folder");
		expect(await host.pane(result.interactive?.session as string)).toBeUndefined();
		expect(server.requests.some((r) => r.lastUserText.includes("DIALOG-untrusted"))).toBe(false);
	}, 90_000);

	it("codex on a fresh home: the run says it waits on codex's model notice, then fails with the screen", async () => {
		const home = createCodexHome(server);
		homes.push(home);
		const workDir = join(realpathSync(home.dir), "work");
		mkdirSync(workDir);
		const codex = createCodexAdapter({ command: () => ({ file: CODEX_BIN, args: [] }), codexHome: home.codexHome });
		const waits: string[] = [];
		const spec = nativeLaunchSpec({
			harness: "codex",
			cwd: workDir,
			task: "DIALOG-codex say hi",
			limits: { ...NATIVE_LIMITS, timeoutMs: 60_000 },
			interactive: { stayOpen: false, inactivityTimeoutMs: null, dialogTimeoutMs: 2000 },
		});
		const result = await runInteractive(spec, codex, {
			host: () => host,
			env: environment(home),
			onUpdate: (partial) => {
				if (partial.interactive?.waitingOn) waits.push(partial.interactive.waitingOn);
			},
		});
		expect(result.status).toBe("failed");
		expect(waits[0]).toMatch(/^its codex model notice dialog: "Meet /);
		expect(result.error).toContain("Use existing model");
		expect(server.requests.some((r) => r.lastUserText.includes("DIALOG-codex"))).toBe(false);
	}, 90_000);
});
