// @ts-check
/**
 * The process table read from /proc (proc(5)); on a system without /proc every table is empty. Plain
 * JavaScript because the parent-death watchdog (watchdog.mjs) runs it in its own Node process, where the
 * package's TypeScript cannot be loaded once it is installed under node_modules. Types: proc-table.d.mts.
 *
 * Processes are identified by pid and start time (clock ticks since boot), so a reused pid is never signalled.
 */
import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";

/**
 * The variable every child of this package carries (SECURITY.md, "Processes"), valued
 * `<parent token>/<run number>`; inherited by whatever the child starts, so descendants that left its
 * process group and lost their parent are still found.
 */
export const RUN_MARKER = "PI_NATIVE_SUBAGENTS_RUN";

/** @param {number | string} pid */
export function readStat(pid) {
	try {
		return parseStat(pid, readFileSync(`/proc/${pid}/stat`, "utf8"));
	} catch {
		return undefined;
	}
}

/**
 * @param {number | string} pid
 * @param {string} text the content of /proc/<pid>/stat
 */
function parseStat(pid, text) {
	// "pid (comm) state ppid pgrp session … starttime(22) …"; comm may hold spaces, so split after the last ')'.
	const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
	return {
		pid: Number(pid),
		state: fields[0] ?? "",
		ppid: Number(fields[1]),
		pgid: Number(fields[2]),
		startTime: fields[19] ?? "",
		marked: false,
	};
}

/** @param {string[]} entries */
const pidsOf = (entries) => entries.filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid);

/**
 * Every live (non-zombie) process readable now, except this one; `marked` when `markerPrefix` (e.g.
 * `PI_NATIVE_SUBAGENTS_RUN=<token>/`) starts one of its environment entries.
 * @param {string} [markerPrefix]
 */
export function processTable(markerPrefix) {
	let entries;
	try {
		entries = readdirSync("/proc");
	} catch {
		return [];
	}
	const table = [];
	for (const pid of pidsOf(entries)) {
		const stat = readStat(pid);
		if (!stat || stat.state === "Z") continue;
		stat.marked = carriesMarker(() => readFileSync(`/proc/${pid}/environ`, "latin1"), markerPrefix);
		table.push(stat);
	}
	return table;
}

/**
 * As processTable, reading /proc without blocking the event loop.
 * @param {string} [markerPrefix]
 */
export async function processTableAsync(markerPrefix) {
	let entries;
	try {
		entries = await readdir("/proc");
	} catch {
		return [];
	}
	const read = async (/** @type {string} */ pid) => {
		try {
			const stat = parseStat(pid, await readFile(`/proc/${pid}/stat`, "utf8"));
			if (stat.state === "Z") return undefined;
			const environ =
				markerPrefix === undefined ? "" : await readFile(`/proc/${pid}/environ`, "latin1").catch(() => "");
			stat.marked = carriesMarker(() => environ, markerPrefix);
			return stat;
		} catch {
			return undefined;
		}
	};
	const stats = await Promise.all(pidsOf(entries).map(read));
	return stats.filter((stat) => stat !== undefined);
}

/**
 * Members of the groups `pgids`, the `marked` processes, and all their descendants (in any group).
 * @param {ReturnType<typeof processTable>} table
 * @param {Iterable<number>} pgids
 */
export function familyOf(table, pgids) {
	const groups = new Set(pgids);
	const children = new Map();
	for (const stat of table) {
		const list = children.get(stat.ppid) ?? [];
		list.push(stat);
		children.set(stat.ppid, list);
	}
	const found = new Map();
	const queue = table.filter((stat) => groups.has(stat.pgid) || stat.marked);
	for (let stat = queue.shift(); stat !== undefined; stat = queue.shift()) {
		if (found.has(stat.pid)) continue;
		found.set(stat.pid, stat);
		queue.push(...(children.get(stat.pid) ?? []));
	}
	return [...found.values()];
}

/**
 * @param {() => string} readEnviron
 * @param {string | undefined} markerPrefix
 */
function carriesMarker(readEnviron, markerPrefix) {
	if (markerPrefix === undefined) return false;
	try {
		// Only our own user's processes are readable; others throw and are not ours to signal anyway.
		return `\0${readEnviron()}`.includes(`\0${markerPrefix}`);
	} catch {
		return false;
	}
}

/**
 * Sends `signal` to each process that is still the same process (same start time); never throws.
 * @param {Array<{ pid: number; startTime: string }>} targets
 * @param {NodeJS.Signals} signal
 */
export function signalEach(targets, signal) {
	for (const target of targets) {
		if (readStat(target.pid)?.startTime !== target.startTime) continue;
		try {
			process.kill(target.pid, signal);
		} catch {
			// Gone, or not ours to signal.
		}
	}
}

/**
 * Sends `signal` to every process of group `pgid`; never throws (the group may be gone: ESRCH).
 * @param {number} pgid
 * @param {NodeJS.Signals} signal
 */
export function signalGroup(pgid, signal) {
	try {
		process.kill(-pgid, signal);
	} catch {
		// Gone, or not ours to signal.
	}
}
