/**
 * Pi's session store as children leave it: one `<timestamp>_<id>.jsonl` file per session in the private
 * session directory.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { firstRecordCwd } from "../session-cwd.ts";

/**
 * The session file of `nativeSessionId` in `sessionDir` (pi names them `<timestamp>_<id>.jsonl`), or
 * `undefined`. Exact id match only.
 */
export function findPiSessionFile(sessionDir: string, nativeSessionId: string): string | undefined {
	let names: string[];
	try {
		names = readdirSync(sessionDir);
	} catch {
		return undefined;
	}
	const name = names
		.filter((n) => n.endsWith(`_${nativeSessionId}.jsonl`))
		.sort()
		.at(-1);
	return name === undefined ? undefined : join(sessionDir, name);
}

/** The cwd in the header (`{"type":"session",…,"cwd"}`) of pi session `nativeSessionId`, if found. */
export function readPiSessionCwd(sessionDir: string, nativeSessionId: string): string | undefined {
	return firstRecordCwd(findPiSessionFile(sessionDir, nativeSessionId), (record) => {
		const header = record as { type?: string; cwd?: unknown };
		return header.type === "session" ? header.cwd : undefined;
	});
}
