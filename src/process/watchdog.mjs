// @ts-check
/**
 * The parent-death watchdog (SECURITY.md, "Processes"): one per Pi process, started by lifeline.ts on the
 * first child. It holds the read end of a pipe whose only write end is in Pi; when Pi dies, however it
 * dies (SIGKILL and OOM included), the kernel closes that end and stdin reaches EOF. The watchdog then
 * runs the registered commands and SIGKILLs every registered process group, every process carrying the
 * parent's run marker, and all their descendants, each stopped as it is found (proc-table.mjs,
 * stopAndKillFamily); it sweeps twice, 100 ms apart, and exits.
 *
 * stdin protocol, one JSON object per line:
 *   {"marker": "<VAR>=<token>/"}           environment prefix of the parent's children (first line)
 *   {"add": <id>, "pgid": <n>}            a process group to kill
 *   {"add": <id>, "command": ["file", …]}  a command to run (≤ 1 s) on parent death, e.g. tmux kill-server
 *   {"remove": <id>}                      forget entry <id>
 * Plain JavaScript: it runs with `node` directly, also when the package is installed under node_modules.
 */
import { spawnSync } from "node:child_process";
import { signalGroup, stopAndKillFamily } from "./proc-table.mjs";

/** @type {string | undefined} */
let marker;
/** @type {Map<number, { pgid?: number; command?: string[] }>} */
const entries = new Map();

/** @param {string} line */
function apply(line) {
	let message;
	try {
		message = JSON.parse(line);
	} catch {
		return;
	}
	if (typeof message.marker === "string") marker = message.marker;
	else if (typeof message.add === "number") entries.set(message.add, message);
	else if (typeof message.remove === "number") entries.delete(message.remove);
}

function sweep() {
	const pgids = [...entries.values()].flatMap((entry) => (typeof entry.pgid === "number" ? [entry.pgid] : []));
	// Each found process is stopped first (group members too, so their descendants are still theirs when
	// looked for), so one that keeps re-forking itself cannot outrun the look at /proc.
	stopAndKillFamily(marker, pgids);
	for (const pgid of pgids) signalGroup(pgid, "SIGKILL");
}

let gone = false;

function parentGone() {
	if (gone) return;
	gone = true;
	for (const entry of entries.values()) {
		if (!Array.isArray(entry.command) || entry.command.length === 0) continue;
		const [file, ...args] = entry.command;
		spawnSync(file, args, { stdio: "ignore", timeout: 1000 });
	}
	sweep();
	setTimeout(() => {
		sweep();
		process.exit(0);
	}, 100);
}

// Signals meant for Pi's terminal or group are not ours: only the pipe's EOF ends the watchdog.
for (const signal of /** @type {const} */ (["SIGINT", "SIGHUP", "SIGPIPE"])) process.on(signal, () => {});

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (/** @type {string} */ text) => {
	const lines = (pending + text).split("\n");
	pending = lines.pop() ?? "";
	for (const line of lines) apply(line);
});
process.stdin.on("end", () => {
	apply(pending);
	parentGone();
});
process.stdin.on("error", parentGone);
