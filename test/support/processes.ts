/** Process liveness checks for tests that prove nothing survives. */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { isDead, type ProcStat, processTable, readStat } from "../../src/process/proc-table.mjs";

/**
 * How long a test waits for something that must happen (a process gone, a file written) before it fails
 * naming it, in ms. Not a claim about speed: well under the test timeout, well over a loaded machine's delays.
 */
export const WAIT_LIMIT_MS = 20_000;

/**
 * True while `pid` exists and is not a zombie (a zombie still answers `kill(pid, 0)` until it is reaped); a leader
 * whose own thread exited lives while its other threads run.
 */
export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	const stat = readStat(pid);
	return stat !== undefined && !isDead(stat);
}

/** pids of every live process whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
	const members: number[] = [];
	for (const entry of readdirSafe("/proc")) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
			const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
			// fields[0] is state, fields[2] is pgrp (proc(5)).
			if (Number(fields[2]) === pgid && fields[0] !== "Z") members.push(Number(entry));
		} catch {
			// The process ended while we looked.
		}
	}
	return members;
}

/** A process by pid and start time (clock ticks since boot, as text): together they survive pid reuse. */
export type ProcessIdentity = Pick<ProcStat, "pid" | "startTime">;

/** `pid` (first) and every live process descending from it (by parent pid in /proc), now; `[]` when it is gone. */
export function processTree(pid: number): ProcessIdentity[] {
	const root = readStat(pid);
	if (!root || root.state === "Z") return [];
	const table = processTable();
	const tree: ProcessIdentity[] = [root];
	for (let i = 0; i < tree.length; i++) tree.push(...table.filter((stat) => stat.ppid === tree[i].pid));
	return tree.map(({ pid, startTime }) => ({ pid, startTime }));
}

/** True while the process `target` identifies runs (the same pid and start time, not a zombie). */
export function isRunning(target: ProcessIdentity): boolean {
	const stat = readStat(target.pid);
	return stat !== undefined && stat.state !== "Z" && stat.startTime === target.startTime;
}

/**
 * pids of every live process whose command line (arguments joined by spaces) contains `pattern` (a
 * substring, or a RegExp tested against the whole line). Finds
 * processes whose own pid is not known outside: e.g. commands codex runs in a bwrap PID namespace,
 * where `$$` and `$!` are namespace-local numbers.
 */
export function processesMatching(pattern: string | RegExp): number[] {
	const pids: number[] = [];
	for (const entry of readdirSafe("/proc")) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		try {
			const cmdline = readCommandLine(entry);
			const matches = typeof pattern === "string" ? cmdline.includes(pattern) : pattern.test(cmdline);
			if (matches && isAlive(Number(entry))) pids.push(Number(entry));
		} catch {
			// The process ended while we looked.
		}
	}
	return pids;
}

/** pids of every live process (other than this one) whose environment holds the entry `entry` (`NAME=value`). */
export function processesWithEnv(entry: string): number[] {
	const pids: number[] = [];
	for (const pid of readdirSafe("/proc")) {
		if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
		try {
			if (readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(entry) && isAlive(Number(pid))) {
				pids.push(Number(pid));
			}
		} catch {
			// The process ended while we looked, or is not ours.
		}
	}
	return pids;
}

/**
 * pids of every live process (other than this one) that uses one of the directories `dirs`: an entry of its
 * environment names a path in one of them (as the variables of an isolated home do, inherited by everything
 * a binary started with them runs), or its working directory is inside one. This is how a test finds what it
 * started wherever it went in the process tree, even re-parented or in another session.
 */
export function processesUsing(dirs: readonly string[]): number[] {
	const roots = [...new Set(dirs.flatMap((dir) => [dir, realpathOr(dir)]))];
	const inside = (path: string) => roots.some((root) => path === root || path.startsWith(`${root}/`));
	const mentions = (value: string) => roots.some((root) => value === root || value.includes(`${root}/`));
	const pids: number[] = [];
	for (const entry of readdirSafe("/proc")) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		try {
			const environ = readFileSync(`/proc/${entry}/environ`, "latin1").split("\0");
			const uses = environ.some((line) => mentions(line.slice(line.indexOf("=") + 1)));
			if ((uses || inside(readlinkSync(`/proc/${entry}/cwd`))) && isAlive(Number(entry))) pids.push(Number(entry));
		} catch {
			// The process ended while we looked, or is not ours to read.
		}
	}
	return pids;
}

