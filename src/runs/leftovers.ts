/**
 * The temporary directories a parent session makes for its children (SECURITY.md "Data"): a run
 * directory per child (`pi-native-subagents-run-<pid>-XXXXXX`, holding e.g. the agent body
 * `append-system-prompt.md` and an interactive child's launch file) and the tmux socket directory of its
 * interactive children (`pi-subagents-tmux-<pid>-XXXXXX`). Each name carries the pid of the Pi process
 * that made it, so what a killed parent (SIGKILL, a crash) left behind can be found: its watchdog removes it
 * right after its kills (process/watchdog.mjs), a later session start's sweep whatever the watchdog could not.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { removeLeftoverDirs } from "../core/leftover-dirs.mjs";
import { signalTargetExists } from "./process-exists.ts";

export { RUN_DIR_PREFIX, TMUX_DIR_PREFIX } from "../core/leftover-dirs.mjs";

/**
 * Makes a fresh private directory (mode 0700, `mkdtemp`) `<parent>/<prefix><this pid>-XXXXXX` (`parent` resolved
 * against the cwd: the path returned is absolute), holding `files` (name → text, each written by
 * {@link writeRunFile}); when one cannot be written the directory is removed again, so a failed start leaves
 * nothing (its maker, this Pi, still runs: no sweep would take it).
 * @param parent default the system temp dir.
 * @throws Error `could not create a private directory in <parent>: <reason>` when `mkdtemp` fails (a full
 *   or read-only temp disk, `EACCES`), or {@link writeRunFile}'s.
 */
export function makeOwnedTempDir(prefix: string, parent = tmpdir(), files: Record<string, string> = {}): string {
	let dir: string;
	try {
		// Absolute even when `TMPDIR` is relative (`os.tmpdir()` returns it as it is): a child started in another
		// cwd reads its files by this path, and the watchdog looks for the directory in the resolved temp dir.
		dir = mkdtempSync(join(resolve(parent), `${prefix}${process.pid}-`));
	} catch (error) {
		throw new Error(`could not create a private directory in ${parent}: ${(error as Error).message}`);
	}
	try {
		for (const [name, text] of Object.entries(files)) writeRunFile(dir, name, text);
	} catch (error) {
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}
	return dir;
}

/**
 * Writes `text` to `<dir>/<name>` (mode 0600) and returns that path: a private file of a run or tmux
 * directory (an agent body, a schema, a definition a CLI reads from a path, a launch file, a config).
 * @throws Error `could not write the run file <path>: <reason>` (e.g. `ENOSPC` on a full temp disk, where
 *   Node's own message names no file); the child is then not started.
 */
export function writeRunFile(dir: string, name: string, text: string): string {
	const file = join(dir, name);
	try {
		writeFileSync(file, text, { mode: 0o600 });
	} catch (error) {
		throw new Error(`could not write the run file ${file}: ${(error as Error).message}`);
	}
	return file;
}

/**
 * Removes the leftovers under `parent` (default the system temp dir): every directory named by
 * {@link makeOwnedTempDir} with either prefix that is a real directory (never a symlink) owned by this user
 * whose maker's pid is not alive (the rule: core/leftover-dirs.mjs). Anything else — another user's, one whose
 * maker runs (this process or another Pi session), a name without a pid (made by an older version) — is left alone.
 * @returns the names removed. Never throws: an entry that cannot be read or removed is skipped.
 */
export function sweepLeftovers(parent = tmpdir()): string[] {
	return removeLeftoverDirs(parent, (pid) => pid !== process.pid && !signalTargetExists(pid));
}
