// @ts-check
/**
 * The one rule for the temporary directories a Pi process makes for its children (SECURITY.md "Data"): a run
 * directory per child (`pi-native-subagents-run-<pid>-XXXXXX`) and the tmux socket directory of its interactive
 * children (`pi-subagents-tmux-<pid>-XXXXXX`), each named by `mkdtemp` after the pid of the Pi process that made
 * it, and which of them may be removed once that maker is gone: only real directories (never a symlink) owned
 * by this process's user. Used by the session-start sweep (runs/leftovers.ts) and by the parent-death watchdog
 * (process/watchdog.mjs), right after its kills. Plain JavaScript because the watchdog runs it in its own Node
 * process, where the package's TypeScript cannot be loaded once it is installed under node_modules; in `core/`
 * because a session start loads it but no process module. Types: leftover-dirs.d.mts.
 */
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ownedDirectory } from "./owned-directory.mjs";

/** Name prefix of a child's run directory. */
export const RUN_DIR_PREFIX = "pi-native-subagents-run-";
/** Name prefix of a Pi process's tmux socket directory. */
export const TMUX_DIR_PREFIX = "pi-subagents-tmux-";

/**
 * The maker's pid in a name `<prefix><pid>-XXXXXX` (either prefix, `XXXXXX` being `mkdtemp`'s six letters or
 * digits), else `undefined` (another name, or one made by an older version without a pid).
 * @param {string} name
 * @returns {number | undefined}
 */
function makerPid(name) {
	for (const prefix of [RUN_DIR_PREFIX, TMUX_DIR_PREFIX]) {
		if (!name.startsWith(prefix)) continue;
		const match = /^(\d+)-[A-Za-z0-9]{6}$/.exec(name.slice(prefix.length));
		return match ? Number(match[1]) : undefined;
	}
	return undefined;
}

/**
 * Removes, with everything in them, the directories under `parent` named `<prefix><pid>-XXXXXX` whose maker
 * `gone(pid)` says is gone, when each is a real directory owned by this user. Symlinks are never followed:
 * one with such a name is left, and so is its target.
 * @param {string} parent the directory the names stand in (the maker's temp dir).
 * @param {(pid: number) => boolean} gone
 * @returns {string[]} the names removed. Never throws: an entry that cannot be read or removed is left.
 */
export function removeLeftoverDirs(parent, gone) {
	/** @type {string[]} */
	let names;
	try {
		names = readdirSync(parent);
	} catch {
		return [];
	}
	/** @type {string[]} */
	const removed = [];
	for (const name of names) {
		const pid = makerPid(name);
		const path = join(parent, name);
		if (pid === undefined || !gone(pid) || !ownedDirectory(path)) continue;
		try {
			rmSync(path, { recursive: true, force: true });
			removed.push(name);
		} catch {
			// Left for a later sweep.
		}
	}
	return removed;
}
