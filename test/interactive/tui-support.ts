/**
 * Shared setup for tests that run the real harness TUIs in tmux: a fake model server, isolated pi, codex and
 * claude homes pre-seeded for the TUIs (docs/harness-support.md "Interactive runs"), a work directory, a
 * private tmux host, and the three adapters.
 */
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { HarnessAdapter } from "../../src/core/harness-adapter.ts";
import type { Harness } from "../../src/core/launch-spec.ts";
import { createClaudeAdapter } from "../../src/harness/claude/adapter.ts";
import { createCodexAdapter } from "../../src/harness/codex/adapter.ts";
import { createPiAdapter } from "../../src/harness/pi/adapter.ts";
import { resolvePiInvocation } from "../../src/harness/pi/invocation.ts";
import { findTmux, TmuxHost } from "../../src/interactive/tmux-host.ts";
import { createClaudeHome, seedClaudeTui } from "../support/claude-home.ts";
import { createCodexHome, seedCodexTui } from "../support/codex-home.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { CLAUDE_BIN, CODEX_BIN } from "../support/native-homes.ts";
import { createPiHome } from "../support/pi-home.ts";
import { releaseDirectories } from "../support/teardown.ts";

export interface TuiEnv {
	server: FakeModelServer;
	workDir: string;
	host: TmuxHost;
	adapters: Record<Harness, HarnessAdapter>;
	/** The child environment: the test process's, with all three homes laid over it. */
	env: Record<string, string>;
	close(): Promise<void>;
}

export async function startTuiEnv(): Promise<TuiEnv> {
	const server = await startFakeModelServer();
	const pi = createPiHome(server);
	const codex = createCodexHome(server);
	const claude = createClaudeHome(server);
	const workDir = join(realpathSync(pi.dir), "work");
	mkdirSync(workDir);
	seedClaudeTui(claude, [workDir]);
	seedCodexTui(codex);
	const tmux = findTmux();
	if (!tmux) throw new Error("tmux is not on PATH; .ci/run installs it");
	const host = new TmuxHost(tmux);
	const env: Record<string, string> = {};
	for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
	Object.assign(env, claude.env, codex.env, pi.env);
	const adapters: Record<Harness, HarnessAdapter> = {
		pi: createPiAdapter({
			invocation: () => resolvePiInvocation(),
			sessionDir: join(pi.agentDir, "subagent-sessions"),
			agentDir: pi.agentDir,
		}),
		codex: createCodexAdapter({ command: () => ({ file: CODEX_BIN, args: [] }), codexHome: codex.codexHome }),
		claude_code: createClaudeAdapter({ command: () => ({ file: CLAUDE_BIN, args: [] }) }),
	};
	return {
		server,
		workDir,
		host,
		adapters,
		env,
		async close() {
			await host.close();
			try {
				await releaseDirectories([pi.dir, codex.dir, claude.dir]);
			} finally {
				await server.close();
			}
		},
	};
}
