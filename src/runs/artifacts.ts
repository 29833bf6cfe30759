/**
 * Full-result artifacts (docs/rules.md §Results: a cut answer is written in full to an artifact file whose path the
 * result gives; a failed write is reported too).
 */
import { lstatSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Directory for one parent session's artifacts: `<tmpdir>/pi-native-subagents/<session id>`. */
export function artifactDir(parentSessionId: string): string {
	return join(tmpdir(), "pi-native-subagents", parentSessionId.replace(/[^A-Za-z0-9._-]/g, "_"));
}

/**
 * Writes `text` atomically (temp file in the same directory, then rename) to `<dir>/<name>.md`.
 * @returns the absolute path, or an `error` message naming the path when the write failed.
 */
export function writeArtifact(dir: string, name: string, text: string): { path: string } | { error: string } {
	const path = join(dir, `${name.replace(/[^A-Za-z0-9._-]/g, "_")}.md`);
	try {
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		checkPrivate(dirname(dir), false);
		checkPrivate(dir, true);
		const temp = `${path}.${process.pid}.tmp`;
		// wx: never through a file or symlink someone else left at the temporary name.
		writeFileSync(temp, text, { mode: 0o600, flag: "wx" });
		renameSync(temp, path);
		return { path };
	} catch (error) {
		return { error: `could not write the full answer to ${path}: ${(error as Error).message}` };
	}
}

/**
 * Checks that `dir` is a real directory (not a symlink) owned by this user and, when `closed`, open to
 * nobody else: in a shared temporary directory another user could have made it first (SECURITY.md "Data").
 * @throws Error naming the directory and what is wrong with it.
 */
function checkPrivate(dir: string, closed: boolean): void {
	const stat = lstatSync(dir);
	const uid = process.getuid?.();
	if (!stat.isDirectory()) throw new Error(`${dir} is not a directory (a symlink?)`);
	if (uid !== undefined && stat.uid !== uid) throw new Error(`${dir} belongs to uid ${stat.uid}, not to this user`);
	if (closed && (stat.mode & 0o077) !== 0) {
		throw new Error(`${dir} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`);
	}
}
