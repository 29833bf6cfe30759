/**
 * Isolated codex and claude homes side by side, both pointing at one fake model server, plus the command
 * overrides that make the adapters start the pinned binaries in `node_modules/.bin` (whatever is on PATH).
 */
import { join, resolve } from "node:path";
import { CLAUDE_COMMAND_ENV, CODEX_COMMAND_ENV } from "../../src/harness/native-command.ts";
import { type ClaudeHome, createClaudeHome } from "./claude-home.ts";
import { type CodexHome, createCodexHome } from "./codex-home.ts";
import { releaseDirectories } from "./teardown.ts";

const BIN = resolve(import.meta.dirname, "../../node_modules/.bin");

/** The pinned codex (0.171.0) and claude (2.1.332) executables. */
export const CODEX_BIN = join(BIN, "codex");
export const CLAUDE_BIN = join(BIN, "claude");

export interface NativeHomes {
	codex: CodexHome;
	claude: ClaudeHome;
	/**
	 * Both homes' variables (`HOME` is the codex home's) plus `PI_NATIVE_SUBAGENTS_CODEX_COMMAND` and
	 * `PI_NATIVE_SUBAGENTS_CLAUDE_COMMAND` naming the pinned binaries.
	 */
	env: Record<string, string>;
	/** Both homes' directories. */
	dirs: string[];
	/** Waits until no process uses either home, then removes both (as `IsolatedHome.cleanup`). */
	cleanup(): Promise<void>;
}

/** Create both homes for `server` (`url` for claude, `baseUrl` for codex). */
export function createNativeHomes(server: { url: string; baseUrl: string }): NativeHomes {
	const codex = createCodexHome(server);
	const claude = createClaudeHome(server);
	return {
		codex,
		claude,
		env: {
			...claude.env,
			...codex.env,
			[CODEX_COMMAND_ENV]: JSON.stringify([CODEX_BIN]),
			[CLAUDE_COMMAND_ENV]: JSON.stringify([CLAUDE_BIN]),
		},
		dirs: [codex.dir, claude.dir],
		cleanup: () => releaseDirectories([codex.dir, claude.dir]),
	};
}
