/**
 * Markdown agent definitions (docs/rules.md §Agent definitions; issue 2 item 5).
 *
 * An agent file is `*.md` with YAML frontmatter parsed by Pi's own `parseFrontmatter`; the body is
 * appended to the child's system prompt. Frontmatter keys:
 *
 * | key           | type                          | default | meaning                                   |
 * |---------------|-------------------------------|---------|-------------------------------------------|
 * | `name`        | non-empty string (required)   |         | what `subagent({ agent })` selects        |
 * | `description` | non-empty string (required)   |         | shown in agent lists                      |
 * | `tools`       | `"read, bash"` or `[read, bash]` | all  | tool allowlist for the child              |
 * | `model`       | non-empty string              | harness | harness-native model selector             |
 * | `effort`      | non-empty string              | harness | harness-native effort / thinking level    |
 * | `harness`     | `pi` / `codex` / `claude_code`| `pi`    | which native CLI runs the child           |
 * | `disallowedTools` | like `tools`              | none    | tool denylist (Claude Code's key)         |
 * | `thinking`    | non-empty string              |         | same as `effort` (pi-subagents' key)      |
 *
 * Keys of other tools' agent files are handled in `agent-keys.ts` (ignored, or refused by name); `model:
 * inherit` (Claude Code) means the harness default. Any other unknown key is an error naming the key: a
 * typo such as `modle:` would otherwise launch the child on the wrong model without a word. A bad file is
 * reported in `errors` and never hides other agents.
 */
import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { CONFIG_DIR_NAME, parseFrontmatter } from "@earendil-works/pi-coding-agent";
import { z } from "zod";
import { HARNESSES, type Harness } from "../core/launch-spec.ts";
import { Problems } from "../core/problems.ts";
import { readUserFile } from "../core/user-file.ts";
import { CLAUDE_TO_PI_TOOLS, splitForeignKeys } from "./agent-keys.ts";
import { addZodIssues, requiredString } from "./zod-issues.ts";

/** Which agent directories are searched: user scope is the default, project scope is opt-in. */
export type AgentScope = "user" | "project" | "both";

/** Where a definition was found. Project definitions are project-controlled and need trust. */
export type AgentSource = "user" | "project";

/** One valid Markdown agent definition. */
export interface AgentDefinition {
	name: string;
	description: string;
	/** Tool allowlist; `undefined` means the harness default. An explicit empty list means no tools. */
	tools?: string[];
	/** Tool denylist (`disallowedTools`). */
	disallowedTools?: string[];
	/** Keys of other tools' formats that were accepted and have no effect here, sorted. */
	ignoredKeys: string[];
	model?: string;
	effort?: string;
	harness: Harness;
	/** The Markdown body after the frontmatter, trimmed; appended to the child's system prompt. */
	systemPrompt: string;
	source: AgentSource;
	/** Absolute path of the `.md` file. */
	filePath: string;
	/** sha256 (hex) of the file's content: what a trust confirmation and a resume check refer to. */
	digest: string;
}

/** A file (or agents directory) that could not be used, with every reason found. */
export interface AgentFileError {
	/** Absolute path of the file or directory. */
	filePath: string;
	source: AgentSource;
	/** Human-readable reasons, each naming the frontmatter field when there is one. */
	problems: string[];
}

export interface AgentDiscovery {
	/** Valid definitions, sorted by name; in scope `both`, a project definition replaces a user one of the same name. */
	agents: AgentDefinition[];
	errors: AgentFileError[];
	/** The nearest `.pi/agents` directory above `cwd`, whatever the scope (callers use it in trust prompts). */
	projectAgentsDir: string | null;
}

export interface DiscoverAgentsOptions {
	/** Directory the project search starts from (absolute). */
	cwd: string;
	/** Pi's agent directory (`getAgentDir()`, i.e. `PI_CODING_AGENT_DIR` or `~/.pi/agent`). */
	agentDir: string;
	scope: AgentScope;
}

/** Optional fields accept YAML null (`model:` with nothing after it) as "not set". */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const toolsSchema = z
	.union([z.string(), z.array(z.string({ error: "expected a string" }))], {
		error: "expected a comma-separated string or a list of strings",
	})
	.transform((value) =>
		(Array.isArray(value) ? value : value.split(",")).map((tool) => tool.trim()).filter((tool) => tool !== ""),
	);

/** zod schema of the frontmatter mapping; strict, so unknown keys are reported by name. */
const agentFrontmatterSchema = z.strictObject({
	name: requiredString(),
	description: requiredString(),
	tools: optional(toolsSchema),
	model: optional(requiredString()),
	effort: optional(requiredString()),
	harness: optional(z.enum(HARNESSES as [Harness, ...Harness[]], { error: `expected one of ${HARNESSES.join(", ")}` })),
	disallowedTools: optional(toolsSchema),
	thinking: optional(requiredString()),
});

/**
 * Parses one agent file's text. Pure: no filesystem access.
 * @returns the definition, or `undefined` with every problem found added to `problems` (YAML syntax,
 *   non-mapping frontmatter, each bad, unknown or refused field).
 */
