/**
 * The claude format: Claude Code subagent files, `<claude config dir>/agents/*.md` and the nearest
 * `.claude/agents/*.md` (docs/agent-libraries.md §Claude Code format). On the `claude_code` harness the
 * file is handed to claude's own custom-agent mechanism (`--agents <json>` defines it, `--agent <name>`
 * selects it), so its keys mean there exactly what they mean in Claude Code.
 *
 * | key | on claude | on another harness |
 * |---|---|---|
 * | `name`, `description` | the agent | the agent |
 * | `tools`, `disallowedTools` | `--agents` `tools` / `disallowedTools` | pi: names mapped (`Read` → `read`); codex: refused |
 * | `model` | `--model` (`sonnet`, `inherit`: claude resolves them) | refused unless the harness can resolve it |
 * | `effort` | `--effort` (claude 2.1.332 does not apply the JSON key to a session's own agent) | effort |
 * | `hooks`, `mcpServers` | `--agents` keys | refused |
 * | `permissionMode`, `maxTurns` | `--agents` keys and `--permission-mode` / `--max-turns` | refused |
 * | `omitClaudeMd: true` | no instruction files (`CLAUDE_CODE_DISABLE_CLAUDE_MDS=1`) | refused |
 * | `skills`, `memory`, `initialPrompt` | refused: claude does not apply them to a session's agent | refused |
 * | `color`, `background`, `autoCompactWindow` | ignored (display; how Claude Code's parent starts it; no effect on a session agent) | ignored |
 * | `isolation` | refused: this package creates no worktree (give `cwd` on the call) | refused |
 */

import type { Problems } from "../core/problems.ts";
import { lazySchema } from "../core/zod.ts";
import type { AgentDefinition, AgentSource } from "./agent-definition.ts";
import { readMarkdownAgent, takeUnknownKeys } from "./agent-markdown.ts";
import { contentDigest, listSchema, optional } from "./agent-values.ts";
import { addZodIssues, requiredString, typeName } from "./zod-issues.ts";

/**
 * Keys handed to claude's `--agents` JSON as written (claude validates their values itself); checked against
 * claude 2.1.332 (`test/e2e/claude-agent-keys.test.ts`): `hooks` run, `mcpServers` start, `permissionMode`
 * and `maxTurns` apply only as `--permission-mode` / `--max-turns` (the command builder passes both), and
 * `omitClaudeMd: true` only as `CLAUDE_CODE_DISABLE_CLAUDE_MDS` (no instruction files).
 */
export const CLAUDE_ONLY_KEYS = ["permissionMode", "maxTurns", "mcpServers", "hooks", "omitClaudeMd"] as const;

/** Keys accepted and without effect on a child, with why. */
export const CLAUDE_IGNORED_KEYS: Readonly<Record<string, string>> = {
	color: "display colour",
	background: "how Claude Code's own parent starts the agent (use background: true on the call)",
	autoCompactWindow: "claude applies it only to an agent it starts as its own subagent",
};

/** Keys refused on every harness, with why. */
export const CLAUDE_REFUSED_KEYS: Readonly<Record<string, string>> = {
	isolation:
		"would run the child in a temporary git worktree, which this package does not create (give cwd on the call)",
	skills:
		"would preload the named skills into the agent's context, which claude 2.1.332 does not do for the agent a session is started with (--agent); remove it (claude still lists the user's skills) or select skills through a roster entry's resources",
	memory:
		"would give the agent a persistent memory directory, which claude 2.1.332 does not give the agent a session is started with (--agent); remove it",
	initialPrompt:
		"would be submitted as the first user turn, which claude -p does not do (the task is the first turn); put it at the start of the task instead",
};

const TURNS = "expected a positive whole number of turns";

const claudeSchema = lazySchema((z) =>
	z.object({
		name: requiredString(),
		description: requiredString(),
		tools: optional(listSchema()),
		disallowedTools: optional(listSchema()),
		model: optional(requiredString()),
		effort: optional(z.union([requiredString(), z.number().int()]).transform(String)),
		permissionMode: optional(requiredString()),
		// Claude applies maxTurns only as --max-turns (a number) and omitClaudeMd only as `true`: any other value
		// would fail the launch naming claude's temporary --agents file, or change nothing.
		maxTurns: optional(
			z
				.number({ error: (issue) => `${TURNS}, got ${typeName(issue.input)}` })
				.refine((turns) => Number.isInteger(turns) && turns > 0, { error: (issue) => `${TURNS}, got ${issue.input}` }),
		),
		omitClaudeMd: optional(z.boolean({ error: (issue) => `expected true or false, got ${typeName(issue.input)}` })),
	}),
);

const KNOWN_KEYS = [
	"name",
	"description",
	"tools",
	"disallowedTools",
	"model",
	"effort",
	...CLAUDE_ONLY_KEYS,
	...Object.keys(CLAUDE_IGNORED_KEYS),
	...Object.keys(CLAUDE_REFUSED_KEYS),
];

/**
 * Parses one Claude Code agent file's text. Pure.
 * @returns the definition (harness `claude_code`), or `undefined` with every problem added.
 */
export function parseClaudeAgentFile(
	content: string,
	filePath: string,
	source: AgentSource,
	problems: Problems,
): AgentDefinition | undefined {
	const read = readMarkdownAgent(content, problems);
	if (!read) return undefined;
	const before = problems.size;
	const known = takeUnknownKeys(read.frontmatter, KNOWN_KEYS, problems);
	for (const key of Object.keys(CLAUDE_REFUSED_KEYS)) {
		if (known[key] !== undefined && known[key] !== null) problems.add(`${key}: ${CLAUDE_REFUSED_KEYS[key]}`);
	}
	const result = claudeSchema().safeParse(known);
	if (!result.success) addZodIssues(result.error.issues, problems);
	if (!result.success || problems.size > before) return undefined;
	const fm = result.data;
	const definition: Record<string, unknown> = { description: fm.description };
	if (fm.tools !== undefined) definition.tools = fm.tools;
	if (fm.disallowedTools !== undefined) definition.disallowedTools = fm.disallowedTools;
	const claudeOnlyKeys: string[] = [];
	for (const key of CLAUDE_ONLY_KEYS) {
		if (known[key] === undefined || known[key] === null) continue;
		definition[key] = known[key];
		// `permissionMode: default` changes nothing, on any harness.
		if (!(key === "permissionMode" && known[key] === "default")) claudeOnlyKeys.push(key);
	}
	const agent: AgentDefinition = {
		name: fm.name,
		aliases: [],
		description: fm.description,
		format: "claude",
		harness: "claude_code",
		systemPrompt: read.body.trim(),
		source,
		filePath,
		digest: contentDigest(content),
		ignoredKeys: Object.keys(CLAUDE_IGNORED_KEYS)
			.filter((key) => known[key] !== undefined)
			.sort(),
		claude: { definition, claudeOnlyKeys },
	};
	if (fm.tools !== undefined) agent.tools = fm.tools;
	if (fm.disallowedTools !== undefined) agent.disallowedTools = fm.disallowedTools;
	if (fm.model !== undefined && fm.model !== "inherit") agent.model = fm.model;
	if (fm.effort !== undefined) agent.effort = fm.effort;
	return agent;
}
