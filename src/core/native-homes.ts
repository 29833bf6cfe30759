/**
 * Where codex and claude keep their configuration, as those CLIs decide it: read by the harness adapters
 * (sessions, transcripts) and by the agent loaders (`<dir>/agents`).
 */
import { homedir } from "node:os";
import { join } from "node:path";

/** claude's config dir for `env`: `CLAUDE_CONFIG_DIR`, or `.claude` in `env`'s `HOME` (the OS home without one). */
export function claudeConfigDir(env: Record<string, string | undefined>): string {
	return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), ".claude");
}

/** `CODEX_HOME`, or codex's default `.codex` in `env`'s `HOME` (the OS home without one). */
export function codexHomeDir(env: Record<string, string | undefined>): string {
	return env.CODEX_HOME || join(env.HOME || homedir(), ".codex");
}
