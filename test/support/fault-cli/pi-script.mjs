// A stand-in for `pi --mode json` that plays a script of actions, for run-level fault tests the real
// binary cannot produce on demand. argv[2]: the script as JSON (an array of actions); Pi's own flags
// that follow are ignored. stdin (the task) is read and discarded.
// Actions:
//   {"emit": <record>}                 one JSON line
//   {"raw": "<text>"}                  text as is
//   {"splitBytes": "<text>", "at": N, "delayMs": N}   the UTF-8 bytes of text, written in two parts cut at byte N
//   {"longDelta": N}                   a message_update text delta of N "x" characters (argv cannot carry it)
//   {"sleep": N}                       wait N ms
//   {"ignoreSigterm": true}            ignore SIGTERM from now on
//   {"grandchild": true}               spawn a grandchild (same group) that holds stdout and ignores SIGTERM;
//                                      emits {"type":"grandchild","pid":N}
//   {"hang": true}                     never exit
//   {"exit": N}                        exit with code N (default at the end: 0)
import { spawn } from "node:child_process";

process.stdin.resume();
process.stdin.on("data", () => {});
const actions = JSON.parse(process.argv[2] ?? "[]");
const write = (text) =>
	new Promise((resolve) => (process.stdout.write(text) ? resolve() : process.stdout.once("drain", resolve)));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

for (const action of actions) {
	if ("emit" in action) await write(`${JSON.stringify(action.emit)}\n`);
	else if ("raw" in action) await write(action.raw);
	else if ("splitBytes" in action) {
		const bytes = Buffer.from(action.splitBytes);
		await write(bytes.subarray(0, action.at));
		await sleep(action.delayMs ?? 50);
		await write(bytes.subarray(action.at));
	} else if ("longDelta" in action) {
		const record = {
			type: "message_update",
			assistantMessageEvent: { type: "text_delta", delta: "x".repeat(action.longDelta) },
		};
		await write(`${JSON.stringify(record)}\n`);
	} else if ("sleep" in action) await sleep(action.sleep);
	else if ("ignoreSigterm" in action) process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\n"));
	else if ("grandchild" in action) {
		const child = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1e6);"], {
			stdio: ["ignore", "inherit", "inherit"],
		});
		child.unref();
		await write(`${JSON.stringify({ type: "grandchild", pid: child.pid })}\n`);
	} else if ("hang" in action) setInterval(() => {}, 1e6);
	else if ("exit" in action) process.exit(action.exit);
}
if (!actions.some((action) => "hang" in action)) process.exit(0);
