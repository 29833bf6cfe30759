/**
 * Stamps of periodic upkeep (the artifact prune and the leftovers sweep at session start, docs/tools.md
 * §Artifacts): a file whose mtime says when the upkeep last ran, so a session start that finds it recent does
 * no work and loads no module of that upkeep. Node built-ins only and light on purpose: the session start reads
 * it before anything else of the package loads.
 */
import { lstatSync } from "node:fs";
import { ownedDirectory } from "./owned-directory.mjs";

/**
 * The mtime (ms since the epoch) of a stamp this user wrote: a regular file, ours, writable by no one else, with
 * no other name (a hard link of another file of ours carries that file's mtime); else `undefined`.
 */
function trustedStampTime(path: string): number | undefined {
	try {
		const stat = lstatSync(path);
		const uid = process.getuid?.();
		const ours = stat.isFile() && (uid === undefined || stat.uid === uid) && stat.nlink === 1;
		if (!ours || (stat.mode & 0o022) !== 0) return undefined;
		return stat.mtimeMs;
	} catch {
		return undefined;
	}
}

/**
 * Whether the upkeep that stamp file `stamp` records is due at `now` (ms since the epoch): true unless the stamp
 * is trusted and its age is in `[0, intervalMs)`. A stamp is trusted only in a private directory
 * (`ownedDirectory(dir, true)`, `dir` being the stamp's directory) and when it is a regular file of this user's,
 * writable by no one else and of one name; a stamp dated after `now` is not. Two `lstat`s; never throws.
 */
export function upkeepDue(dir: string, stamp: string, intervalMs: number, now = Date.now()): boolean {
	const last = ownedDirectory(dir, true) ? trustedStampTime(stamp) : undefined;
	// A file time has sub-millisecond digits that `now` lacks: a stamp written this millisecond is not in the future.
	const age = last === undefined ? undefined : now - Math.floor(last);
	return age === undefined || age < 0 || age >= intervalMs;
}
