/**
 * A parent process for the test of the watchdog gate with a real lifeline's lines: its lifeline runs the gate
 * (`WATCHDOG_GATE`) before the stage script `argv[2]` (standing in for the Node watchdog), with a marker no
 * process carries. It starts the watchdog through `nextMarker()` and, with `argv[3]` = `register`, registers a
 * group; prints one JSON line `{"gate":<pid>}` and exits, which closes the gate's pipe.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { WATCHDOG_GATE, WatchdogLifeline } from "../../src/process/lifeline.ts";
import { processTable } from "../../src/process/proc-table.mjs";

const [stage, mode] = process.argv.slice(2);
const marker = `PI_NATIVE_SUBAGENTS_RUN=first-line-${randomUUID()}/`;
const lifeline = new WatchdogLifeline({ command: ["sh", "-c", WATCHDOG_GATE, "sh", "/bin/sh", stage, marker] });
lifeline.nextMarker();
if (mode === "register") lifeline.register({ pgid: 1_000_001 });
const isGate = (pid: number) => {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
	} catch {
		return false; // gone meanwhile
	}
};
let gate: number | undefined;
while (gate === undefined) {
	gate = processTable().find((stat) => stat.ppid === process.pid && isGate(stat.pid))?.pid;
	if (gate === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
}
process.stdout.write(`${JSON.stringify({ gate })}\n`);
