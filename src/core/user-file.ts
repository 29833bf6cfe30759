/**
 * Reading one file from a project or a user directory (agent files, rosters, settings, a resumed session's
 * agent file, harness session files): only a regular file of a sane size is read (docs/rules.md
 * §Configuration files). A symlink to `/dev/stdin`, a FIFO, a device or a huge file would freeze Pi or fill its
 * memory; such a file is refused with a reason instead, before a byte is read.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";

/** Largest configuration file read (agent file, roster, settings), bytes: 1 MiB. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/**
 * Why a file was not read: `problem` says it for a user; `reason` lets a caller treat `missing` as "not set"
 * or skip a `directory` found where files are listed.
 */
export interface UnreadFile {
	problem: string;
	reason: "missing" | "directory" | "not_regular" | "too_large" | "unreadable";
}

/**
 * The UTF-8 text of `file` when it is a regular file (symlinks followed) of at most `maxBytes` bytes. The file
 * is opened non-blocking and checked again on the open descriptor, so a FIFO swapped in after the first
 * check cannot block the read. Never throws.
 * @returns `{ text }`, or why it was not read: "does not exist", "is a directory, not a file", "is not a
 *   regular file (a FIFO)", "is 5000000 bytes, more than the limit of 1048576", "cannot read file (EACCES)".
 */
export function readUserFile(file: string, maxBytes = MAX_CONFIG_FILE_BYTES): { text: string } | UnreadFile {
	let stats: Stats;
	try {
		stats = statSync(file);
	} catch (error) {
		return errnoProblem(error);
	}
	const refused = refusal(stats, maxBytes);
	if (refused) return refused;
	let fd: number;
	try {
		fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
	} catch (error) {
		return errnoProblem(error);
	}
	try {
		const opened = fstatSync(fd);
		const changed = refusal(opened, maxBytes);
		if (changed) return changed;
		return { text: readAtMost(fd, maxBytes).toString("utf8") };
	} catch (error) {
		return errnoProblem(error);
	} finally {
		closeSync(fd);
	}
}

/** The bytes of `fd` from its start, at most `maxBytes` (the file may have grown since it was checked). */
function readAtMost(fd: number, maxBytes: number): Buffer {
	const chunks: Buffer[] = [];
	let total = 0;
	for (;;) {
		const chunk = Buffer.alloc(Math.min(64 * 1024, maxBytes - total + 1));
		const read = readSync(fd, chunk, 0, chunk.length, null);
		if (read === 0) break;
		chunks.push(chunk.subarray(0, read));
		total += read;
		if (total > maxBytes) throw Object.assign(new Error("grew"), { code: "EFBIG", limit: maxBytes });
	}
	return Buffer.concat(chunks);
}

function refusal(stats: Stats, maxBytes: number): UnreadFile | undefined {
	if (stats.isDirectory()) return { problem: "is a directory, not a file", reason: "directory" };
	if (!stats.isFile()) return { problem: `is not a regular file (${kindOf(stats)})`, reason: "not_regular" };
	if (stats.size > maxBytes) {
		return { problem: `is ${stats.size} bytes, more than the limit of ${maxBytes}`, reason: "too_large" };
	}
	return undefined;
}

/** What `stats` describe, for a refusal: "a FIFO", "a directory", "a regular file", …. */
export function kindOf(stats: Stats): string {
	if (stats.isFile()) return "a regular file";
	if (stats.isDirectory()) return "a directory";
	if (stats.isFIFO()) return "a FIFO";
	if (stats.isCharacterDevice()) return "a character device";
	if (stats.isBlockDevice()) return "a block device";
	if (stats.isSocket()) return "a socket";
	return "not a file";
}

/**
 * Whether `file` does not exist as {@link readUserFile} decides (`reason: "missing"`: ENOENT, ENOTDIR); a file that
 * is there but cannot be read (a symlink loop, EACCES) is not missing. One `stat`, links followed. Never throws.
 */
export function userFileMissing(file: string): boolean {
	try {
		statSync(file);
		return false;
	} catch (error) {
		return errnoProblem(error).reason === "missing";
	}
}

function errnoProblem(error: unknown): UnreadFile {
	const { code, limit } = error as NodeJS.ErrnoException & { limit?: number };
	if (code === "ENOENT" || code === "ENOTDIR") return { problem: "does not exist", reason: "missing" };
	if (code === "EISDIR") return { problem: "is a directory, not a file", reason: "directory" };
	if (code === "EFBIG") {
		return { problem: `grew beyond the limit of ${limit} bytes while it was read`, reason: "too_large" };
	}
	return { problem: `cannot read file (${code ?? (error as Error).message})`, reason: "unreadable" };
}
