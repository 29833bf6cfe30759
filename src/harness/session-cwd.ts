/**
 * Reading a session's own working directory from a harness's JSONL session file: the `cwd` of the first
 * record that names one (pi's header, claude's first transcript record with a cwd, codex's `session_meta`).
 */
import { readUserFile } from "../core/user-file.ts";

/**
 * Largest harness session file read, bytes (256 MiB): a long session with big tool outputs stays well
 * below it; beyond it the file is treated as unreadable.
 */
const MAX_SESSION_FILE_BYTES = 256 * 1024 * 1024;

/**
 * A harness's session file as text, or `undefined` when there is none or it cannot be read: also when it
 * is not a regular file (a FIFO or a device put in its place) or is larger than MAX_SESSION_FILE_BYTES.
 */
export function readSessionText(file: string | undefined): string | undefined {
	if (!file) return undefined;
	const read = readUserFile(file, MAX_SESSION_FILE_BYTES);
	return "text" in read ? read.text : undefined;
}

/**
 * The first string `cwd` found by `pick` in the JSONL file's records, or `undefined` (missing file, no
 * such record). Unparsable lines (a torn last line) are skipped.
 */
export function firstRecordCwd(file: string | undefined, pick: (record: unknown) => unknown): string | undefined {
	const text = readSessionText(file);
	if (text === undefined) return undefined;
	for (const line of text.split("\n")) {
		if (!line.includes('"cwd"')) continue;
		try {
			const cwd = pick(JSON.parse(line));
			if (typeof cwd === "string" && cwd !== "") return cwd;
		} catch {
			// not a complete record
		}
	}
	return undefined;
}
