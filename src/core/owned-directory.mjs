// @ts-check
/**
 * The one test of "a real directory of this user's" that the sweeps and stamps use before they trust or remove
 * anything (SECURITY.md "Data"): the session-start sweep and the parent-death watchdog (core/leftover-dirs.mjs),
 * the artifact root and its prune (runs/artifacts.ts), the upkeep stamps (core/upkeep-stamp.ts) and the bundle's
 * code cache (core/bundle-loader.ts, which also checks each cache file with `ownedStats`). Plain
 * JavaScript because the watchdog runs it in its own Node process, where the package's TypeScript cannot be
 * loaded once it is installed under node_modules. Types: owned-directory.d.mts.
 */
import { lstatSync } from "node:fs";

/**
 * Whether `path` itself (one `lstat`, never followed: a symlink is not one) is a directory owned by this process's
 * user (any owner where the platform has no uids); with `privateOnly`, also writable by no group or other user.
 * Never throws: a path that cannot be read is not one.
 * @param {string} path
 * @param {boolean} [privateOnly]
 */
export function ownedDirectory(path, privateOnly = false) {
	try {
		const stat = lstatSync(path);
		return stat.isDirectory() && ownedStats(stat, privateOnly);
	} catch {
		return false;
	}
}

/**
 * Whether what `stat` describes (of any type) is owned by this process's user (any owner where the platform has no
 * uids); with `privateOnly`, also writable by no group or other user. The rule of {@link ownedDirectory}, for a
 * caller that has the stats of an open file (src/core/bundle-loader.ts).
 * @param {import("node:fs").Stats} stat
 * @param {boolean} [privateOnly]
 */
export function ownedStats(stat, privateOnly = false) {
	const uid = process.getuid?.();
	return (uid === undefined || stat.uid === uid) && (!privateOnly || (stat.mode & 0o022) === 0);
}
