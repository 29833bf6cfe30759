/**
 * A kept-open interactive session (`stay_open`) cannot be resumed while anything of its pane still runs
 * (docs/interactive.md; docs/rules.md §Resumption): not while the pane lives, and not after `tmux kill-session` while the
 * pane's process, which ignored the hang-up, is alive.
 */
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Problems } from "../../src/core/problems.ts";
import { createPiAdapter } from "../../src/harness/pi/adapter.ts";
import { InteractiveRuns } from "../../src/interactive/interactive-runs.ts";
import { nativeLaunchSpec } from "../support/launch-spec.ts";
import { isAlive, waitUntil } from "../support/processes.ts";
import { startTuiEnv, type TuiEnv } from "./tui-support.ts";

const HOSTILE_TUI = join(import.meta.dirname, "../support/fault-cli/ignores-sighup.mjs");
let tui: TuiEnv;
beforeAll(async () => {
	tui = await startTuiEnv();
});
afterAll(async () => {
	await tui?.close();
});

describe("resuming a kept-open interactive session", () => {
	it("stays refused after tmux kill-session while the pane's process that ignored SIGHUP is alive", async () => {
		// The command override of pi: a TUI that ignores SIGHUP, in place of pi.
		const adapter = createPiAdapter({
			invocation: () => ({ file: process.execPath, args: [HOSTILE_TUI] }),
			sessionDir: join(tui.workDir, "sessions"),
			agentDir: join(tui.workDir, "agent"),
		});
		const runs = new InteractiveRuns();
		let pid: number | undefined;
		try {
			// Its screen never changes: inactivity ends the run, and stay_open keeps the pane.
			const result = await runs.run(
				nativeLaunchSpec({
					harness: "pi",
					cwd: tui.workDir,
					interactive: { stayOpen: true, inactivityTimeoutMs: 1000 },
				}),
				adapter,
				{ env: tui.env },
			);
			pid = result.pid as number;
			const info = result.interactive as NonNullable<typeof result.interactive>;
			expect(info.keptOpen, result.error).toBe(true);
			const resume = nativeLaunchSpec({
				harness: "pi",
				cwd: tui.workDir,
				session: { kind: "resume", nativeSessionId: result.nativeSessionId as string },
			});
			const refusedWhileOpen = new Problems();
			expect(await runs.checkRetained([resume], refusedWhileOpen)).toBe(false);

			await execa("tmux", ["-S", info.socket, "kill-session", "-t", `=${info.session}`]);
			expect(
				(await execa("tmux", ["-S", info.socket, "has-session", "-t", `=${info.session}`], { reject: false })).exitCode,
			).not.toBe(0);
			expect(isAlive(pid), "the process ignored the hang-up").toBe(true);
			const refused = new Problems();
			expect(await runs.checkRetained([resume], refused)).toBe(false);
			expect(refused.list.join("\n")).toContain(`kept open (stay_open) in tmux session ${info.session}`);

			process.kill(pid, "SIGKILL");
			await waitUntil(() => !isAlive(pid as number), "the hostile TUI to exit");
			const allowed = new Problems();
			expect(await runs.checkRetained([resume], allowed), allowed.list.join("\n")).toBe(true);
		} finally {
			if (pid !== undefined && isAlive(pid)) process.kill(pid, "SIGKILL");
			await runs.close();
		}
	}, 60_000);
});
