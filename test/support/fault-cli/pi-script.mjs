// A stand-in for `pi --mode json` that plays a script of actions, for run-level fault tests the real
// binary cannot produce on demand. argv[2]: the script as JSON (an array of actions); Pi's own flags
// that follow are ignored. stdin (the task, and any RPC command) is read and discarded: it acknowledges nothing.
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
//   {"longAnswer": N}                  a message_end of an assistant message of N "y" characters
//   {"longToolOutput": N}              a bash tool_execution_start/_end pair whose output is N "z" characters
//   {"stderr": N}                      N bytes of "e" on stderr
//   {"longFields": N}                  a session header, 20 tool calls and an answer whose session id, tool names,
//                                      tool-call ids and model name are each N characters (argv cannot carry them)
//   {"repeat": N, "actions": [...]}    play the nested actions N times ("%i" in emitted strings → the round)
import { spawn } from "node:child_process";

process.stdin.resume();
process.stdin.on("data", () => {});
const actions = JSON.parse(process.argv[2] ?? "[]");
const write = (text) =>
	new Promise((resolve) => (process.stdout.write(text) ? resolve() : process.stdout.once("drain", resolve)));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `value` with every "%i" inside its strings replaced by `round`. */
const numbered = (value, round) => JSON.parse(JSON.stringify(value).replaceAll("%i", String(round)));

const play = async (list, round) => {
	for (const action of list) {
		if ("repeat" in action) {
			for (let i = 0; i < action.repeat; i++) await play(numbered(action.actions, i), i);
		} else if ("emit" in action) await write(`${JSON.stringify(action.emit)}\n`);
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
		} else if ("longAnswer" in action) {
			const message = {
				role: "assistant",
				content: [{ type: "text", text: "y".repeat(action.longAnswer) }],
				stopReason: "stop",
			};
			await write(`${JSON.stringify({ type: "message_end", message })}\n`);
		} else if ("longToolOutput" in action) {
			const id = `tool_${round}`;
			await write(`${JSON.stringify({ type: "tool_execution_start", toolCallId: id, toolName: "bash", args: {} })}\n`);
			const result = { content: [{ type: "text", text: "z".repeat(action.longToolOutput) }] };
			await write(`${JSON.stringify({ type: "tool_execution_end", toolCallId: id, toolName: "bash", result })}\n`);
		} else if ("longFields" in action) {
			const long = (c) => c.repeat(action.longFields);
			await write(`${JSON.stringify({ type: "session", id: long("s") })}\n`);
			for (let i = 0; i < 20; i++) {
				const call = { toolCallId: `${long("c")}${i}`, toolName: `${long("t")}${i}` };
				await write(`${JSON.stringify({ type: "tool_execution_start", ...call, args: {} })}\n`);
				const result = { content: [{ type: "text", text: "ok" }] };
				await write(`${JSON.stringify({ type: "tool_execution_end", ...call, result })}\n`);
			}
			const message = {
				role: "assistant",
				content: [{ type: "text", text: "long fields done" }],
				provider: long("p"),
				model: long("m"),
				stopReason: "stop",
			};
			await write(`${JSON.stringify({ type: "message_end", message })}\n`);
		} else if ("stderr" in action) {
			await new Promise((resolve) => process.stderr.write("e".repeat(action.stderr), resolve));
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
};
await play(actions, 0);
// Not process.exit(0): it would drop output still queued for the pipe. Ending stdin lets Node exit once
// stdout is flushed.
if (!actions.some((action) => "hang" in action)) process.stdin.destroy();