/** The command line of `pid` (arguments joined by spaces), or "(gone)". */
export function commandLineOf(pid: number): string {
	try {
		return readCommandLine(pid);
	} catch {
		return "(gone)";
	}
}

/** @throws when the process is gone */
function readCommandLine(pid: number | string): string {
	return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0$/, "").split("\0").join(" ");
}

function realpathOr(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

/**
 * Waits until `check()` (which may be async) is true, polling every 50 ms; rejects with `what` after `timeoutMs`. The default is
 * generous on purpose: it only turns a hang into a named failure, and a loaded machine is slow, not broken.
 */
export async function waitUntil(
	check: () => boolean | Promise<boolean>,
	what: string,
	timeoutMs = WAIT_LIMIT_MS,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/**
 * A shell command (for a child's tool call) that starts `waitCommand` in the background, then execs it in
 * the foreground, first writing the two pids to `bg.pid` and `fg.pid` in `pidDir` (created here).
 */
export function pidRecordingCommand(pidDir: string, waitCommand: string): string {
	mkdirSync(pidDir, { recursive: true });
	return `${waitCommand} & echo $! > ${pidDir}/bg.pid; echo $$ > ${pidDir}/fg.pid; exec ${waitCommand}`;
}

/** Waits (as waitUntil, naming `what`) for both pid files of a pidRecordingCommand; returns their pids. */
export async function recordedPids(pidDir: string, what: string): Promise<{ bg: number; fg: number }> {
	const bgFile = join(pidDir, "bg.pid");
	const fgFile = join(pidDir, "fg.pid");
	// `echo $! > file` creates the file before it writes the pid: wait for the whole line, not the file.
	const written = (file: string) => existsSync(file) && readFileSync(file, "utf8").endsWith("\n");
	await waitUntil(() => written(fgFile) && written(bgFile), what);
	return { bg: Number(readFileSync(bgFile, "utf8")), fg: Number(readFileSync(fgFile, "utf8")) };
}

function readdirSafe(dir: string): string[] {
	try {
		return readdirSync(dir);
	} catch {
		return [];
	}
}

/**
 * Waits (as waitUntil, naming `what`) until ten looks at /proc in a row find no process whose environment
 * holds `entry`: one empty look proves nothing against a process that keeps re-forking itself (it may be
 * between two pids then).
 */
export async function waitUntilNoneWithEnv(entry: string, what: string): Promise<void> {
	let emptyLooks = 0;
	await waitUntil(() => {
		emptyLooks = processesWithEnv(entry).length === 0 ? emptyLooks + 1 : 0;
		return emptyLooks >= 10;
	}, what);
}

/**
 * Starts a "hopper" in a session of its own: every `seconds` it forks its successor and exits, so it is
 * never one process for long. It carries `env` (e.g. a run marker and a tag); resolves once its first
 * process has handed over to the hopping (the `setsid` child exited).
 */
export async function startHopper(seconds: number, env: Record<string, string>): Promise<void> {
	const hopper = spawn("setsid", ["sh", "-c", `h() { sleep ${seconds}; h & exit 0; }; h`], {
		stdio: "ignore",
		env: { PATH: process.env.PATH ?? "", ...env },
	});
	await new Promise((resolve) => hopper.once("exit", resolve));
}

/** Test cleanup: SIGSTOPs every process whose environment holds `tag` (`NAME=value`) until ten looks in a row find no new one, then SIGKILLs them. */
export function freezeAndKill(tag: string): void {
	const seen = new Set<number>();
	for (let round = 0, quiet = 0; round < 200 && quiet < 10; round++) {
		const fresh = processesWithEnv(tag).filter((pid) => !seen.has(pid));
		quiet = fresh.length === 0 ? quiet + 1 : 0;
		for (const pid of fresh) {
			seen.add(pid);
			try {
				process.kill(pid, "SIGSTOP");
			} catch {}
		}
	}
	for (const pid of seen) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {}
	}
}

/**
 * A `python3 -c` program whose main thread exits while its second thread sleeps 600 s: /proc shows it as a
 * zombie with no environment of its own, yet it lives on (and keeps its environment in the live thread's).
 */
export const MAIN_THREAD_EXITS_PY = [
	"import ctypes, threading, time",
	"threading.Thread(target=lambda: time.sleep(600)).start()",
	"ctypes.CDLL(None).pthread_exit(None)",
].join("; ");
