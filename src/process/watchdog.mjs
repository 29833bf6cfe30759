// @ts-check
/**
 * The parent-death watchdog (SECURITY.md, "Processes"): one per Pi process, started by lifeline.ts on the
 * first child. It holds the read end of a pipe whose only write end is in Pi; when Pi dies, however it
 * dies (SIGKILL and OOM included), the kernel closes that end and stdin reaches EOF. The watchdog then
 * runs the registered commands and SIGKILLs every registered process group, every process carrying the
 * parent's run marker, and all their descendants, each stopped as it is found (proc-table.mjs,
 * stopAndKillFamily); it sweeps twice, 100 ms apart, removes the parent's run and tmux directories
 * (core/leftover-dirs.mjs: real directories of this user named after the parent's pid, in the parent's temp
 * dir; what it cannot remove is left for a later session start's sweep) and exits.
 *
 * stdin protocol, one JSON object per line (each ends with `"live": <n>, "open": <n>`, for the gate in
 * lifeline.ts, which this process ignores):
 *   {"marker": "<VAR>=<token>/", "tmpdir": "<abs>", "pid": <n>}
 *                                         the parent's children's environment prefix, its os.tmpdir() and
 *                                         its pid (first line)
 *   {"add": <id>, "pgid": <n>}            a process group to kill
 *   {"add": <id>, "command": ["file", …]}  a command to run (≤ 1 s) on parent death, e.g. tmux kill-server
 *   {"remove": <id>}                      forget entry <id>
 *   {"marker_out": <run>} / {"settled": <run>}
 *                                         a run marker handed out / settled (for the gate's count; ignored here)
 * Plain JavaScript: it runs with `node` directly, also when the package is installed under node_modules.
 */
import { spawnSync } from "node:child_process";
import { isAbsolute } from "node:path";
import { removeLeftoverDirs } from "../core/leftover-dirs.mjs";
import { signalGroup, stopAndKillFamily } from "./proc-table.mjs";

/** @type {string | undefined} */
let marker;
/**
 * The parent's temp dir and pid, naming the directories it made; `undefined` until told.
 * @type {{ tmpdir: string; pid: number } | undefined}
 */
let maker;
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
	if (typeof message.marker === "string") {
		marker = message.marker;
		const { tmpdir, pid } = message;
		if (typeof tmpdir === "string" && isAbsolute(tmpdir) && Number.isSafeInteger(pid) && pid > 0)
			maker = { tmpdir, pid };
	} else if (typeof message.add === "number") entries.set(message.add, message);
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
		// After the kills, so no child of the parent is still writing into them.
		if (maker) removeLeftoverDirs(maker.tmpdir, (pid) => pid === maker?.pid);
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
