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
 * A bad file is reported in `errors` and never hides other agents; which name selects what, and the clashes
 * that make files unusable, are in `agent-names.ts`.
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { CONFIG_DIR_NAME } from "@earendil-works/pi-coding-agent";
import { Problems } from "../core/problems.ts";
import { readUserFile } from "../core/user-file.ts";
import { parseClaudeAgentFile } from "./agent-claude.ts";
import { parseCodexAgentFile } from "./agent-codex.ts";
import type { AgentDefinition, AgentFileError, AgentFormat, AgentSource, ShadowedAgent } from "./agent-definition.ts";
import {
	AGENT_FILE_EXTENSIONS,
	type AgentDirectory,
	agentDirectories,
	type DiscoverAgentsOptions,
	findNearestAgentsDir,
} from "./agent-dirs.ts";
import { parseAgentFile } from "./agent-markdown.ts";
import { type NameClaim, nameClashes, resolveNames, selectorNameProblems } from "./agent-names.ts";
import { contentDigest } from "./agent-values.ts";
import { PARSED_BUILTIN_AGENTS } from "./builtin-agents.ts";

export type { AgentDefinition, AgentFileError, AgentScope, AgentSource } from "./agent-definition.ts";
export {
	type AgentDirectory,
	agentDirectories,
	BUILTIN_AGENTS_DIR,
	type DiscoverAgentsOptions,
	findNearestAgentsDir,
} from "./agent-dirs.ts";
export { parseAgentFile } from "./agent-markdown.ts";
export { contentDigest } from "./agent-values.ts";

export interface AgentDiscovery {
	/** The selectable definitions (one per name), sorted by name. */
	agents: AgentDefinition[];
	/**
	 * Every plain name, a definition's name or `aliases` entry, to the selectable definition it selects: the one
	 * of the highest-precedence source that claims it (src/config/agent-names.ts).
	 */
	selects: ReadonlyMap<string, AgentDefinition>;
	/** `<format>:<name or alias>` to the highest-precedence definition of that format claiming it, shadowed or not. */
	selectsOfFormat: ReadonlyMap<string, AgentDefinition>;
	/** Definitions hidden by a higher-precedence one of the same name. */
	shadowed: ShadowedAgent[];
	errors: AgentFileError[];
	/**
	 * Names taken by a file that failed to load, plain (`scout`) and qualified by format (`pi:scout`): no
	 * lower-precedence definition answers to them, so a broken override never runs the built-in silently.
	 */
	blocked: ReadonlyMap<string, AgentFileError>;
	/** Every directory searched, in precedence order (also those that do not exist). */
	searched: AgentDirectory[];
	/** The nearest `.pi/agents` directory above `cwd`, whatever the scope (callers use it in trust prompts). */
	projectAgentsDir: string | null;
}

const PARSERS: Record<AgentFormat, typeof parseAgentFile> = {
	pi: parseAgentFile,
	claude: parseClaudeAgentFile,
	codex: parseCodexAgentFile,
};

/** Parses one agent file's text in `format`. Pure; see each format's parser. */
export function parseAgentFileAs(
	format: AgentFormat,
	content: string,
	filePath: string,
	source: AgentSource,
	problems: Problems,
): AgentDefinition | undefined {
	return PARSERS[format](content, filePath, source, problems);
}

/** What parsing one file's text gave: the definition, or the problems that refused it. */
interface ParsedAgentFile {
	agent: AgentDefinition | undefined;
	problems: readonly string[];
}

/**
 * The last parse of each agent file (by path), with the text, format and source it was parsed from. The
 * parsers are pure, so the same text gives the same result: a discovery reads every file again (an edit is
 * seen at once) and parses only a text it has not parsed before. One entry per path: as many as there are
 * agent files. The definitions are shared between discoveries; no caller changes one (they copy what they use).
 */
const lastParse = new Map<string, ParsedAgentFile & { format: AgentFormat; source: AgentSource; text: string }>();

