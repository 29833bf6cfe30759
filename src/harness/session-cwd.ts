/**
 * Reading a session's own working directory from a harness's JSONL session file: the `cwd` of the first
 * record that names one (pi's header, claude's first transcript record with a cwd, codex's `session_meta`).
 */
import { readFileSync } from "node:fs";

/** A harness's session file as text, or `undefined` when there is none or it cannot be read. */
export function readSessionText(file: string | undefined): string | undefined {
	if (!file) return undefined;
	try {
		return readFileSync(file, "utf8");
	} catch {
		return undefined;
	}
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
