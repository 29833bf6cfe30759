/**
 * `environment.exclude` reaches interactive children too (SECURITY.md "Environment", "tmux socket (interactive runs)"): the
 * tmux server holds none of the parent's other variables, and a pane has no variable leading to the server.
 */
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";
import { writeJson } from "../support/files.ts";
import { isAlive, waitUntil } from "../support/processes.ts";

// Inside the pane: the variables tmux would set, the secret, and what the server says when asked the
// way a child finds it (its TMUX variable, else tmux's default socket).
const PROBE =
	'echo "tmux=[$TMUX] pane=[$TMUX_PANE] secret=[$PROBE_PANE_SECRET]"; tmux show-environment -g 2>&1 | grep -c PROBE_PANE_SECRET || true';
let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({ mode: "rpc" });
	process.env.PROBE_PANE_SECRET = "pane-s3cret";
});
afterAll(async () => {
	delete process.env.PROBE_PANE_SECRET;
	await env?.close();
});

describe("the environment of an interactive child", () => {
	it("environment.exclude keeps a secret from the pane and from the tmux server the pane runs under", async () => {
		writeJson(join(env.home.agentDir, "extensions/agentshell.json"), { environment: { exclude: ["PROBE_PANE_*"] } });
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, mode: "rpc" });
		const task = "interactive env probe";
		env.server.scriptFor(task, { toolCalls: [{ name: "bash", arguments: { command: PROBE } }] }, (request) => ({
			text: request.lastToolOutput?.trim() ?? "",
		}));
		try {
			const { result, isError } = await session.callTool<SubagentDetails>("subagent", {
				agent_type: "pi",
				task,
				interactive: true,
				stay_open: true,
			});
			expect(isError, textOf(result)).toBe(false);
			const run = runOf(result.details);
			expect(run.finalAnswer).toBe("tmux=[] pane=[] secret=[]\n0");
			// The kept-open session's server, asked directly on its socket: nothing of the parent's secret.
			const info = run.interactive as NonNullable<typeof run.interactive>;
			const global = await execa("tmux", ["-S", info.socket, "show-environment", "-g"], { reject: false });
			expect(global.exitCode, global.stderr).toBe(0);
			expect(global.stdout).not.toContain("PROBE_PANE_SECRET");
			expect(global.stdout).not.toContain("pane-s3cret");
			const local = await execa("tmux", ["-S", info.socket, "show-environment", "-t", `=${info.session}`], {
				reject: false,
			});
			expect(local.stdout).not.toContain("pane-s3cret");
			await execa("tmux", ["-S", info.socket, "kill-session", "-t", `=${info.session}`], { reject: false });
			await waitUntil(() => !isAlive(run.pid as number), "the kept pi TUI to exit");
		} finally {
			await session.shutdown();
			session.dispose();
		}
	}, 90_000);
});
