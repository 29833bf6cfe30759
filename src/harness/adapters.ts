import { loadSerially } from "../core/deferred.ts";
import type { HarnessAdapter, HarnessAdapters } from "../core/harness-adapter.ts";
import { HARNESSES, type Harness } from "../core/launch-spec.ts";
import { codexHomeDir } from "../core/native-homes.ts";
import { childSessionsDir } from "../core/package-dirs.ts";
import { CLAUDE_COMMAND_ENV, CODEX_COMMAND_ENV, resolveNativeCommand } from "./native-command.ts";
import { createPiAdapter } from "./pi/adapter.ts";
import { resolvePiInvocation } from "./pi/invocation.ts";

/**
 * One adapter per harness for a parent whose Pi agent dir is `agentDir`, reading commands and homes from
 * `env` (a bad command override refuses launches, not this call). The pi adapter is made at once; the codex
 * and claude adapters' modules are imported by the first `load` that names their harness (queued,
 * src/core/deferred.ts), so a session that only runs pi children never loads them (docs/design-notes.md
 * §Start-up cost). What they read of `env` when made is read now, so a later load sees the same values.
 */
export function createAdapters(agentDir: string, env: NodeJS.ProcessEnv, uid: number | undefined): HarnessAdapters {
	const loaded: Partial<Record<Harness, HarnessAdapter>> = {
		pi: createPiAdapter({
			invocation: () => resolvePiInvocation(),
			sessionDir: childSessionsDir(agentDir),
			agentDir,
		}),
	};
	const codexHome = codexHomeDir(env);
	const atCreation = { ...env };
	const makers: Record<Exclude<Harness, "pi">, () => Promise<HarnessAdapter>> = {
		codex: async () =>
			(await import("./codex/adapter.ts")).createCodexAdapter({
				command: () => resolveNativeCommand(CODEX_COMMAND_ENV, "codex", env),
				codexHome,
			}),
		claude_code: async () => {
			const { createClaudeAdapter } = await import("./claude/adapter.ts");
			const { claudeBypassRefusal } = await import("./claude/command.ts");
			return createClaudeAdapter({
				command: () => resolveNativeCommand(CLAUDE_COMMAND_ENV, "claude", env),
				bypassRefusal: claudeBypassRefusal(atCreation, uid),
			});
		},
	};
	// One making per harness, whichever call asks first (a failed import is not retried).
	const making = new Map<Harness, Promise<HarnessAdapter>>();
	const load = async (harnesses: Iterable<Harness>) => {
		for (const harness of new Set(harnesses)) {
			if (harness === "pi" || loaded[harness]) continue;
			let made = making.get(harness);
			if (!made) {
				made = loadSerially(makers[harness]);
				making.set(harness, made);
			}
			loaded[harness] = await made;
		}
	};
	return {
		loaded,
		load,
		all: async () => {
			await load(HARNESSES);
			return loaded as Record<Harness, HarnessAdapter>;
		},
	};
}
