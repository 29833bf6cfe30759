/**
 * Ending a process group (SECURITY.md, "Processes"): SIGTERM to the whole group, SIGKILL after a grace
 * measured on the leader's real exit (its `exit` event, not `child.killed`, which only says a signal was
 * sent), and SIGKILL for everything of the child's still alive once the leader is gone, whether we ended it
 * or it exited on its own.
 *
 * The child leads its own group (spawned `detached`), so its pid is the group id and `-pid` addresses the
 * group. Descendants that left the group (a harness that starts each command in a new session, e.g. codex
 * without its sandbox, or `setsid`) are found through /proc: as descendants of a group member while their
 * parent lives, and by the run marker in their environment (proc-table.mjs) after it died. A pid stays
 * reserved while it is the id of a group with a live member, so signalling the group after the leader
 * exited is safe as long as a member remains; once the group is empty the kernel answers ESRCH.
 */

import { timer as clampedTimer } from "./deadlines.ts";
import type { Lifeline, RunMarker } from "./lifeline.ts";
import {
	familyOf,
	type ProcStat,
	processTable,
	readStat,
	signalEach,
	signalGroup,
	stopAndKillFamily,
} from "./proc-table.mjs";

/** Groups started by this Pi process and not yet ended; killed synchronously on Pi's own `exit`. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killLiveGroups(): void {
	for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
}

/**
 * Escalation for one process group. `terminate()` sends SIGTERM to the group and arms SIGKILL after
 * `killGraceMs`; `leaderExited()` must be called from the leader's `exit` event: it disarms the timer
 * and SIGKILLs the rest of the child's processes (grandchildren that ignore SIGTERM, were never
 * signalled, or escaped the group).
 *
 * While the group is live it is registered with the lifeline (killed if Pi dies) and for a synchronous
 * SIGKILL on Pi's own `exit`.
 */
export class GroupTerminator {
	readonly #pgid: number;
	readonly #killGraceMs: number;
	/** `<RUN_MARKER>=<value>`: how this run's processes' environment entry starts (the value ends with "/"). */
	readonly #marker: string;
	/** The leader's start time (clock ticks since boot): no process older than it carries the marker; 0 unknown. */
	readonly #bornFrom: number;
	readonly #unregister: () => void;
	/** Settles the run marker once the last sweep is done (`RunMarker.settle`). */
	readonly #settle: () => void;
	#killTimer: NodeJS.Timeout | undefined;
	#terminating = false;
	#leaderGone = false;
	#family: ProcStat[] = [];

	/**
	 * @param pgid the child's pid, which is its process-group id.
	 * @param killGraceMs grace between SIGTERM and SIGKILL, ms (`limits.killGraceMs`).
	 * @param marker the run marker put into the child's environment; settled after the sweep that follows the
	 *   leader's exit.
	 * @param lifeline where the group is registered for cleanup on Pi's death.
	 */
	constructor(pgid: number, killGraceMs: number, marker: RunMarker, lifeline: Lifeline) {
		this.#pgid = pgid;
		this.#killGraceMs = killGraceMs;
		this.#marker = `${marker.name}=${marker.value}`;
		this.#settle = () => marker.settle();
		this.#bornFrom = Number(readStat(pgid)?.startTime ?? 0);
		this.#unregister = lifeline.register({ pgid });
		liveGroups.add(pgid);
		if (!exitHookInstalled) {
			exitHookInstalled = true;
			process.on("exit", killLiveGroups);
		}
	}

	/** SIGTERM to the group and the child's escaped descendants now, SIGKILL after `killGraceMs` unless the leader exits first. Idempotent. */
	terminate(): void {
		if (this.#terminating || this.#leaderGone) return;
		this.#terminating = true;
		// Found before the signal makes their parents exit and re-parents them out of the tree.
		this.#family = this.#findFamily();
		signalGroup(this.#pgid, "SIGTERM");
		signalEach(this.#family, "SIGTERM");
		this.#killTimer = clampedTimer(this.#killGraceMs, () => this.#killAll(this.#family));
	}

	/**
	 * The leader has exited (on its own or signalled): stop the escalation timer and SIGKILL whatever is
	 * left of the group, of its members' descendants and of the processes carrying the run marker. After
	 * this the group is not signalled again (its id may be reused once it is empty).
	 */
	leaderExited(): void {
		if (this.#leaderGone) return;
		this.#leaderGone = true;
		clearTimeout(this.#killTimer);
		this.#killAll(this.#family);
		liveGroups.delete(this.#pgid);
		// Only processes are signalled from here (identified by start time): the group id may be free by now.
		// Not one look at /proc and kills: what is left may re-fork itself faster than /proc can be read, and
		// a stale table may not even name it. Each process is stopped as it is found (stopAndKillFamily; a few
		// ms per listing of /proc, synchronous, after the exit handlers). The lifeline covers it until then.
		setImmediate(() => {
			stopAndKillFamily(this.#marker, [this.#pgid], undefined, { bornFrom: this.#bornFrom });
			// Nothing carries the marker now: what did is killed, and only it could pass the marker on.
			this.#settle();
			this.#unregister();
		});
	}

	#findFamily(): ProcStat[] {
		return familyOf(processTable(this.#marker), [this.#pgid]);
	}

	#killAll(family: ProcStat[]): void {
		signalGroup(this.#pgid, "SIGKILL");
		signalEach(family, "SIGKILL");
	}
}
