/**
 * An isolated claude home for end-to-end runs of the real `claude` binary against the fake model server
 * (docs/harness-support.md §How each CLI is driven).
 *
 * Layout under a fresh temp dir `<dir>`:
 * - `<dir>/claude/` = `CLAUDE_CONFIG_DIR` (`.claude.json`, transcripts under `projects/`, skills, …);
 * - `<dir>/home/` = `HOME`, because claude writes `~/.cache/claude-cli-nodejs/…` even with a config dir.
 *
 * `env` points claude at the server (`ANTHROPIC_BASE_URL` = the server's root URL, claude adds `/v1/messages`)
 * with a fake `ANTHROPIC_API_KEY`, and switches off non-essential traffic, telemetry, error reporting,
 * auto-update and retries (`CLAUDE_CODE_MAX_RETRIES=0`: an unreachable server fails at once instead of after
 * ten attempts over about 2.5 minutes). `-p` runs need no onboarding seed.
 */
import { createIsolatedHome, type IsolatedHome } from "./isolated-home.ts";

/** The API key value claude sends as `x-api-key`. */
export const FAKE_ANTHROPIC_KEY = "sk-ant-fake-claude-local";

/** Options of {@link createClaudeHome}. */
export interface ClaudeHomeOptions {
	/** Extra environment variables to put in `env` (override the defaults). */
	env?: Record<string, string>;
}

/**
 * An isolated claude home: `configDir` (`CLAUDE_CONFIG_DIR`) and `homeDir` (`HOME`); `env` holds
 * `CLAUDE_CONFIG_DIR`, `HOME`, `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`, the quieting switches and
 * `CLAUDE_CODE_MAX_RETRIES=0`, plus `options.env`.
 */
export type ClaudeHome = IsolatedHome<"configDir" | "homeDir">;

/** Create a home that sends claude's model requests to `server.url` (e.g. `http://127.0.0.1:PORT`). */
export function createClaudeHome(server: { url: string }, options: ClaudeHomeOptions = {}): ClaudeHome {
	return createIsolatedHome(
		"claude-home-",
		{ configDir: "claude", homeDir: "home" },
		(paths) => ({
			CLAUDE_CONFIG_DIR: paths.configDir,
			HOME: paths.homeDir,
			ANTHROPIC_BASE_URL: server.url,
			ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
			CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
			DISABLE_TELEMETRY: "1",
			DISABLE_ERROR_REPORTING: "1",
			DISABLE_AUTOUPDATER: "1",
			CLAUDE_CODE_MAX_RETRIES: "0",
		}),
		options.env,
	);
}
