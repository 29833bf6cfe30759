/**
 * The codex format: codex custom agents, `<CODEX_HOME>/agents/*.toml` and the nearest `.codex/agents/*.toml`
 * (docs/agent-libraries.md §codex format), parsed with `smol-toml`. `codex exec` has no agent flag, so each
 * key becomes the flag or `-c` override that carries it (codex-cli 0.171.0):
 *
 * | key | `codex exec` |
 * |---|---|
 * | `name`, `description` | the agent |
 * | `developer_instructions` | `-c developer_instructions="…"` |
 * | `model` | `--model` |
 * | `model_reasoning_effort` | `-c model_reasoning_effort="…"` |
 * | `sandbox_mode` | `--sandbox` (`danger-full-access` needs `auto_approve: true` on the call) |
 * | `mcp_servers` | `-c mcp_servers.<name>={…}` per server |
 * | `skills` | `-c skills={…}` |
 *
 * `nickname_candidates` is ignored (display only); any other key is refused by name.
 */
import { createRequire } from "node:module";
import type * as Toml from "smol-toml";
import { checkJsonShape } from "../core/json-shape.ts";
import { parseErrorLine } from "../core/printable.ts";
import type { Problems } from "../core/problems.ts";
import { lazySchema } from "../core/zod.ts";
import type { AgentDefinition, AgentSource, CodexAgentSettings } from "./agent-definition.ts";
import { takeUnknownKeys } from "./agent-markdown.ts";
import { contentDigest, optional } from "./agent-values.ts";
import { addZodIssues, requiredString } from "./zod-issues.ts";

let tomlLibrary: typeof Toml | undefined;
/** `smol-toml`, required with the first codex agent file parsed: most sessions have none. */
function tomlParser(): typeof Toml {
	tomlLibrary ??= createRequire(import.meta.url)("smol-toml") as typeof Toml;
	return tomlLibrary;
}

const SANDBOX_MODES = ["read-only", "workspace-write", "danger-full-access"] as const;

const codexSchema = lazySchema((z) =>
	z.object({
		name: requiredString(),
		description: requiredString(),
		developer_instructions: requiredString(),
		model: optional(requiredString()),
		model_reasoning_effort: optional(requiredString()),
		sandbox_mode: optional(z.enum(SANDBOX_MODES, { error: `expected one of ${SANDBOX_MODES.join(", ")}` })),
		mcp_servers: optional(
			z.record(z.string(), z.record(z.string(), z.unknown()), { error: "expected a table of server tables" }),
		),
		skills: optional(z.record(z.string(), z.unknown(), { error: "expected a table" })),
	}),
);

/** Keys accepted and without effect on a child, with why (codex-cli 0.171.0 reads them). */
export const CODEX_IGNORED_KEYS: Readonly<Record<string, string>> = {
	nickname_candidates: "display names codex gives the agent's spawned copies",
};

/**
 * Parses one codex custom agent file's text. Pure.
 * @returns the definition (harness `codex`), or `undefined` with every problem added (TOML syntax, a table or
 *   key named `__proto__` or nesting past 64 levels (docs/rules.md §Configuration files), each bad or unknown key).
 */
export function parseCodexAgentFile(
	content: string,
	filePath: string,
	source: AgentSource,
	problems: Problems,
): AgentDefinition | undefined {
	let table: Record<string, unknown>;
	try {
		table = tomlParser().parse(content) as Record<string, unknown>;
	} catch (error) {
		problems.add(`not valid TOML: ${parseErrorLine(error)}`);
		return undefined;
	}
	// smol-toml keeps a `[mcp_servers.__proto__]` table as a key; the schema's record would drop it unseen.
	if (!checkJsonShape(table, problems)) return undefined;
	const before = problems.size;
	const known = [...Object.keys(codexSchema().shape), ...Object.keys(CODEX_IGNORED_KEYS)];
	const result = codexSchema().safeParse(takeUnknownKeys(table, known, problems));
	if (!result.success) addZodIssues(result.error.issues, problems);
	if (!result.success || problems.size > before) return undefined;
	const toml = result.data;
	const codex: CodexAgentSettings = {};
	if (toml.sandbox_mode !== undefined) codex.sandboxMode = toml.sandbox_mode;
	if (toml.mcp_servers !== undefined) codex.mcpServers = toml.mcp_servers;
	if (toml.skills !== undefined) codex.skills = toml.skills;
	const agent: AgentDefinition = {
		name: toml.name,
		aliases: [],
		description: toml.description,
		format: "codex",
		harness: "codex",
		systemPrompt: toml.developer_instructions.trim(),
		source,
		filePath,
		digest: contentDigest(content),
		ignoredKeys: Object.keys(CODEX_IGNORED_KEYS).filter((key) => table[key] !== undefined),
		codex,
	};
	if (toml.model !== undefined) agent.model = toml.model;
	if (toml.model_reasoning_effort !== undefined) agent.effort = toml.model_reasoning_effort;
	return agent;
}
