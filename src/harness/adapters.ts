/**
 * The three harness adapters as the extension runs them (src/index.ts loads this module on first need):
 * pi's children keep their sessions in the package's own directory, codex and claude are started from
 * `PATH` unless a command override says otherwise (docs/harness-support.md §How each CLI is driven).
 */
import { join } from "node:path";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import type { Harness } from "../core/launch-spec.ts";
import { codexHomeDir } from "../core/native-homes.ts";
import { createClaudeAdapter } from "./claude/adapter.ts";
import { claudeBypassRefusal } from "./claude/command.ts";
import { createCodexAdapter } from "./codex/adapter.ts";
import { CLAUDE_COMMAND_ENV, CODEX_COMMAND_ENV, resolveNativeCommand } from "./native-command.ts";
import { createPiAdapter } from "./pi/adapter.ts";
import { resolvePiInvocation } from "./pi/invocation.ts";

/**
 * One adapter per harness for a parent whose Pi agent dir is `agentDir`, reading commands and homes from
 * `env` (a bad command override refuses launches, not this call).
 */
export function createAdapters(
	agentDir: string,
	env: NodeJS.ProcessEnv,
	uid: number | undefined,
): Record<Harness, HarnessAdapter> {
	return {
		pi: createPiAdapter({
			invocation: () => resolvePiInvocation(),
			sessionDir: join(agentDir, "pi-native-subagents", "sessions"),
			agentDir,
		}),
		codex: createCodexAdapter({
			command: () => resolveNativeCommand(CODEX_COMMAND_ENV, "codex", env),
			codexHome: codexHomeDir(env),
		}),
		claude_code: createClaudeAdapter({
			command: () => resolveNativeCommand(CLAUDE_COMMAND_ENV, "claude", env),
			bypassRefusal: claudeBypassRefusal(env, uid),
		}),
	};
}
