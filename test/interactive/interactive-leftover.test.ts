/**
 * What an interactive child leaves behind dies with its run (SECURITY.md "Processes"): a `setsid` grandchild
 * carries the run marker but not the pane's process group, and is killed once the pane's process is gone, as a
 * headless child's is at its leader's exit; a kept-open pane's goes when the tmux host closes (session shutdown).
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInteractive } from "../../src/interactive/run-interactive.ts";
import { findTmux, TmuxHost } from "../../src/interactive/tmux-host.ts";
import { nativeLaunchSpec } from "../support/launch-spec.ts";
import { isAlive, waitUntil } from "../support/processes.ts";
import { startTuiEnv, type TuiEnv } from "./tui-support.ts";

let tui: TuiEnv;
const leftovers: number[] = [];
beforeAll(async () => {
	tui = await startTuiEnv();
});
afterAll(async () => {
	for (const pid of leftovers) if (isAlive(pid)) process.kill(pid, "SIGKILL");
	await Promise.all(leftovers.map((pid) => waitUntil(() => !isAlive(pid), `leftover ${pid} to be gone`, 5_000)));
	await tui?.close();
});

/** Runs a pi TUI whose bash tool starts a `setsid sleep` (its pid in `<tag>.pid`); resolves with that pid. */
async function runLeavingDaemon(tag: string, host: TmuxHost, stayOpen: boolean): Promise<number> {
	const dir = join(tui.workDir, "pids");
	mkdirSync(dir, { recursive: true });
	const pidFile = join(dir, `${tag}.pid`);
	tui.server.route((request) => {
		if (!request.userTexts.some((text) => text.includes(tag))) return undefined;
		if (request.lastToolOutput === undefined) {
			const command = `(setsid sleep 600 >/dev/null 2>&1 < /dev/null & echo $! > ${pidFile}); echo started`;
			return { toolCalls: [{ name: "bash", arguments: { command } }] };
		}
		return { text: "done, a daemon is left" };
	});
	const result = await runInteractive(
		nativeLaunchSpec({
			harness: "pi",
			cwd: tui.workDir,
			task: `${tag} start a daemon`,
			interactive: { stayOpen, inactivityTimeoutMs: null },
		}),
		tui.adapters.pi,
		{ host: () => host, env: tui.env },
	);
	expect(result.status, JSON.stringify(result.error)).toBe("completed");
	expect(existsSync(pidFile)).toBe(true);
	const pid = Number(readFileSync(pidFile, "utf8"));
	leftovers.push(pid);
	return pid;
}

describe("an interactive child's setsid grandchild", () => {
	it("is killed once its run has ended and its pane's process is gone", { timeout: 120_000 }, async () => {
		const daemon = await runLeavingDaemon("INTERACTIVE-LEFTOVER-ENDED", tui.host, false);
		await waitUntil(() => !isAlive(daemon), "the setsid grandchild to be gone", 5_000);
	});

	it("of a kept-open pane is killed when the tmux host closes (the session's shutdown)", {
		timeout: 120_000,
	}, async () => {
		const host = new TmuxHost(findTmux() as string);
		try {
			const daemon = await runLeavingDaemon("INTERACTIVE-LEFTOVER-KEPT", host, true);
			expect(isAlive(daemon)).toBe(true);
			await host.close();
			await waitUntil(() => !isAlive(daemon), "the setsid grandchild to be gone", 5_000);
		} finally {
			await host.close();
		}
	});
});
