/**
 * Signals and reaping of a tmux pane's process (src/interactive/tmux-host.ts): its group is signalled, falling back
 * to the process alone, and a pane process that outlives its grace is SIGKILLed with its group.
 */

import { existsSync } from "node:fs";
import { processTable } from "../process/proc-table.mjs";

/**
 * True while process group `pgid` has a live member (not a zombie; a group's id is not reused while it has
 * one). Read from /proc; where there is none, any member (a zombie too) counts.
 */
export function groupAlive(pgid: number): boolean {
	if (existsSync("/proc/self/stat")) return processTable().some((stat) => stat.pgid === pgid);
	try {
		process.kill(-pgid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/** Sends SIGCHLD to the tmux server `pid` (see `TmuxHost.pane`); nothing when it is gone. */
export function nudgeReaping(pid: number): void {
	if (!Number.isInteger(pid) || pid <= 1) return;
	try {
		process.kill(pid, "SIGCHLD");
	} catch {
		// The server has exited: its panes are gone with it.
	}
}

/** Sends `signal` to the group `pid` leads, else to `pid` alone; whether either was sent. Never throws. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		try {
			process.kill(pid, signal);
			return true;
		} catch {
			return false;
		}
	}
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** Waits up to `graceMs` for `pid` to be gone, then SIGKILLs its group. */
export async function reap(pid: number, graceMs: number): Promise<void> {
	const deadline = Date.now() + graceMs;
	while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
	if (alive(pid)) signalGroup(pid, "SIGKILL");
}
