/**
 * Ending a process group (DESIGN.md §3): SIGTERM to the whole group, SIGKILL after a grace measured on the
 * leader's real exit (its `exit` event, not `child.killed`, which only says a signal was sent), and SIGKILL
 * for anything of the group still alive once the leader is gone. Nothing of the group survives.
 *
 * The child leads its own group (spawned `detached`), so its pid is the group id and `-pid` addresses the
 * group. A pid stays reserved while it is the id of a group with a live member, so signalling the group
 * after the leader exited is safe as long as a member remains; once the group is empty the kernel answers
 * ESRCH.
 */

/**
 * Sends `signal` to every process of group `pgid` (0 only checks that the group exists).
 * @returns false when the group no longer exists (ESRCH) or may not be signalled (EPERM); never throws.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch {
		return false;
	}
}

/** Whether any process (a zombie included) is still in group `pgid`. */
export function groupAlive(pgid: number): boolean {
	return signalGroup(pgid, 0);
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

	/** Whether `terminate()` has been called. */
	get terminating(): boolean {
		return this.#terminating;
	}

	/** SIGTERM to the group now, SIGKILL after `killGraceMs` unless the leader exits first. Idempotent. */
	terminate(): void {
		if (this.#terminating || this.#leaderGone) return;
		this.#terminating = true;
		signalGroup(this.#pgid, "SIGTERM");
		this.#killTimer = setTimeout(() => signalGroup(this.#pgid, "SIGKILL"), this.#killGraceMs);
	}

	/**
	 * The leader has exited: stop the escalation timer and SIGKILL whatever is left of the group.
	 * After this the group is not signalled again (its id may be reused once it is empty).
	 */
	leaderExited(): void {
		if (this.#leaderGone) return;
		this.#leaderGone = true;
		clearTimeout(this.#killTimer);
		signalGroup(this.#pgid, "SIGKILL");
		liveGroups.delete(this.#pgid);
	}
}
