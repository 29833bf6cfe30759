/**
 * Crash-safe file replacement (docs/tools.md §Artifacts): readers see the old file or the new one, never a
 * partial one, and the new one survives a power loss once this returns.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Writes `content` to `file` atomically: a temp file in the same directory (created exclusively with
 * `mode`), written and fsynced, renamed over `file`, then the directory fsynced so the rename is durable.
 * On any failure the temp file is removed and the error is rethrown; `file` is then unchanged.
 * @param mode permission bits of a newly written file (default 0o600: private).
 * @throws the underlying `NodeJS.ErrnoException` (e.g. `EACCES`, `ENOSPC`, `EISDIR`); the directory must exist.
 */
export function writeFileAtomic(file: string, content: string | Uint8Array, mode = 0o600): void {
	const dir = dirname(file);
	const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
	try {
		const fd = openSync(temp, "wx", mode);
		try {
			writeAll(fd, content);
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
		renameSync(temp, file);
	} catch (error) {
		try {
			unlinkSync(temp);
		} catch {
			// Never created, or already renamed.
		}
		throw error;
	}
	fsyncDirectory(dir);
}

function writeAll(fd: number, content: string | Uint8Array): void {
	const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
	let offset = 0;
	while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** fsyncs a directory, making a rename or unlink in it durable. */
export function fsyncDirectory(dir: string): void {
	const fd = openSync(dir, "r");
	try {
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
}
