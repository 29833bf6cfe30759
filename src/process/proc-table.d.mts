/** Types of proc-table.mjs (see there). */

/** One process of the table: fields of /proc/<pid>/stat (proc(5)). */
export interface ProcStat {
	pid: number;
	/** One letter, e.g. "R", "S", "Z". */
	state: string;
	ppid: number;
	pgid: number;
	/** Start time, clock ticks since boot (as text); with the pid it identifies a process. */
	startTime: string;
	/** Its thread count (a "Z" entry with more than one may be a leader living on in its other threads: `isDead`). */
	threads: number;
	/** Its environment carries the marker prefix the table was read with. */
	marked: boolean;
}

/** `PI_NATIVE_SUBAGENTS_RUN`: the variable every child carries, valued `<parent token>/<run number>/`. */
export const RUN_MARKER: string;
/** Whether `stat` is of a process that is gone but for its entry: a zombie with no live thread. */
export function isDead(stat: Pick<ProcStat, "pid" | "state" | "threads">): boolean;
/** Fields of /proc/<pid>/stat; `undefined` when the process is gone or there is no /proc. */
export function readStat(pid: number | string): ProcStat | undefined;
/** Every live process readable now but this one (a zombie leader whose other threads run counts as live), `marked` by `markerPrefix`; empty without /proc. */
export function processTable(markerPrefix?: string): ProcStat[];
/** Members of groups `pgids`, the marked processes, and all their descendants. */
export function familyOf(table: ProcStat[], pgids: Iterable<number>): ProcStat[];
/**
 * SIGKILLs the members of groups `pgids`, the processes carrying `markerPrefix` and their descendants, each
 * SIGSTOPped when found so a process that keeps re-forking cannot outrun the look at /proc; at most
 * `maxScans` (default 20) listings of /proc, ending after two in a row that found nothing and were read
 * promptly. `options.bornFrom`: the start time (clock ticks since boot) of the run's first process; an older
 * process's environment is not read (it cannot carry the marker). `options.now`, `options.afterListing` (tests
 * only): the clock in ms, and a hook run after each listing before its pids are read.
 * Synchronous; never throws; returns how many were killed.
 */
export function stopAndKillFamily(
	markerPrefix: string | undefined,
	pgids: Iterable<number>,
	maxScans?: number,
	options?: { bornFrom?: number; now?: () => number; afterListing?: (pids: number[]) => void },
): number;
/** Signals each process that still has the same start time; never throws. */
export function signalEach(targets: Array<{ pid: number; startTime: string }>, signal: NodeJS.Signals): void;
/** Signals every process of group `pgid`; never throws. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void;
