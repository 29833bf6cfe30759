/**
 * The temporary directories a parent session makes for its children (SECURITY.md "Data"): a run
 * directory per child (`pi-native-subagents-run-<pid>-XXXXXX`, holding e.g. the agent body
 * `append-system-prompt.md` and an interactive child's launch file) and the tmux socket directory of its
 * interactive children (`pi-subagents-tmux-<pid>-XXXXXX`). Each name carries the pid of the Pi process
 * that made it, so a session start can sweep what a killed parent (SIGKILL, a crash) left behind.
 */
import { lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signalTargetExists } from "./process-exists.ts";

/** Name prefix of a child's run directory. */
export const RUN_DIR_PREFIX = "pi-native-subagents-run-";
/** Name prefix of a parent session's tmux socket directory. */
export const TMUX_DIR_PREFIX = "pi-subagents-tmux-";

/**
 * Makes a fresh private directory (mode 0700, `mkdtemp`) `<parent>/<prefix><this pid>-XXXXXX`, holding
 * `files` (name → text, each written by {@link writeRunFile}); when one cannot be written the directory is
 * removed again, so a failed start leaves nothing (its maker, this Pi, still runs: no sweep would take it).
 * @param parent default the system temp dir.
 * @throws Error `could not create a private directory in <parent>: <reason>` when `mkdtemp` fails (a full
 *   or read-only temp disk, `EACCES`), or {@link writeRunFile}'s.
 */
export function makeOwnedTempDir(prefix: string, parent = tmpdir(), files: Record<string, string> = {}): string {
	let dir: string;
	try {
		dir = mkdtempSync(join(parent, `${prefix}${process.pid}-`));
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
 * whose maker's pid is not alive. Anything else — another user's, one whose maker runs (this process or
 * another Pi session), a name without a pid (made by an older version) — is left alone.
 * @returns the names removed. Never throws: an entry that cannot be read or removed is skipped.
 */
export function sweepLeftovers(parent = tmpdir()): string[] {
	let names: string[];
	try {
		names = readdirSync(parent);
	} catch {
		return [];
	}
	const removed: string[] = [];
	for (const name of names) {
		const pid = makerPid(name);
		if (pid === undefined || pid === process.pid || signalTargetExists(pid) || !ownDirectory(join(parent, name)))
			continue;
		try {
			rmSync(join(parent, name), { recursive: true, force: true });
			removed.push(name);
		} catch {
			// Left for the next session start.
		}
	}
	return removed;
}

/** The maker's pid in a name made by {@link makeOwnedTempDir}, else `undefined`. */
function makerPid(name: string): number | undefined {
	for (const prefix of [RUN_DIR_PREFIX, TMUX_DIR_PREFIX]) {
		if (!name.startsWith(prefix)) continue;
		const match = /^(\d+)-[A-Za-z0-9]{6}$/.exec(name.slice(prefix.length));
		return match ? Number(match[1]) : undefined;
	}
	return undefined;
}

function ownDirectory(path: string): boolean {
	try {
		const stat = lstatSync(path);
		return stat.isDirectory() && stat.uid === process.getuid?.();
	} catch {
		return false;
	}
}