/** {@link parseAgentFileAs} of `text`, or the result of the last parse of the same file when its text, format and source are the same. */
function parseOnce(format: AgentFormat, text: string, filePath: string, source: AgentSource): ParsedAgentFile {
	const last = lastParse.get(filePath);
	if (last && last.text === text && last.format === format && last.source === source) return last;
	const preParsed = source === "builtin" && format === "pi" ? preParsedBuiltin(filePath, text) : undefined;
	const problems = new Problems();
	const agent = preParsed ?? PARSERS[format](text, filePath, source, problems);
	const parsed = { agent, problems: [...problems.list], format, source, text };
	lastParse.set(filePath, parsed);
	return parsed;
}

/**
 * The definition of a built-in file as generated from this package's own copy (src/config/builtin-agents.ts),
 * when `text` is that copy's (same digest): what parsing it would give, without the parser's first-use cost
 * on a session's first call. Any other text (an edited or foreign file) gets `undefined`, and is parsed.
 */
function preParsedBuiltin(filePath: string, text: string): AgentDefinition | undefined {
	const known = PARSED_BUILTIN_AGENTS[basename(filePath)];
	return known && known.digest === contentDigest(text) ? { ...known, filePath } : undefined;
}

/**
 * Loads every agent file directly inside one directory (not recursive; symlinked files are followed).
 * A missing directory yields nothing; an unreadable one is an error. Within one directory two files that
 * claim one name (as a name or an alias) are errors, and neither is used (see `nameClashes`).
 */
function loadAgentsFromDir({ dir, source, format }: AgentDirectory): {
	agents: AgentDefinition[];
	errors: AgentFileError[];
} {
	const agents: AgentDefinition[] = [];
	const errors: AgentFileError[] = [];
	const ext = AGENT_FILE_EXTENSIONS[format];
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
	const claims: NameClaim[] = [];
	for (const name of names) {
		const filePath = join(dir, name);
		const read = readUserFile(filePath);
		const failed = (problems: string[]) => {
			errors.push({ filePath, source, format, problems, name: name.slice(0, -ext.length) });
			claims.push({ filePath, name: name.slice(0, -ext.length), aliases: [] });
		};
		// A directory named like an agent file is not one; anything else that is not a readable file is reported.
		if ("problem" in read) {
			if (read.reason !== "directory") failed([read.problem]);
			continue;
		}
		const { agent, problems } = parseOnce(format, read.text, filePath, source);
		const unselectable = agent ? selectorNameProblems(agent) : [];
		if (!agent || unselectable.length > 0) failed([...problems, ...unselectable]);
		else claims.push({ filePath, name: agent.name, aliases: agent.aliases, agent });
	}
	const clashes = nameClashes(claims);
	for (const error of errors) error.problems.push(...(clashes.get(error.filePath) ?? []));
	for (const { agent } of claims) {
		if (!agent) continue;
		const problems = clashes.get(agent.filePath);
		if (!problems) agents.push(agent);
		else errors.push({ filePath: agent.filePath, source, format, problems, name: agent.name, aliases: agent.aliases });
	}
	return { agents, errors };
}

/**
 * Discovers agent definitions of every format in the scopes `options.scope` selects (see the module
 * comment for the sources and their precedence). Never throws for bad files: each is listed in `errors`
 * with its reasons, and the others still load.
 */
export function discoverAgents(options: DiscoverAgentsOptions): AgentDiscovery {
	const searched = agentDirectories(options);
	const loaded = searched.map(loadAgentsFromDir);
	const names = resolveNames(loaded);
	const errors = loaded.flatMap((directory) => directory.errors);
	const agents = names.selectable.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const projectAgentsDir = findNearestAgentsDir(options.cwd, CONFIG_DIR_NAME, join(options.agentDir, "agents"));
	const { selects, selectsOfFormat, blocked, shadowed } = names;
	return { agents, selects, selectsOfFormat, shadowed, errors, blocked, searched, projectAgentsDir };
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
