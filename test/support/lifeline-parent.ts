/**
 * A parent process for the lifeline test: starts two sleepers (`sleep 600`, each leading its own process
 * group), registers the first with the lifeline, SIGKILLs its own watchdog (found among its children by
 * argv), registers the second (a new watchdog must run and know both: the first replayed), prints one JSON line
 * `{"sleepers":[a,b],"watchdogs":[old,new]}` and then waits to be SIGKILLed by the test.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { lifeline } from "../../src/process/lifeline.ts";
import { processTable } from "../../src/process/proc-table.mjs";

function isWatchdog(pid: number): boolean {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("watchdog.mjs");
	} catch {
		return false; // gone meanwhile
	}
}

function watchdogs(): number[] {
	return processTable()
		.filter((stat) => stat.ppid === process.pid && isWatchdog(stat.pid))
		.map((stat) => stat.pid);
}

async function until(check: () => boolean): Promise<void> {
	while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

const sleeper = () => {
	const pid = spawn("sleep", ["600"], { detached: true, stdio: "ignore" }).pid as number;
	// Told at once, so the test can clean up whatever happens next.
	process.stderr.write(`${JSON.stringify({ sleeper: pid })}\n`);
	return pid;
};
const a = sleeper();
lifeline.register({ pgid: a });
await until(() => watchdogs().length === 1);
const [old] = watchdogs();
process.kill(old, "SIGKILL");
await until(() => !watchdogs().includes(old));
const b = sleeper();
lifeline.register({ pgid: b });
// The lifeline may already have started the new one when it saw the old one exit; either way one runs.
await until(() => watchdogs().length === 1 && !watchdogs().includes(old));
process.stdout.write(`${JSON.stringify({ sleepers: [a, b], watchdogs: [old, ...watchdogs()] })}\n`);
setInterval(() => {}, 1_000_000);
