/**
 * A parent process for the lifeline test: takes a run marker, spawns a sleeper (`sleep 600`, its own process
 * group) carrying it, prints `{"sleeper":N}` and SIGKILLs itself before registering the sleeper: Pi killed
 * between a child's spawn and its registration, the first child of the process (no watchdog ran before).
 */
import { spawn } from "node:child_process";
import { lifeline } from "../../src/process/lifeline.ts";

const marker = lifeline.nextMarker();
const sleeper = spawn("sleep", ["600"], {
	detached: true,
	stdio: "ignore",
	env: { PATH: process.env.PATH ?? "/usr/bin:/bin", [marker.name]: marker.value },
});
process.stdout.write(`${JSON.stringify({ sleeper: sleeper.pid })}\n`, () => process.kill(process.pid, "SIGKILL"));
