/**
 * Full-result artifacts (docs/tools.md §Artifacts): where a child's whole answer goes when the text for the
 * model or the result's `details` shows only part of it. One private directory per parent session under
 * a private per-user root; file names come from ids this package generates, so a provider that reuses
 * tool-call ids never overwrites an earlier answer; writes are atomic; old directories are pruned.
 */
import { randomUUID } from "node:crypto";
import { lstatSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../core/atomic-write.ts";
import { listDirOrEmpty } from "../core/list-dir.ts";
import { ownedDirectory } from "../core/owned-directory.mjs";
import { artifactPruneDue, PRUNE_STAMP } from "./artifact-root.ts";

/** Session artifact directories whose newest file is older than this are removed at session start (ms: 7 days). */
export const ARTIFACT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Above this total (bytes: 256 MiB), the oldest other session directories are removed at session start. */
export const ARTIFACT_MAX_TOTAL_BYTES = 256 * 1024 * 1024;

/** Directory for one parent session's artifacts: `<root>/<session id>` (the id sanitized to a file name). */
export function artifactDir(root: string, parentSessionId: string): string {
	return join(root, parentSessionId.replace(/[^A-Za-z0-9._-]/g, "_"));
}

/**
 * A fresh id for one `subagent` call or job's artifacts: `<ms since epoch, base 36>-<random>`, so names
 * sort by time and never repeat (a provider's tool-call id is never used: providers reuse them).
 */
export function newArtifactCallId(): string {
	return `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;
}

/**
 * Writes `text` to `<dir>/<name>.md` atomically (`writeFileAtomic`: temp file, fsync, rename, directory
 * fsync), creating `dir` private (0700) and the file private (0600). A failed write leaves no temp file.
 * `dir`'s parent (the root) is checked before anything is created in it, `dir` before the file: each
 * must be a real directory (not a symlink) owned by this user that no one else may write to (SECURITY.md
 * "Data"; another local user can make the root first in a shared tmpdir).
 * @param name made of this package's ids (`newArtifactCallId`); other characters become `_`.
 * @returns the absolute path, or an `error` message naming the path and the cause when the write failed.
 */
export function writeArtifact(dir: string, name: string, text: string): { path: string } | { error: string } {
	const path = join(dir, `${name.replace(/[^A-Za-z0-9._-]/g, "_")}.md`);
	try {
		for (const own of [dirname(dir), dir]) {
			// Made when missing (the root's own parents too); an existing one, even a symlink, is left as it is.
			mkdirSync(own, { recursive: true, mode: 0o700 });
			if (!privateDirectory(own)) {
				throw new Error(`${own} is not a directory owned by this user that only this user can write to`);
			}
		}
		writeFileAtomic(path, text, 0o600);
		return { path };
	} catch (error) {
		return { error: `could not write the full answer to ${path}: ${(error as Error).message}` };
	}
}

export interface PruneOptions {
	/** Directory name under `root` that is never removed (the current session's). */
	keep?: string;
	/** ms since the epoch; default now. */
	now?: number;
	maxAgeMs?: number;
	maxTotalBytes?: number;
}

/**
 * The retention policy, run at session start (docs/tools.md §Artifacts): removes session directories under
 * `root` whose newest entry is older than `maxAgeMs`, then, while the rest exceed `maxTotalBytes`, the
 * oldest of them. `keep` is never removed. Only real directories owned by this user are touched (symlinks
 * and foreign entries are skipped); a `root` that is a symlink or not ours is left alone entirely.
 * @returns the names of the removed directories. Never throws: an unreadable entry is skipped.
 */
export function pruneArtifacts(root: string, options: PruneOptions = {}): string[] {
	const now = options.now ?? Date.now();
	const maxAge = options.maxAgeMs ?? ARTIFACT_MAX_AGE_MS;
	const maxTotal = options.maxTotalBytes ?? ARTIFACT_MAX_TOTAL_BYTES;
	if (!ownedDirectory(root)) return [];
	const sessions: Array<{ name: string; newest: number; bytes: number }> = [];
	for (const name of listDirOrEmpty(root)) {
		const path = join(root, name);
		if (name === options.keep || !ownedDirectory(path)) continue;
		sessions.push({ name, ...measure(path) });
	}
	const removed: string[] = [];
	const remove = (name: string) => {
		try {
			rmSync(join(root, name), { recursive: true, force: true });
			removed.push(name);
		} catch {
			// Left for the next session start.
		}
	};
	const kept = sessions.filter((session) => {
		if (now - session.newest <= maxAge) return true;
		remove(session.name);
		return false;
	});
	let total = kept.reduce((sum, session) => sum + session.bytes, 0);
	if (options.keep && ownedDirectory(join(root, options.keep))) total += measure(join(root, options.keep)).bytes;
	for (const session of kept.sort((a, b) => a.newest - b.newest)) {
		if (total <= maxTotal) break;
		remove(session.name);
		total -= session.bytes;
	}
	return removed;
}

/**
 * The retention at a session start: {@link pruneArtifacts} when {@link artifactPruneDue} says so (`intervalMs`,
 * default `ARTIFACT_PRUNE_INTERVAL_MS`), then the stamp ({@link PRUNE_STAMP}) renewed. The stamp is written
 * (atomically, replacing a symlink rather than following it) only in a private root; a missing root is made
 * (0700) to hold it, so a machine that never wrote an artifact measures nothing either. A failed write (a full
 * disk) loses nothing: the next session start prunes again.
 * @returns the names of the removed directories, `undefined` when the prune was not due. Never throws.
 */
export function pruneArtifactsWhenDue(
	root: string,
	options: PruneOptions & { intervalMs?: number } = {},
): string[] | undefined {
	if (!artifactPruneDue(root, options.now, options.intervalMs)) return undefined;
	const removed = pruneArtifacts(root, options);
	try {
		// Not recursive: the temp dir itself is never made here.
		mkdirSync(root, { mode: 0o700 });
	} catch {
		// There already (checked below), or its parent is missing.
	}
	if (privateDirectory(root)) {
		try {
			// Not durable: a stamp lost to a power loss only makes the next start prune again.
			writeFileAtomic(join(root, PRUNE_STAMP), `${new Date().toISOString()}\n`, 0o600, { durable: false });
		} catch {
			// A full disk or a vanished root: the next session start prunes again.
		}
	}
	return removed;
}

/** Newest mtime (ms) and total size (bytes) of a session directory's files (one level: artifacts are flat). */
function measure(dir: string): { newest: number; bytes: number } {
	let newest = 0;
	try {
		newest = lstatSync(dir).mtimeMs;
	} catch {
		// Removed while we looked: it counts as old and empty.
	}
	let bytes = 0;
	for (const name of listDirOrEmpty(dir)) {
		try {
			const stat = lstatSync(join(dir, name));
			newest = Math.max(newest, stat.mtimeMs);
			bytes += stat.size;
		} catch {
			// Removed while we looked.
		}
	}
	return { newest, bytes };
}

/** A real directory owned by this user, writable by no group or other user (one `lstat`). */
function privateDirectory(path: string): boolean {
	return ownedDirectory(path, true);
}
