/**
 * Where a graph run lives on disk (SECURITY.md "Graph runs"; docs/graphs.md §Durability):
 * `<agent dir>/pi-native-subagents/graphs/<run-id>/`, the run id a UUID v4. Every directory below the agent
 * directory is created 0700, must be a real directory (a symlink anywhere on the path is refused) owned by
 * this user; files in it are 0600. One writer at a time: the lease file names the process that drives the
 * run, and a lease is taken over only when that process is gone.
 */
import { randomUUID } from "node:crypto";
import { linkSync, lstatSync, readFileSync, renameSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { makeDirectoryDurable, namingFile, writeFileAtomic } from "../core/atomic-write.ts";
import { graphRunsDir } from "../core/package-dirs.ts";
import { readStat } from "../process/proc-table.mjs";

/** The run-id grammar: a lowercase UUID v4. */
export const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The lease file of a run directory. */
export const LEASE_FILE = "lease.json";

/** `<agent dir>/pi-native-subagents/graphs` (core/package-dirs.ts). */
export const graphsRoot = graphRunsDir;

/** A fresh run id (UUID v4). */
export function newRunId(): string {
	return randomUUID();
}

/**
 * Why `path` may not hold run state: it is missing, a symlink, not a directory or owned by another user.
 * @param whenMissing what to say instead of `<path>: cannot be read (ENOENT)` when nothing is at `path`.
 * @returns the problem naming `path`, or `undefined` when it is a directory of this user.
 */
export function directoryProblem(path: string, whenMissing?: string): string | undefined {
	let stat: ReturnType<typeof lstatSync>;
	try {
		stat = lstatSync(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return code === "ENOENT" && whenMissing !== undefined ? whenMissing : `${path}: cannot be read (${code})`;
	}
	if (stat.isSymbolicLink()) return `${path}: is a symlink; graph run directories must be real directories`;
	if (!stat.isDirectory()) return `${path}: is not a directory`;
	const uid = process.getuid?.();
	if (uid !== undefined && stat.uid !== uid) return `${path}: is owned by uid ${stat.uid}, not by this user (${uid})`;
	return undefined;
}

/**
 * Creates (or checks) `<agent dir>/pi-native-subagents/graphs/<runId>/`, each missing level 0700 with its
 * entry fsynced, every level checked by `directoryProblem`.
 * @returns the run directory.
 * @throws Error naming the refused path or the failed write.
 */
export function createRunDir(agentDir: string, runId: string): string {
	if (!RUN_ID.test(runId)) throw new Error(`run id ${JSON.stringify(runId)} is not a UUID v4`);
	let dir = agentDir;
	for (const part of ["pi-native-subagents", "graphs", runId]) {
		dir = join(dir, part);
		makeDirectoryDurable(dir, 0o700);
		const problem = directoryProblem(dir);
		if (problem) throw new Error(problem);
	}
	return dir;
}

/** Who holds a run's lease. */
export interface LeaseHolder {
	pid: number;
	/** The process's start time (`/proc/<pid>/stat`), so a reused pid is not taken for the holder. */
	startTime: string;
	sessionId: string;
	/** ms since the Unix epoch. */
	at: number;
}

/** A held lease; `release` removes it (at the run's end). */
export interface Lease {
	release(): void;
}

function readHolder(file: string): LeaseHolder | undefined {
	try {
		return JSON.parse(readFileSync(file, "utf8")) as LeaseHolder;
	} catch {
		return undefined;
	}
}

/** True while the holder's process runs (same pid, same start time). */
export function holderAlive(holder: LeaseHolder): boolean {
	const stat = readStat(holder.pid);
	return stat !== undefined && stat.state !== "Z" && stat.startTime === holder.startTime;
}

/**
 * Takes the writer lease of run directory `dir` for this process. A lease of a process that is gone is
 * taken over; one held by a live process (this one included) is not.
 * @returns the lease, or `{ refused }` naming the holder.
 * @throws the underlying error when the lease file cannot be written.
 */
export function acquireLease(dir: string, sessionId: string): Lease | { refused: string } {
	const file = join(dir, LEASE_FILE);
	const me: LeaseHolder = {
		pid: process.pid,
		startTime: readStat(process.pid)?.startTime ?? "",
		sessionId,
		at: Date.now(),
	};
	const temp = join(dir, `.lease.${process.pid}.${randomUUID().slice(0, 8)}`);
	namingFile(temp, () => writeFileAtomic(temp, JSON.stringify(me)));
	try {
		for (let round = 0; round < 2; round++) {
			try {
				// link(2) fails when the lease exists: of two processes, exactly one gets it.
				linkSync(temp, file);
				return { release: () => releaseLease(file, me) };
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			}
			const holder = readHolder(file);
			if (holder && holderAlive(holder)) {
				const who = holder.pid === process.pid ? "this process" : `pid ${holder.pid}`;
				return { refused: `the run is driven by ${who} (lease ${file})` };
			}
			takeOver(file, holder);
		}
		return { refused: `the lease ${file} changed hands while it was taken over` };
	} finally {
		unlinkSync(temp);
	}
}

/** Moves a dead holder's lease aside; a lease that turns out live meanwhile is put back. */
function takeOver(file: string, dead: LeaseHolder | undefined): void {
	const aside = `${file}.stale-${process.pid}`;
	try {
		renameSync(file, aside);
	} catch {
		return; // Someone else moved it first.
	}
	const moved = readHolder(aside);
	if (moved && holderAlive(moved) && moved.pid !== dead?.pid) {
		try {
			linkSync(aside, file);
		} catch {
			// Another process took the lease meanwhile; the live holder keeps running regardless.
		}
	}
	unlinkSync(aside);
}

function releaseLease(file: string, me: LeaseHolder): void {
	const holder = readHolder(file);
	if (holder?.pid === me.pid && holder.startTime === me.startTime) {
		try {
			unlinkSync(file);
		} catch {
			// Already gone.
		}
	}
}
