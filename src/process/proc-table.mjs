// @ts-check
/**
 * The process table read from /proc (proc(5)); on a system without /proc every table is empty. Plain
 * JavaScript because the parent-death watchdog (watchdog.mjs) runs it in its own Node process, where the
 * package's TypeScript cannot be loaded once it is installed under node_modules. Types: proc-table.d.mts.
 *
 * Processes are identified by pid and start time (clock ticks since boot), so a reused pid is never signalled.
 */
import { readdirSync, readFileSync } from "node:fs";

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
 * SIGKILLs the members of the groups `pgids`, the processes carrying `markerPrefix` and all their
 * descendants, including one that keeps re-forking itself (each generation forks its successor and exits)
 * faster than the whole table can be read, which a kill after one look at /proc misses: the stale look
 * names only dead generations. Here each process is SIGSTOPped the moment it is found (newest pids first, so
 * the current generation is reached soon after the directory is listed), and so is its whole process group:
 * a successor forked meanwhile is in its group (unless it left it) and the kernel does not let a fork
 * escape a group-wide signal, so the group stop reaches it even when the generation found is already gone.
 * The group of the calling process is never signalled; the child's processes are in sessions of their own.
 * A stopped process forks no more; /proc is listed again until a listing finds no new one (two in a row
 * once anything was found; at most `maxScans` listings), then every stopped group and process is SIGKILLed. Synchronous; never throws.
 * Returns how many processes were killed.
 * @param {string | undefined} markerPrefix
 * @param {Iterable<number>} pgids
 * @param {number} [maxScans]
 */
export function stopAndKillFamily(markerPrefix, pgids, maxScans = 20) {
	const groups = new Set(pgids);
	const ownGroup = readStat(process.pid)?.pgid;
	/** Groups of found processes, stopped as a whole. */
	const stoppedGroups = new Set();
	/** @type {Map<number, NonNullable<ReturnType<typeof readStat>>>} */
	const stopped = new Map();
	// Done after two listings in a row that find nothing new: a re-forking generation may be between two
	// pids during any one listing, the first included.
	for (let scan = 0, quiet = 0; scan < maxScans && quiet < 2; scan++) {
		let entries;
		try {
			entries = readdirSync("/proc");
		} catch {
			break;
		}
		const before = stopped.size;
		for (const pid of pidsOf(entries)
			.map(Number)
			.sort((a, b) => b - a)) {
			if (stopped.has(pid)) continue;
			const stat = readStat(pid);
			if (!stat || stat.state === "Z") continue;
			const ours =
				groups.has(stat.pgid) ||
				stopped.has(stat.ppid) ||
				carriesMarker(() => readFileSync(`/proc/${pid}/environ`, "latin1"), markerPrefix);
			if (!ours) continue;
			if (stat.pgid !== ownGroup && !stoppedGroups.has(stat.pgid)) {
				stoppedGroups.add(stat.pgid);
				groups.add(stat.pgid);
				signalGroup(stat.pgid, "SIGSTOP");
			}
			try {
				process.kill(pid, "SIGSTOP");
			} catch {
				continue; // Gone since its stat was read, or not ours to signal.
			}
			stopped.set(pid, stat);
		}
		quiet = stopped.size === before ? quiet + 1 : 0;
	}
	for (const pgid of stoppedGroups) signalGroup(pgid, "SIGKILL");
	signalEach([...stopped.values()], "SIGKILL");
	return stopped.size;
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
