/**
 * A parent process for the lifeline test of its run and tmux directories: makes one of each in its temp dir
 * (`TMPDIR`, as a Pi process does, src/runs/leftovers.ts), each holding a file (with `LIFELINE_DIRS_LINK`, the run
 * directory also holds `outside-link`, a symlink to that path), starts a sleeper (`sleep 600`, leading its own
 * process group) and registers it with the lifeline, waits until its watchdog runs, prints one JSON line
 * `{"sleeper":n,"watchdog":n,"dirs":[run,tmux]}` (absolute paths, also when `TMPDIR` is relative) and then waits
 * to be SIGKILLed by the test.
 */
import { spawn } from "node:child_process";
import { readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { lifeline } from "../../src/process/lifeline.ts";
import { processTable } from "../../src/process/proc-table.mjs";
import { makeOwnedTempDir, RUN_DIR_PREFIX, TMUX_DIR_PREFIX } from "../../src/runs/leftovers.ts";

function isWatchdog(pid: number): boolean {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("watchdog.mjs");
	} catch {
		return false; // gone meanwhile
	}
}

const dirs = [
	makeOwnedTempDir(RUN_DIR_PREFIX, undefined, { "append-system-prompt.md": "a body" }),
	makeOwnedTempDir(TMUX_DIR_PREFIX, undefined, { "tmux.conf": "" }),
];
// A symlink in the run directory to a file outside it, which the removal must not follow.
if (process.env.LIFELINE_DIRS_LINK) symlinkSync(process.env.LIFELINE_DIRS_LINK, join(dirs[0], "outside-link"));
const sleeper = spawn("sleep", ["600"], { detached: true, stdio: "ignore" }).pid as number;
// Told at once, so the test can clean up whatever happens next.
process.stderr.write(`${JSON.stringify({ sleeper })}\n`);
lifeline.register({ pgid: sleeper });
let watchdog: number | undefined;
while (watchdog === undefined) {
	watchdog = processTable().find((stat) => stat.ppid === process.pid && isWatchdog(stat.pid))?.pid;
	if (watchdog === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
}
process.stdout.write(`${JSON.stringify({ sleeper, watchdog, dirs })}\n`);
setInterval(() => {}, 1_000_000);
