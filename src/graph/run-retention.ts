/**
 * Retention of graph run directories (docs/settings.md §Graph runs), run at session start: finished runs older
 * than `maxAgeMs` go, then the oldest finished runs while all runs exceed `maxTotalBytes`. An unfinished run
 * is never removed for size; by age only when it belongs to another session and no live process holds its
 * lease. The current session's unfinished runs and any run a live process drives are never removed.
 * Refused entries (symlinks, foreign owners, unreadable snapshots) are left alone.
 */
import { lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { holderAlive, LEASE_FILE, type LeaseHolder } from "./run-dir.ts";
import { ownedBy, scanRuns } from "./run-store.ts";

export interface RunRetention {
	/** The session starting now: its unfinished runs stay. */
	sessionId: string;
	maxAgeMs: number;
	maxTotalBytes: number;
	/** ms since the epoch; default now. */
	now?: number;
}

/**
 * Applies the retention policy under `<agentDir>/pi-native-subagents/graphs`.
 * @returns the removed run ids. Never throws: an entry that cannot be removed stays for the next start.
 */
export function pruneRuns(agentDir: string, policy: RunRetention): string[] {
	const now = policy.now ?? Date.now();
	const candidates: Array<{ runId: string; dir: string; finished: boolean; at: number; bytes: number }> = [];
	let total = 0;
	for (const read of scanRuns(agentDir)) {
		if (!("snapshot" in read)) continue;
		const { snapshot } = read;
		const bytes = directoryBytes(read.dir);
		total += bytes;
		if (leaseLive(read.dir)) continue;
		if (!snapshot.finished && ownedBy(snapshot, policy.sessionId)) continue;
		candidates.push({
			runId: snapshot.runId,
			dir: read.dir,
			finished: snapshot.finished,
			at: snapshot.updatedAt,
			bytes,
		});
	}
	const removed: string[] = [];
	const remove = (run: (typeof candidates)[number]) => {
		try {
			rmSync(run.dir, { recursive: true, force: true });
			removed.push(run.runId);
			total -= run.bytes;
		} catch {
			// Left for the next session start.
		}
	};
	const kept = candidates.filter((run) => {
		if (now - run.at <= policy.maxAgeMs) return true;
		remove(run);
		return false;
	});
	for (const run of kept.filter((r) => r.finished).sort((a, b) => a.at - b.at)) {
		if (total <= policy.maxTotalBytes) break;
		remove(run);
	}
	return removed;
}

function leaseLive(dir: string): boolean {
	try {
		return holderAlive(JSON.parse(readFileSync(join(dir, LEASE_FILE), "utf8")) as LeaseHolder);
	} catch {
		return false;
	}
}

function directoryBytes(dir: string): number {
	let bytes = 0;
	try {
		for (const name of readdirSync(dir)) bytes += lstatSync(join(dir, name)).size;
	} catch {
		// Removed while we looked.
	}
	return bytes;
}
