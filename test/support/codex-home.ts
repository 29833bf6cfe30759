/**
 * An isolated codex home for end-to-end runs of the real `codex` binary against the fake model server
 * (docs/harness-support.md §How each CLI is driven).
 *
 * Layout under a fresh temp dir `<dir>`:
 * - `<dir>/codex/` = `CODEX_HOME`: `config.toml` with a custom provider `fake` (`wire_api = "responses"`,
 *   `base_url` = the server's `/v1` URL, key from `FAKE_OPENAI_KEY`), no retries, no update check, no
 *   analytics or feedback, bundled skills off; sessions, logs and state land here too;
 * - `<dir>/home/` = `HOME`, so nothing reads or writes the real `~/.codex`.
 *
 * Without `CODEX_HOME` even `codex --version` writes under `~/.codex`, so every codex spawn in tests must
 * carry `env`. Retries are off (`request_max_retries`, `stream_max_retries` = 0), but codex still keeps
 * reconnecting to an unreachable server forever: runs need a wall-clock timeout.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createIsolatedHome, type IsolatedHome } from "./isolated-home.ts";

/** The API key value codex sends as `authorization: Bearer …`. */
export const FAKE_OPENAI_KEY = "sk-fake-codex-local";

/**
 * The default model of the home: a slug in codex's own catalog, so codex knows its metadata (an unknown
 * slug works too but adds a non-fatal `error` item and offers a smaller tool set).
 */
export const CODEX_DEFAULT_MODEL = "gpt-5.5";

/** Options of {@link createCodexHome}. */
export interface CodexHomeOptions {
	/** Extra TOML appended to `config.toml` (e.g. `[mcp_servers.x]` tables). */
	extraConfig?: string;
	/** Extra environment variables to put in `env` (override the defaults). */
	env?: Record<string, string>;
}

/**
 * An isolated codex home: `codexHome` (`CODEX_HOME`) and `homeDir` (`HOME`); `env` holds `CODEX_HOME`,
 * `HOME`, `FAKE_OPENAI_KEY`, plus `options.env`.
 */
export type CodexHome = IsolatedHome<"codexHome" | "homeDir">;

/** Create a home whose `fake` provider points at `server.baseUrl` (e.g. `http://127.0.0.1:PORT/v1`). */
export function createCodexHome(server: { baseUrl: string }, options: CodexHomeOptions = {}): CodexHome {
	const home = createIsolatedHome(
		"codex-home-",
		{ codexHome: "codex", homeDir: "home" },
		(paths) => ({ CODEX_HOME: paths.codexHome, HOME: paths.homeDir, FAKE_OPENAI_KEY }),
		options.env,
	);
	const config = [
		`model = ${JSON.stringify(CODEX_DEFAULT_MODEL)}`,
		`model_provider = "fake"`,
		`check_for_update_on_startup = false`,
		"",
		"[model_providers.fake]",
		`name = "Fake local server"`,
		`base_url = ${JSON.stringify(server.baseUrl)}`,
		`env_key = "FAKE_OPENAI_KEY"`,
		`wire_api = "responses"`,
		"request_max_retries = 0",
		"stream_max_retries = 0",
		"",
		"[analytics]",
		"enabled = false",
		"",
		"[feedback]",
		"enabled = false",
		"",
		"[skills.bundled]",
		"enabled = false",
		"",
		options.extraConfig ?? "",
	].join("\n");
	writeFileSync(join(home.codexHome, "config.toml"), config);
	return home;
}