export function parseAgentFile(
	content: string,
	filePath: string,
	source: AgentSource,
	problems: Problems,
): AgentDefinition | undefined {
	let parsed: { frontmatter: unknown; body: string };
	try {
		parsed = parseFrontmatter(content);
	} catch (error) {
		problems.add(`frontmatter is not valid YAML: ${(error as Error).message}`);
		return undefined;
	}
	const { frontmatter, body } = parsed;
	if (frontmatter === null || typeof frontmatter !== "object" || Array.isArray(frontmatter)) {
		problems.add("frontmatter must be a YAML mapping with name and description");
		return undefined;
	}
	const before = problems.size;
	const foreign = splitForeignKeys(frontmatter as Record<string, unknown>, problems);
	const result = agentFrontmatterSchema.safeParse(foreign.rest);
	if (!result.success) addZodIssues(result.error.issues, problems);
	if (!result.success || problems.size > before) return undefined;
	const fm = result.data;
	if (fm.effort !== undefined && fm.thinking !== undefined && fm.effort !== fm.thinking) {
		problems.add(
			`thinking: ${JSON.stringify(fm.thinking)} disagrees with effort ${JSON.stringify(fm.effort)}; keep one`,
		);
		return undefined;
	}
	const harness = fm.harness ?? "pi";
	// A pi child of a file written for Claude Code gets pi's names for the same built-in tools.
	const toolNames = (names: string[]) => (harness === "pi" ? names.map((n) => CLAUDE_TO_PI_TOOLS[n] ?? n) : names);
	const agent: AgentDefinition = {
		name: fm.name,
		description: fm.description,
		harness,
		systemPrompt: body.trim(),
		source,
		filePath,
		digest: contentDigest(content),
		ignoredKeys: foreign.ignored,
	};
	if (fm.tools !== undefined) agent.tools = toolNames(fm.tools);
	if (fm.disallowedTools !== undefined) agent.disallowedTools = toolNames(fm.disallowedTools);
	if (fm.model !== undefined && fm.model !== "inherit") agent.model = fm.model;
	const effort = fm.effort ?? fm.thinking;
	if (effort !== undefined) agent.effort = effort;
	return agent;
}

/** sha256 (hex) of an agent file's text. */
export function contentDigest(content: string): string {
	return createHash("sha256").update(content).digest("hex");
}

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/**
 * The nearest `<dir>/.pi/agents` directory walking up from `cwd` (inclusive), or null.
 * Source: docs/rules.md §Agent definitions (the nearest `.pi/agents/` walking up from the working directory).
 */
function findProjectAgentsDir(cwd: string): string | null {
	let dir = resolve(cwd);
	for (;;) {
		const candidate = join(dir, CONFIG_DIR_NAME, "agents");
		if (isDirectory(candidate)) return candidate;
		const parent = join(dir, "..");
		if (parent === dir) return null;
		dir = parent;
	}
}

/**
 * Loads every `*.md` file directly inside `dir` (not recursive; symlinked files are followed).
 * A missing directory yields nothing; an unreadable one is an error. Within one directory a second
 * file with an already used name is an error (files are read in name order, so the first one wins).
 */
function loadAgentsFromDir(dir: string, source: AgentSource): { agents: AgentDefinition[]; errors: AgentFileError[] } {
	const agents: AgentDefinition[] = [];
	const errors: AgentFileError[] = [];
	let names: string[];
	try {
		names = readdirSync(dir).filter((name) => name.endsWith(".md"));
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") return { agents, errors };
		return { agents, errors: [{ filePath: dir, source, problems: [`cannot read agents directory: ${code}`] }] };
	}
	names.sort();
	const seen = new Map<string, string>();
	const ambiguous = new Set<string>();
	for (const name of names) {
		const filePath = join(dir, name);
		const read = readUserFile(filePath);
		if ("problem" in read) {
			// A directory named `*.md` is not an agent file; anything else that is not a readable file is reported.
			if (read.reason !== "directory") errors.push({ filePath, source, problems: [read.problem] });
			continue;
		}
		const content = read.text;
		const problems = new Problems();
		const agent = parseAgentFile(content, filePath, source, problems);
		if (!agent) {
			errors.push({ filePath, source, problems: [...problems.list] });
			continue;
		}
		const earlier = seen.get(agent.name);
		if (earlier !== undefined) {
			ambiguous.add(agent.name);
			errors.push({
				filePath,
				source,
				problems: [`name: "${agent.name}" is already defined by ${earlier}; neither file is used until one is renamed`],
			});
			continue;
		}
		seen.set(agent.name, filePath);
		agents.push(agent);
	}
	// An ambiguous name must not silently run whichever file sorts first.
	return { agents: agents.filter((found) => !ambiguous.has(found.name)), errors };
}

/**
 * Discovers Markdown agent definitions.
 *
 * - user scope: `<agentDir>/agents/*.md`;
 * - project scope: the nearest `.pi/agents/*.md` walking up from `cwd`;
 * - `both`: project definitions override user definitions of the same name.
 *
 * Never throws for bad files: each is listed in `errors` with its reasons, and the others still load.
 */
export function discoverAgents(options: DiscoverAgentsOptions): AgentDiscovery {
	const { cwd, agentDir, scope } = options;
	const projectAgentsDir = findProjectAgentsDir(cwd);
	const byName = new Map<string, AgentDefinition>();
	const errors: AgentFileError[] = [];
	if (scope !== "project") {
		const user = loadAgentsFromDir(join(agentDir, "agents"), "user");
		for (const agent of user.agents) byName.set(agent.name, agent);
		errors.push(...user.errors);
	}
	if (scope !== "user" && projectAgentsDir !== null) {
		const project = loadAgentsFromDir(projectAgentsDir, "project");
		for (const agent of project.agents) byName.set(agent.name, agent);
		errors.push(...project.errors);
	}
	const agents = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	return { agents, errors, projectAgentsDir };
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
