/**
 * Processes a test started, identified by pid and start time (a pid alone may be reused), read from /proc:
 * whether one is still the same live process, and the live descendants of a pid.
 */
import { readdirSync } from "node:fs";
import { readStat } from "../../src/process/proc-table.mjs";

export type Identity = { pid: number; startTime: string };

function startTime(pid: number): string {
	return readStat(pid)?.startTime ?? "";
}

/** `pid` with its start time now ("" when it is gone). */
export function identity(pid: number): Identity {
	return { pid, startTime: startTime(pid) };
}

/** The process still runs (not a zombie) and is the one recorded, not a reuse of its pid. */
export function isSame(target: Identity): boolean {
	const stat = readStat(target.pid);
	return stat !== undefined && stat.state !== "Z" && stat.startTime === target.startTime;
}

/** Every live descendant of `root`, from /proc. */
export function descendants(root: number): Identity[] {
	const table = new Map<number, number[]>();
	for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
		const stat = readStat(entry);
		if (!stat || stat.state === "Z") continue;
		table.set(stat.ppid, [...(table.get(stat.ppid) ?? []), stat.pid]);
	}
	const found: Identity[] = [];
	const queue = [...(table.get(root) ?? [])];
	for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
		found.push(identity(pid));
		queue.push(...(table.get(pid) ?? []));
	}
	return found;
}
