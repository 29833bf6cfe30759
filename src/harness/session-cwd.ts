/**
 * Reading a harness's JSONL session files: a session's own working directory (the `cwd` of the first record
 * that names one: pi's header, claude's first transcript record with a cwd, codex's `session_meta`), and
 * whether a resumed session is there at all.
 */
import type { LaunchSpec } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
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

/**
 * Refuses the resume of a session its harness has no file of (docs/rules.md §Resumption): the harness would
 * start and fail (`no rollout found for thread id …`, `No conversation found with session ID …`).
 * @param store where the harness keeps its session files, named in the message (`<CODEX_HOME>/sessions`).
 * @param looksUp which ids have a file to look for (default all); another is resolved by the harness itself
 *   (a codex thread name: `codex exec resume` takes a UUID or a thread name).
 */
export function addMissingSession(
	spec: LaunchSpec,
	sessionFile: (nativeSessionId: string) => string | undefined,
	store: string,
	problems: Problems,
	looksUp: (nativeSessionId: string) => boolean = () => true,
): void {
	if (spec.session.kind !== "resume") return;
	const id = spec.session.nativeSessionId;
	if (!looksUp(id) || sessionFile(id)) return;
	problems.add(missingSession(spec.harness, id, store));
}

/** `no codex session "<id>" in <store> (where it keeps its session files)`: a resume's session file is not there. */
export function missingSession(harness: string, nativeSessionId: string, store: string): string {
	return `no ${harness} session "${nativeSessionId}" in ${store} (where it keeps its session files)`;
}
