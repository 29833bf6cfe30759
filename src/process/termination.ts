/**
 * Ending a process group (docs/rules.md §Child processes): SIGTERM to the whole group, SIGKILL after a grace measured
 * on the leader's real exit (its `exit` event, not `child.killed`, which only says a signal was sent), and SIGKILL for
 * anything of the group still alive once the leader is gone. Nothing of the group survives.
 *
 * The child leads its own group (spawned `detached`), so its pid is the group id and `-pid` addresses the
 * group. Descendants that left the group (a harness that starts each command in a new session, e.g. codex
 * without its sandbox, or `setsid`) are found through /proc when termination starts and signalled with it. A pid stays reserved while it is the id of a group with a live member, so signalling the group
 * after the leader exited is safe as long as a member remains; once the group is empty the kernel answers
 * ESRCH.
 */

import { readdirSync, readFileSync } from "node:fs";

/** Sends `signal` to every process of group `pgid`; never throws (the group may be gone: ESRCH). */
function signalGroup(pgid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pgid, signal);
	} catch {
		// Gone, or not ours to signal.
	}
}

/** A process identified by pid and start time (clock ticks since boot), so a reused pid is never signalled. */
interface ProcessIdentity {
	pid: number;
	startTime: string;
}

interface ProcStat {
	ppid: number;
	pgid: number;
	startTime: string;
}

/** Fields of /proc/<pid>/stat (proc(5)); `undefined` when the process is gone or there is no /proc. */
function readStat(pid: number | string): ProcStat | undefined {
	let text: string;
	try {
		text = readFileSync(`/proc/${pid}/stat`, "utf8");
	} catch {
		return undefined;
	}
	// "pid (comm) state ppid pgrp session … starttime(22) …"; comm may hold spaces, so split after the last ')'.
	const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
	return { ppid: Number(fields[1]), pgid: Number(fields[2]), startTime: fields[19] ?? "" };
}

/**
 * Live descendants of `pid` that are no longer in group `pgid`, read synchronously from /proc (Linux; an
 * empty list elsewhere). Synchronous on purpose: they must be found before the signal makes their parent
 * exit and they are re-parented out of reach. (`pidtree`/`ps-tree` would spawn `ps` asynchronously.)
 */
export function escapedDescendants(pid: number, pgid: number): ProcessIdentity[] {
	let entries: string[];
	try {
		entries = readdirSync("/proc");
	} catch {
		return [];
	}
	const children = new Map<number, Array<{ pid: number; stat: ProcStat }>>();
	for (const entry of entries) {
		if (!/^\d+$/.test(entry)) continue;
		const stat = readStat(entry);
		if (!stat) continue;
		const list = children.get(stat.ppid) ?? [];
		list.push({ pid: Number(entry), stat });
		children.set(stat.ppid, list);
	}
	const escaped: ProcessIdentity[] = [];
	const queue = [pid];
	for (let parent = queue.shift(); parent !== undefined; parent = queue.shift()) {
		for (const child of children.get(parent) ?? []) {
			queue.push(child.pid);
			if (child.stat.pgid !== pgid) escaped.push({ pid: child.pid, startTime: child.stat.startTime });
		}
	}
	return escaped;
}

/** Signals `process` if it is still the same process (same start time); never throws. */
function signalProcess(target: ProcessIdentity, signal: NodeJS.Signals): void {
	if (readStat(target.pid)?.startTime !== target.startTime) return;
	try {
		process.kill(target.pid, signal);
	} catch {
		// Gone, or not ours to signal.
	}
}

/** Groups started by this Pi process and not yet ended; killed if Pi itself exits first. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killLiveGroups(): void {
	for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
}

/**
 * Escalation for one process group. `terminate()` sends SIGTERM to the group and arms SIGKILL after
 * `killGraceMs`; `leaderExited()` must be called from the leader's `exit` event: it disarms the timer
 * and SIGKILLs the rest of the group (grandchildren that ignore SIGTERM or were never signalled).
 *
 * While the group is live it is also registered for a synchronous SIGKILL on Pi's own `exit`, because a
 * detached group would otherwise outlive its parent.
 */
export class GroupTerminator {
	readonly #pgid: number;
	readonly #killGraceMs: number;
	#killTimer: NodeJS.Timeout | undefined;
	#terminating = false;
	#leaderGone = false;
	#escaped: ProcessIdentity[] = [];

	/**
	 * @param pgid the child's pid, which is its process-group id.
	 * @param killGraceMs grace between SIGTERM and SIGKILL, ms (`RunLimits.killGraceMs`).
	 */
	constructor(pgid: number, killGraceMs: number) {
		this.#pgid = pgid;
		this.#killGraceMs = killGraceMs;
		liveGroups.add(pgid);
		if (!exitHookInstalled) {
			exitHookInstalled = true;
			process.on("exit", killLiveGroups);
		}
	}

	/** SIGTERM to the group now, SIGKILL after `killGraceMs` unless the leader exits first. Idempotent. */
	terminate(): void {
		if (this.#terminating || this.#leaderGone) return;
		this.#terminating = true;
		this.#escaped = escapedDescendants(this.#pgid, this.#pgid);
		signalGroup(this.#pgid, "SIGTERM");
		for (const target of this.#escaped) signalProcess(target, "SIGTERM");
		this.#killTimer = setTimeout(() => this.#killAll(), this.#killGraceMs);
	}

	#killAll(): void {
		signalGroup(this.#pgid, "SIGKILL");
		for (const target of this.#escaped) signalProcess(target, "SIGKILL");
	}

	/**
	 * The leader has exited: stop the escalation timer and SIGKILL whatever is left of the group.
	 * After this the group is not signalled again (its id may be reused once it is empty).
	 */
	leaderExited(): void {
		if (this.#leaderGone) return;
		this.#leaderGone = true;
		clearTimeout(this.#killTimer);
		this.#killAll();
		liveGroups.delete(this.#pgid);
	}
}
