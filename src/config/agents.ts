/**
 * Agent discovery: every agent definition the `subagent` tool can select, from every format and scope, in
 * one catalogue (docs/agent-libraries.md; issue 22 item 5, issue 20 item 4).
 *
 * Sources, highest precedence first (a name is taken by the first source that defines it; the others are
 * listed as shadowed):
 *
 * | scope | pi format | claude format | codex format |
 * |---|---|---|---|
 * | project (opt-in, `agentScope`) | nearest `.pi/agents/*.md` | nearest `.claude/agents/*.md` | nearest `.codex/agents/*.toml` |
 * | user (default) | `<agent dir>/agents/*.md` | `<claude config dir>/agents/*.md` | `<CODEX_HOME>/agents/*.toml` |
 * | built-in | this package's `agents/*.md` | | |
 *
 * A bad file is reported in `errors` and never hides other agents; two files defining one name in one
 * directory are both unusable until one is renamed.
 */
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CONFIG_DIR_NAME } from "@earendil-works/pi-coding-agent";
import { claudeConfigDir, codexHomeDir } from "../core/native-homes.ts";
import { Problems } from "../core/problems.ts";
import { readUserFile } from "../core/user-file.ts";
import { parseClaudeAgentFile } from "./agent-claude.ts";
import { parseCodexAgentFile } from "./agent-codex.ts";
import type {
	AgentDefinition,
	AgentFileError,
	AgentFormat,
	AgentScope,
	AgentSource,
	ShadowedAgent,
} from "./agent-definition.ts";
import { parseAgentFile } from "./agent-markdown.ts";

export type { AgentDefinition, AgentFileError, AgentScope, AgentSource } from "./agent-definition.ts";
export { parseAgentFile } from "./agent-markdown.ts";
export { contentDigest } from "./agent-values.ts";

/** This package's shipped agents (`agents/` at the package root): the built-ins. */
export const BUILTIN_AGENTS_DIR = fileURLToPath(new URL("../../agents", import.meta.url));

/** One directory searched for agents. */
export interface AgentDirectory {
	dir: string;
	source: AgentSource;
	format: AgentFormat;
}

export interface AgentDiscovery {
	/** The selectable definitions (one per name), sorted by name. */
	agents: AgentDefinition[];
	/** Definitions hidden by a higher-precedence one of the same name. */
	shadowed: ShadowedAgent[];
	errors: AgentFileError[];
	/** Every directory searched, in precedence order (also those that do not exist). */
	searched: AgentDirectory[];
	/** The nearest `.pi/agents` directory above `cwd`, whatever the scope (callers use it in trust prompts). */
	projectAgentsDir: string | null;
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

const PARSERS: Record<AgentFormat, { ext: string; parse: typeof parseAgentFile }> = {
	pi: { ext: ".md", parse: parseAgentFile },
	claude: { ext: ".md", parse: parseClaudeAgentFile },
	codex: { ext: ".toml", parse: parseCodexAgentFile },
};

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

/** Parses one agent file's text in `format`. Pure; see each format's parser. */
export function parseAgentFileAs(
	format: AgentFormat,
	content: string,
	filePath: string,
	source: AgentSource,
	problems: Problems,
): AgentDefinition | undefined {
	return PARSERS[format].parse(content, filePath, source, problems);
}

/**
 * Loads every agent file directly inside one directory (not recursive; symlinked files are followed).
 * A missing directory yields nothing; an unreadable one is an error. Within one directory a second
 * file with an already used name is an error (files are read in name order), and neither is used.
 */
function loadAgentsFromDir({ dir, source, format }: AgentDirectory): {
	agents: AgentDefinition[];
	errors: AgentFileError[];
} {
	const agents: AgentDefinition[] = [];
	const errors: AgentFileError[] = [];
	const { ext, parse } = PARSERS[format];
	let names: string[];
	try {
		names = readdirSync(dir).filter((name) => name.endsWith(ext));
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return { agents, errors };
		return {
			agents,
			errors: [{ filePath: dir, source, format, problems: [`cannot read agents directory: ${code}`] }],
		};
	}
	names.sort();
	const seen = new Map<string, string>();
	const ambiguous = new Set<string>();
	for (const name of names) {
		const filePath = join(dir, name);
		const read = readUserFile(filePath);
		if ("problem" in read) {
			// A directory named like an agent file is not one; anything else that is not a readable file is reported.
			if (read.reason !== "directory") errors.push({ filePath, source, format, problems: [read.problem] });
			continue;
		}
		const content = read.text;
		const problems = new Problems();
		const agent = parse(content, filePath, source, problems);
		if (!agent) {
			errors.push({ filePath, source, format, problems: [...problems.list] });
			continue;
		}
		const earlier = seen.get(agent.name);
		if (earlier !== undefined) {
			ambiguous.add(agent.name);
			const problem = `name: "${agent.name}" is already defined by ${earlier}; neither file is used until one is renamed`;
			errors.push({ filePath, source, format, problems: [problem] });
			continue;
		}
		seen.set(agent.name, filePath);
		agents.push(agent);
	}
	// An ambiguous name must not silently run whichever file sorts first.
	return { agents: agents.filter((found) => !ambiguous.has(found.name)), errors };
}

/**
 * Discovers agent definitions of every format in the scopes `options.scope` selects (see the module
 * comment for the sources and their precedence). Never throws for bad files: each is listed in `errors`
 * with its reasons, and the others still load.
 */
export function discoverAgents(options: DiscoverAgentsOptions): AgentDiscovery {
	const searched = agentDirectories(options);
	const byName = new Map<string, AgentDefinition>();
	const shadowed: ShadowedAgent[] = [];
	const errors: AgentFileError[] = [];
	const selectable: AgentDefinition[] = [];
	for (const directory of searched) {
		const loaded = loadAgentsFromDir(directory);
		errors.push(...loaded.errors);
		for (const agent of loaded.agents) {
			const winner = byName.get(agent.name);
			if (winner) {
				shadowed.push({ agent, by: winner.filePath });
				continue;
			}
			selectable.push(agent);
			for (const name of [agent.name, ...agent.aliases]) if (!byName.has(name)) byName.set(name, agent);
		}
	}
	const agents = selectable.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const projectAgentsDir = findNearestAgentsDir(options.cwd, CONFIG_DIR_NAME, join(options.agentDir, "agents"));
	return { agents, shadowed, errors, searched, projectAgentsDir };
}

/** `scout (user)`, or `scout (user; ignored keys: color)`: how agent listings name a definition. */
export function describeAgent(agent: AgentDefinition): string {
	const ignored = agent.ignoredKeys.length > 0 ? `; ignored keys: ${agent.ignoredKeys.join(", ")}` : "";
	return `${agent.name} (${agent.source}${ignored})`;
}

/** One line per problem, `<file>: <problem>`, for tool results and notifications. */
export function formatAgentFileErrors(errors: readonly AgentFileError[]): string[] {
	return errors.flatMap((error) => error.problems.map((problem) => `${error.filePath}: ${problem}`));
}
