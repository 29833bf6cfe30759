/**
 * Claude's session store: transcripts `<config dir>/projects/<cwd with / replaced by ->/<session id>.jsonl`,
 * where the config dir is `CLAUDE_CONFIG_DIR` or `~/.claude`. Each user or assistant record carries `cwd`.
 */
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { firstRecordCwd } from "../session-cwd.ts";

/** `CLAUDE_CONFIG_DIR`, or claude's default `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
	return env.CLAUDE_CONFIG_DIR || join(homedir(), ".claude");
}

/** The cwd recorded in claude session `sessionId`'s transcript, if one is found. */
export function readClaudeSessionCwd(configDir: string, sessionId: string): string | undefined {
	const projects = join(configDir, "projects");
	let dirs: string[];
	try {
		dirs = readdirSync(projects);
	} catch {
		return undefined;
	}
	const file = dirs.map((dir) => join(projects, dir, `${sessionId}.jsonl`)).find((path) => existsSync(path));
	return firstRecordCwd(file, (record) => (record as { cwd?: unknown }).cwd);
}
