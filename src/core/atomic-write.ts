/**
 * Crash-safe file writes (docs/tools.md §Artifacts, docs/graphs.md §Durability): readers see the old file or
 * the new one, never a partial one, and the new one survives a power loss once a write returns. Every write,
 * fsync and rename goes through `fsFault` (core/fault-points.ts), so tests can make each of them fail.
 */
import { randomBytes } from "node:crypto";
import {
	closeSync,
	fstatSync,
	fsyncSync,
	ftruncateSync,
	mkdirSync,
	openSync,
	readSync,
	renameSync,
	unlinkSync,
	writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { fsFault } from "./fault-points.ts";

/**
 * Writes `content` to `file` atomically: a temp file in the same directory (created exclusively with
 * `mode`), written and fsynced, renamed over `file`, then the directory fsynced so the rename is durable.
 * On any failure before the rename the temp file is removed and the error is rethrown; `file` is then
 * unchanged. A failure of the directory fsync is rethrown too (`file` then already holds the new content).
 * @param mode permission bits of a newly written file (default 0o600: private).
 * @param options.durable default true; `false` skips both fsyncs (still atomic, not durable): for a file that
 *   means nothing once its writer is gone, which a power loss ends too (a pid-keyed hold file).
 * @throws the underlying `NodeJS.ErrnoException` (e.g. `EACCES`, `ENOSPC`, `EIO`, `EISDIR`); the directory must exist.
 */
export function writeFileAtomic(
	file: string,
	content: string | Uint8Array,
	mode = 0o600,
	options: { durable?: boolean } = {},
): void {
	const durable = options.durable ?? true;
	const dir = dirname(file);
	const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
	try {
		const fd = openSync(temp, "wx", mode);
		try {
			writeAll(fd, temp, content);
			if (durable) syncFd(fd, temp);
		} finally {
			closeSync(fd);
		}
		fsFault("rename", file);
		renameSync(temp, file);
	} catch (error) {
		try {
			unlinkSync(temp);
		} catch {
			// Never created, or already renamed.
		}
		throw error;
	}
	if (durable) fsyncDirectory(dir);
}

/**
 * Appends `content` (whole lines, each ending in "\n") to `file` (created with `mode` if absent) and fsyncs
 * it; a new file's directory entry is fsynced too. A failed write or fsync truncates the file back to its
 * size before the append, so no part of `content` stays behind for the next append to join; a file that
 * still does not end in "\n" (the truncation failed too, or a crash cut a line) gets one first, so the
 * next lines start on their own and only the cut line is lost. Readers of an append-only log skip a last
 * line that does not parse.
 * @throws the underlying `NodeJS.ErrnoException` of the append (`ENOSPC`, `EIO`, …).
 */
export function appendFileDurable(file: string, content: string, mode = 0o600): void {
	let created = true;
	let fd: number;
	try {
		fd = openSync(file, "ax", mode);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
		created = false;
		fd = openSync(file, "a+");
	}
	try {
		const size = fstatSync(fd).size;
		try {
			writeAll(fd, file, endsLine(fd, size) ? content : `\n${content}`);
			syncFd(fd, file);
		} catch (error) {
			truncateBack(fd, size);
			throw error;
		}
	} finally {
		closeSync(fd);
	}
	if (created) fsyncDirectory(dirname(file));
}

/** True when the first `size` bytes of `fd` are empty or end in "\n". */
function endsLine(fd: number, size: number): boolean {
	if (size === 0) return true;
	const last = Buffer.alloc(1);
	return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a;
}

/** Cuts `fd` back to `size` bytes, durably when it can; a failure here leaves the next append to start a line. */
function truncateBack(fd: number, size: number): void {
	try {
		ftruncateSync(fd, size);
		fsyncSync(fd);
	} catch {
		// The file keeps the partial lines; the next append starts with "\n".
	}
}

/**
 * Creates `dir` (one level: its parent must exist) with `mode`, and fsyncs the parent so the new entry is
 * durable. An existing directory is left as it is.
 * @returns true when it was created.
 * @throws the underlying `NodeJS.ErrnoException` (other than `EEXIST`).
 */
export function makeDirectoryDurable(dir: string, mode = 0o700): boolean {
	try {
		mkdirSync(dir, { mode });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
		throw error;
	}
	fsyncDirectory(dirname(dir));
	return true;
}

/**
 * Runs `write`; its error is rethrown with `file` at the front of its message when the message does not name it
 * already (a write's or fsync's `ENOSPC: no space left on device, write` names no path). Its `code` is kept.
 */
export function namingFile<T>(file: string, write: () => T): T {
	try {
		return write();
	} catch (error) {
		if (error instanceof Error && !error.message.includes(file)) error.message = `${file}: ${error.message}`;
		throw error;
	}
}

function writeAll(fd: number, path: string, content: string | Uint8Array): void {
	const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
	let offset = 0;
	while (offset < bytes.length) {
		fsFault("write", path);
		offset += writeSync(fd, bytes, offset, bytes.length - offset);
	}
}

function syncFd(fd: number, path: string): void {
	fsFault("fsync", path);
	fsyncSync(fd);
}

/** fsyncs a directory, making a rename or unlink in it durable. */
export function fsyncDirectory(dir: string): void {
	const fd = openSync(dir, "r");
	try {
		fsFault("fsync", dir);
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
}
