// @ts-check
/**
 * Stands in front of a child for one recorded run (bench/launch.ts `LaunchRecorder`): appends what it was
 * started with — the command after its own arguments, its environment, cwd — and the stdin text it passed
 * on, as one JSON line to the log, when the child has ended; then exits as the child did. stdout and stderr
 * are the child's own. argv: <log file> <file> <args…>.
 */
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const [log, file, ...args] = process.argv.slice(2);
if (!log || !file) {
	console.error("usage: launch-recorder.mjs <log file> <file> <args…>");
	process.exit(2);
}
const env = { ...process.env };
const cwd = process.cwd();
let input = "";
const child = spawn(file, args, { stdio: ["pipe", "inherit", "inherit"] });
process.stdin.setEncoding("utf8");
process.stdin.on("data", (text) => {
	input += text;
	child.stdin.write(text);
});
process.stdin.on("end", () => child.stdin.end());
child.stdin.on("error", () => {});
child.on("error", (error) => {
	console.error(`launch-recorder: ${file}: ${error.message}`);
	process.exit(127);
});
child.on("close", (code, signal) => {
	appendFileSync(log, `${JSON.stringify({ argv: [file, ...args], env, cwd, input })}\n`);
	if (signal) process.kill(process.pid, signal);
	else process.exit(code ?? 1);
});
