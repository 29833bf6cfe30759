/**
 * Full-result artifacts (docs/rules.md §Results: a cut answer is written in full to an artifact file whose path the
 * result gives; a failed write is reported too).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Directory for one parent session's artifacts: `<tmpdir>/pi-native-subagents/<session id>`. */
export function artifactDir(parentSessionId: string): string {
	return join(tmpdir(), "pi-native-subagents", parentSessionId.replace(/[^A-Za-z0-9._-]/g, "_"));
}

/**
 * Writes `text` atomically (temp file in the same directory, then rename) to `<dir>/<name>.md`.
 * @returns the absolute path, or an `error` message naming the path when the write failed (a full disk, an
 *   unwritable directory); a failed write leaves no partial file behind.
 */
export function writeArtifact(dir: string, name: string, text: string): { path: string } | { error: string } {
	const path = join(dir, `${name.replace(/[^A-Za-z0-9._-]/g, "_")}.md`);
	const temp = `${path}.${process.pid}.tmp`;
	try {
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		writeFileSync(temp, text, { mode: 0o600 });
		renameSync(temp, path);
		return { path };
	} catch (error) {
		// A write cut short (a full disk: ENOSPC) leaves a partial temp file that would keep the space taken.
		try {
			rmSync(temp, { force: true });
		} catch {
			// No directory to hold it (ENOTDIR): nothing was written.
		}
		return { error: `could not write the full answer to ${path}: ${(error as Error).message}` };
	}
}
