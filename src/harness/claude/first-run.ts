/**
 * Answers claude's first-run dialogs for an interactive child with decisions the parent already made
 * (SECURITY.md "tmux socket (interactive runs)"; docs/interactive.md "First-run dialogs"), by recording them
 * in claude's own global config as claude does when the user answers: `projects[<cwd>].hasTrustDialogAccepted`
 * when the parent explicitly trusts the child's cwd, and the API key the child is given (its last 20
 * characters, as claude compares them) in `customApiKeyResponses.approved`, since headless claude children
 * use that key without asking. A key the user rejected in claude stays rejected; any other dialog is left
 * to the user (the run reports it).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { namingFile, writeFileAtomic } from "../../core/atomic-write.ts";

/** claude's global config file for `env`: `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`. */
export function claudeGlobalConfig(env: Record<string, string | undefined>): string {
	return env.CLAUDE_CONFIG_DIR
		? join(env.CLAUDE_CONFIG_DIR, ".claude.json")
		: join(env.HOME || homedir(), ".claude.json");
}

interface ClaudeConfig {
	projects?: Record<string, Record<string, unknown>>;
	customApiKeyResponses?: { approved?: string[]; rejected?: string[] };
	[key: string]: unknown;
}

/**
 * Records the parent's answers in claude's global config (see the module docstring) before an interactive
 * claude child starts. Changes nothing when nothing is to be recorded, or when the file is not a JSON
 * object (claude would then ask, and the run reports the dialog).
 * @param env the child's environment (`CLAUDE_CONFIG_DIR`, `HOME`, `ANTHROPIC_API_KEY`).
 * @param cwd the child's absolute cwd; `trusted`: the parent explicitly trusts it.
 * @throws Error when the file cannot be written.
 */
export function answerClaudeFirstRun(env: Record<string, string | undefined>, cwd: string, trusted: boolean): void {
	const file = claudeGlobalConfig(env);
	let config: ClaudeConfig = {};
	if (existsSync(file)) {
		try {
			const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
			if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return;
			config = parsed as ClaudeConfig;
		} catch {
			return;
		}
	}
	let changed = false;
	if (trusted && config.projects?.[cwd]?.hasTrustDialogAccepted !== true) {
		config.projects = { ...config.projects, [cwd]: { ...config.projects?.[cwd], hasTrustDialogAccepted: true } };
		changed = true;
	}
	const key = env.ANTHROPIC_API_KEY?.slice(-20);
	const responses = config.customApiKeyResponses ?? {};
	if (key && !responses.approved?.includes(key) && !responses.rejected?.includes(key)) {
		config.customApiKeyResponses = { ...responses, approved: [...(responses.approved ?? []), key] };
		changed = true;
	}
	if (!changed) return;
	const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o600;
	namingFile(file, () => writeFileAtomic(file, JSON.stringify(config, null, 2), mode));
}
