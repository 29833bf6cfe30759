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
 * `<parent token>/<run number>/`; inherited by whatever the child starts, so descendants that left its
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
		threads: Number(fields[17]),
		marked: false,
	};
}

/**
 * A thread of process `pid` that has not exited, or `undefined`: a zombie's entry (state "Z") stands for a process
 * that is gone, except a leader whose own thread exited while other threads of it run (`pthread_exit` in its main
 * thread), which lives and can be signalled. Its thread count alone does not tell: the threads of a traced process
 * stay zombies until their tracer collects them. Never throws.
 * @param {number} pid
 */
function liveThread(pid) {
	let tids;
	try {
		tids = readdirSync(`/proc/${pid}/task`);
	} catch {
		return undefined; // Gone meanwhile.
	}
	for (const tid of tids) {
		if (Number(tid) === pid) continue;
		try {
			const text = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
			if (text.slice(text.lastIndexOf(")") + 2).split(" ", 1)[0] !== "Z") return tid;
		} catch {
			// That thread is gone meanwhile; another may live.
		}
	}
	return undefined;
}

/**
 * Whether the process is gone but for its entry: a zombie with no live thread ({@link liveThread}).
 * @param {{ pid: number; state: string; threads: number }} stat
 */
export const isDead = (stat) => stat.state === "Z" && !(stat.threads > 1 && liveThread(stat.pid) !== undefined);

/**
 * The environment of process `stat.pid` (latin1). A live leader whose own thread exited has none of its own any
 * more: it is read through one of its live threads. Throws what reading throws.
 * @param {{ pid: number; state: string }} stat
 */
function readEnviron(stat) {
	if (stat.state !== "Z") return readFileSync(`/proc/${stat.pid}/environ`, "latin1");
	const tid = liveThread(stat.pid);
	return tid === undefined ? "" : readFileSync(`/proc/${stat.pid}/task/${tid}/environ`, "latin1");
}

/** @param {string[]} entries */
const pidsOf = (entries) => entries.filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid);

/**
 * Every live process readable now (a zombie is not; a leader that lives on in its other threads is), except this one; `marked` when `markerPrefix` (e.g.
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
		if (!stat || isDead(stat)) continue;
		stat.marked = carriesMarker(() => readEnviron(stat), markerPrefix);
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
 * A listing of /proc counts as one that found nothing only when the pids new in it were all read within
 * this many ms of its start (see stopAndKillFamily).
 */
const PROMPT_LISTING_MS = 5;

/**
 * SIGKILLs the members of the groups `pgids`, the processes carrying `markerPrefix` and all their
 * descendants, including one that keeps re-forking itself (each generation forks its successor and exits)
 * faster than the whole table can be read, which a kill after one look at /proc misses: the stale look
 * names only dead generations. Here each process is SIGSTOPped the moment it is found, and so is its whole
 * process group: a successor forked meanwhile is in its group (unless it left it) and the kernel does not
 * let a fork escape a group-wide signal, so the group stop reaches it even when the generation found is
 * already gone. The group of the calling process is never signalled; the child's processes are in
 * sessions of their own. A stopped process forks no more; /proc is listed again until two listings in a
 * row find nothing new (at most `maxScans` listings), then every stopped group and process is SIGKILLed.
 *
 * Why a listing can miss such a process: its live generation is in the listing, but if this process is
 * held up (a loaded machine) before it reads that pid, the generation has forked on and exited and its
 * successor is in no listing yet. So each listing reads the pids that are new since the previous one first,
 * newest first (a re-forking process's live generation is among them: it forked after that listing), and
 * a listing counts as finding nothing only when those were all read within PROMPT_LISTING_MS of its start.
 * Two such listings in a row miss a process only if a generation of it ended within that time of each
 * (it re-forks every few ms, or by a rare coincidence). Synchronous; never throws. Returns how many
 * processes were killed.
 *
 * A process carries the marker only when it descends from the run's first process, so it started no earlier:
 * with `options.bornFrom` (that process's start time, clock ticks since boot) the environment of an older
 * process is not read (each read is a file of /proc; most of the table is older than any run).
 * @param {string | undefined} markerPrefix
 * @param {Iterable<number>} pgids
 * @param {number} [maxScans]
 * @param {{ bornFrom?: number; now?: () => number; afterListing?: (pids: number[]) => void }} [options]
 *   `bornFrom` as above; for tests only: the clock (ms; default performance.now) and a hook run after each
 *   listing, before its pids are read.
 */
export function stopAndKillFamily(markerPrefix, pgids, maxScans = 20, options = {}) {
	const now = options.now ?? (() => performance.now());
	const family = new StoppedFamily(markerPrefix, pgids, options.bornFrom);
	let listed = new Set();
	for (let scan = 0, quiet = 0; scan < maxScans && quiet < 2; scan++) {
		const listingStart = now();
		let entries;
		try {
			entries = readdirSync("/proc");
		} catch {
			break;
		}
		const before = family.stopped.size;
		const pids = pidsOf(entries)
			.map(Number)
			.sort((a, b) => b - a);
		options.afterListing?.(pids);
		for (const pid of pids) if (!listed.has(pid)) family.look(pid);
		const prompt = now() - listingStart <= PROMPT_LISTING_MS;
		for (const pid of pids) if (listed.has(pid)) family.look(pid);
		listed = new Set(pids);
		quiet = family.stopped.size === before && prompt ? quiet + 1 : 0;
	}
	return family.kill();
}

/** The processes and groups stopAndKillFamily has found and stopped so far. */
class StoppedFamily {
	/**
	 * @param {string | undefined} markerPrefix
	 * @param {Iterable<number>} pgids
	 * @param {number} [bornFrom] start time (clock ticks) before which no process can carry the marker
	 */
	constructor(markerPrefix, pgids, bornFrom = 0) {
		this.markerPrefix = markerPrefix;
		this.bornFrom = bornFrom;
		this.groups = new Set(pgids);
		this.ownGroup = readStat(process.pid)?.pgid;
		/** Groups of found processes, stopped as a whole. */
		this.stoppedGroups = new Set();
		/** @type {Map<number, NonNullable<ReturnType<typeof readStat>>>} */
		this.stopped = new Map();
	}

	/**
	 * Stops `pid` (and its group) when it is ours: in one of the groups, a child of a stopped process, or
	 * carrying the marker.
	 * @param {number} pid
	 */
	look(pid) {
		if (this.stopped.has(pid)) return;
		const stat = readStat(pid);
		if (!stat || isDead(stat)) return;
		const ours =
			this.groups.has(stat.pgid) ||
			this.stopped.has(stat.ppid) ||
			(Number(stat.startTime) >= this.bornFrom && carriesMarker(() => readEnviron(stat), this.markerPrefix));
		if (!ours) return;
		if (stat.pgid !== this.ownGroup && !this.stoppedGroups.has(stat.pgid)) {
			this.stoppedGroups.add(stat.pgid);
			this.groups.add(stat.pgid);
			signalGroup(stat.pgid, "SIGSTOP");
		}
		try {
			process.kill(pid, "SIGSTOP");
		} catch {
			return; // Gone since its stat was read, or not ours to signal.
		}
		this.stopped.set(pid, stat);
	}

	/** SIGKILLs every stopped group and process; returns how many processes were stopped. */
	kill() {
		for (const pgid of this.stoppedGroups) signalGroup(pgid, "SIGKILL");
		signalEach([...this.stopped.values()], "SIGKILL");
		return this.stopped.size;
	}
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
