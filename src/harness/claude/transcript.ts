/**
 * Claude's session store: transcripts `<config dir>/projects/<cwd with / replaced by ->/<session id>.jsonl`,
 * where the config dir is `CLAUDE_CONFIG_DIR` or `~/.claude`. Each user or assistant record carries `cwd`.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { firstRecordCwd } from "../session-cwd.ts";

export { claudeConfigDir } from "../../core/native-homes.ts";

/** The transcript of `sessionId` under `<configDir>/projects/*`, or `undefined` before claude writes it. */
export function findClaudeTranscript(configDir: string, sessionId: string): string | undefined {
	const projects = join(configDir, "projects");
	let dirs: string[];
	try {
		dirs = readdirSync(projects);
	} catch {
		return undefined;
	}
	return dirs.map((dir) => join(projects, dir, `${sessionId}.jsonl`)).find((path) => existsSync(path));
}

/** The cwd recorded in claude session `sessionId`'s transcript, if one is found. */
export function readClaudeSessionCwd(configDir: string, sessionId: string): string | undefined {
	return firstRecordCwd(findClaudeTranscript(configDir, sessionId), (record) => (record as { cwd?: unknown }).cwd);
}
