/**
 * Retention of pi children's session files (docs/rules.md §Child sessions): the private session directory
 * (`<agent dir>/pi-native-subagents/sessions`) loses the files not written for `max_age_days`, then, while
 * the rest exceed `max_total_bytes`, the oldest. A session a live parent may still resume or is running is
 * never removed: each parent Pi process keeps a hold file (`<holds dir>/<pid>-<random>.json`) listing the native
 * session ids its current session has launch records for, or runs now; holds of processes that are gone do
 * not count (and are removed). A file written within the last RECENT_MS is never removed either: a new
 * child's id is known to its parent only once the child has reported it.
 */
import { randomUUID } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../core/atomic-write.ts";
import { listDirOrEmpty } from "../../core/list-dir.ts";
import { CHILD_SESSION_DEFAULTS, childSessionsDir, holdsDir } from "../../core/package-dirs.ts";
import { readUserFile } from "../../core/user-file.ts";
import { signalTargetExists } from "../../runs/process-exists.ts";

export { childSessionsDir, holdsDir };

/** Files written within this long are kept whatever their size (ms: 24 hours). */
export const RECENT_MS = 24 * 60 * 60 * 1000;

/** The retention settings (settings `child_sessions`). */
export interface ChildSessionRetention {
	/** ms */
	maxAgeMs: number;
	/** bytes */
	maxTotalBytes: number;
}

/**
 * One extension load's hold: `<holds dir>/<pid>-<random>.json` (one file per load, so two sessions of one
 * process never overwrite each other's), rewritten atomically (mode 0600) with each change.
 */
export class SessionHold {
	readonly #dir: string;
	readonly #file: string;
	/** The ids the hold file holds (sorted, as JSON) since this load last wrote it; `undefined` when unknown. */
	#written: string | undefined;

	constructor(holdsDir: string, pid = process.pid) {
		this.#dir = holdsDir;
		this.#file = join(holdsDir, `${pid}-${randomUUID().slice(0, 8)}.json`);
	}

	/**
	 * Holds exactly `ids`: the native session ids this load may resume or runs now (none: no hold file). A hold
	 * file that is there and already holds exactly these is left as it is (a call's launch record and its claim
	 * of the same session each ask for a write).
	 */
	write(ids: Iterable<string>): void {
		const sessions = [...new Set(ids)];
		const key = JSON.stringify([...sessions].sort());
		if (key === this.#written && (sessions.length === 0 || existsSync(this.#file))) return;
		this.#written = undefined;
		try {
			// An empty hold holds nothing: no file (and no holds directory made for a load that never held a session).
			if (sessions.length === 0) rmSync(this.#file, { force: true });
			else {
				mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
				// Not fsynced: a hold counts only while its process lives, and a power loss ends that too.
				writeFileAtomic(this.#file, JSON.stringify({ sessions }), 0o600, { durable: false });
			}
			this.#written = key;
		} catch {
			// Without a hold the recent-file rule still keeps running children; the next change writes it again.
		}
	}

	/** Removes the hold (the load's session has ended). */
	release(): void {
		this.#written = undefined;
		rmSync(this.#file, { force: true });
	}
}

/** The ids held by live processes; the hold files of processes that are gone are removed. */
export function heldChildSessions(holdsDir: string): Set<string> {
	const held = new Set<string>();
	for (const name of listDirOrEmpty(holdsDir)) {
		const pid = Number(name.split("-")[0]);
		if (!name.endsWith(".json") || !Number.isInteger(pid) || pid <= 0) continue;
		if (!signalTargetExists(pid)) {
			rmSync(join(holdsDir, name), { force: true });
			continue;
		}
		const read = readUserFile(join(holdsDir, name));
		if (!("text" in read)) continue;
		try {
			const sessions = (JSON.parse(read.text) as { sessions?: unknown }).sessions;
			if (Array.isArray(sessions)) for (const id of sessions) if (typeof id === "string") held.add(id);
		} catch {
			// A torn hold (its writer died mid-write cannot happen: writes are atomic); nothing to add.
		}
	}
	return held;
}

/**
 * Applies the retention to `sessionDir`'s `<timestamp>_<id>.jsonl` files: removes those older than
 * `maxAgeMs`, then the oldest while the rest exceed `maxTotalBytes`; never a held id (`heldChildSessions`,
 * plus `alsoHeld`), a file written within RECENT_MS, or anything not a regular file. Never throws.
 * @returns the removed file names, oldest first.
 */
export function pruneChildSessions(
	sessionDir: string,
	holdsDir: string,
	retention: ChildSessionRetention,
	options: { now?: number; alsoHeld?: Iterable<string> } = {},
): string[] {
	const now = options.now ?? Date.now();
	const held = heldChildSessions(holdsDir);
	for (const id of options.alsoHeld ?? []) held.add(id);
	const files: Array<{ name: string; mtime: number; bytes: number; removable: boolean }> = [];
	for (const name of listDirOrEmpty(sessionDir)) {
		if (!name.endsWith(".jsonl")) continue;
		try {
			const stat = lstatSync(join(sessionDir, name));
			if (!stat.isFile()) continue;
			const id = name.slice(name.lastIndexOf("_") + 1, -".jsonl".length);
			const removable = !held.has(id) && now - stat.mtimeMs > RECENT_MS;
			files.push({ name, mtime: stat.mtimeMs, bytes: stat.size, removable });
		} catch {
			// Removed while we looked.
		}
	}
	files.sort((a, b) => a.mtime - b.mtime);
	let total = files.reduce((sum, file) => sum + file.bytes, 0);
	const removed: string[] = [];
	for (const file of files) {
		const old = now - file.mtime > retention.maxAgeMs;
		if (!file.removable || (!old && total <= retention.maxTotalBytes)) continue;
		try {
			rmSync(join(sessionDir, file.name), { force: true });
			removed.push(file.name);
			total -= file.bytes;
		} catch {
			// Left for the next session start.
		}
	}
	return removed;
}

/**
 * The retention with the settings' `child_sessions` (days, bytes) over `<agent dir>`'s child sessions, `held`
 * kept besides the live holds; nothing when `kept` is undefined (a malformed settings file).
 */
export function applyRetention(
	agentDir: string,
	kept: { max_age_days: number; max_total_bytes: number } | undefined,
	held: Iterable<string>,
): string[] {
	if (!kept) return [];
	const policy = { maxAgeMs: kept.max_age_days * 24 * 60 * 60 * 1000, maxTotalBytes: kept.max_total_bytes };
	return pruneChildSessions(childSessionsDir(agentDir), holdsDir(agentDir), policy, { alsoHeld: held });
}

/**
 * The retention a session start applies without the runtime (src/index.ts, with the hourly upkeep): no settings
 * file, so the default policy ({@link CHILD_SESSION_DEFAULTS}), and nothing this session holds (its branch has no
 * launch record). Never throws.
 * @returns the removed file names.
 */
export function retainAtSessionStart(agentDir: string): string[] {
	return applyRetention(agentDir, CHILD_SESSION_DEFAULTS, []);
}
