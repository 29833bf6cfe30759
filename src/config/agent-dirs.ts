/**
 * Where agent definitions are looked for (docs/agent-libraries.md §Where they are found): the directories
 * of every format and scope, in precedence order, and whether any of them holds an agent file. Node
 * built-ins only, so the session-start check can ask it without loading the parsers (zod, yaml, smol-toml).
 */
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CONFIG_DIR_NAME } from "@earendil-works/pi-coding-agent";
import { claudeConfigDir, codexHomeDir } from "../core/native-homes.ts";
import type { AgentFormat, AgentScope, AgentSource } from "./agent-definition.ts";

/** This package's shipped agents (`agents/` at the package root): the built-ins. */
export const BUILTIN_AGENTS_DIR = fileURLToPath(new URL("../../agents", import.meta.url));

/** One directory searched for agents. */
export interface AgentDirectory {
	dir: string;
	source: AgentSource;
	format: AgentFormat;
}

export interface DiscoverAgentsOptions {
	/** Directory the project search starts from (absolute). */
	cwd: string;
	/** Pi's agent directory (`getAgentDir()`, i.e. `PI_CODING_AGENT_DIR` or `~/.pi/agent`). */
	agentDir: string;
	scope: AgentScope;
	/** Environment read for `CLAUDE_CONFIG_DIR`, `CODEX_HOME` and `HOME`; default `process.env`. */
	env?: Record<string, string | undefined>;
	/** The built-in agents directory; default {@link BUILTIN_AGENTS_DIR}, `null`: none. */
	builtinDir?: string | null;
}

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/**
 * The nearest `<dir>/<configDir>/agents` directory walking up from `cwd` (inclusive), skipping `except`
 * (a user-scope directory that is not project content), or null.
 */
export function findNearestAgentsDir(cwd: string, configDir: string, except?: string): string | null {
	let dir = resolve(cwd);
	for (;;) {
		const candidate = join(dir, configDir, "agents");
		if (candidate !== except && isDirectory(candidate)) return candidate;
		const parent = join(dir, "..");
		if (parent === dir) return null;
		dir = parent;
	}
}

/** The directories `options` searches, highest precedence first. */
export function agentDirectories(options: DiscoverAgentsOptions): AgentDirectory[] {
	const env = options.env ?? process.env;
	const user: AgentDirectory[] = [
		{ dir: join(options.agentDir, "agents"), source: "user", format: "pi" },
		{ dir: join(claudeConfigDir(env), "agents"), source: "user", format: "claude" },
		{ dir: join(codexHomeDir(env), "agents"), source: "user", format: "codex" },
	];
	const project: AgentDirectory[] = [];
	for (const [format, configDir] of [
		["pi", CONFIG_DIR_NAME],
		["claude", ".claude"],
		["codex", ".codex"],
	] as const) {
		const userDir = user.find((u) => u.format === format)?.dir;
		const dir = findNearestAgentsDir(options.cwd, configDir, userDir);
		if (dir !== null) project.push({ dir, source: "project", format });
	}
	const builtinDir = options.builtinDir === undefined ? BUILTIN_AGENTS_DIR : options.builtinDir;
	const builtin: AgentDirectory[] = builtinDir ? [{ dir: builtinDir, source: "builtin", format: "pi" }] : [];
	const scope = options.scope;
	return [...(scope === "user" ? [] : project), ...(scope === "project" ? [] : [...user, ...builtin])];
}

/** The file name ending of each format's agent files. */
export const AGENT_FILE_EXTENSIONS: Readonly<Record<AgentFormat, string>> = {
	pi: ".md",
	claude: ".md",
	codex: ".toml",
};

/** Whether any directory `options` searches holds a file of its format (read with `readdirSync`; never throws). */
export function hasAgentFiles(options: DiscoverAgentsOptions): boolean {
	return agentDirectories(options).some(({ dir, format }) => {
		try {
			return readdirSync(dir).some((name) => name.endsWith(AGENT_FILE_EXTENSIONS[format]));
		} catch {
			return false;
		}
	});
}
