/**
 * The pi format: Markdown agent files of this package and of the pi-subagents package, read from
 * `<agent dir>/agents`, the nearest `.pi/agents` and the built-in `agents/` (docs/agent-libraries.md §pi
 * format). YAML frontmatter is parsed by Pi's own `parseFrontmatter`; the body is the child's system
 * prompt (appended to pi's, or replacing it with `systemPromptMode: replace`).
 *
 * | key | meaning |
 * |---|---|
 * | `name`, `description` | required, non-empty |
 * | `tools`, `disallowedTools` | tool allow / deny list (`"read, bash"` or a list); Claude Code names map to pi's |
 * | `model`, `effort` (`thinking`) | harness-native selectors; `model: inherit` is the harness default |
 * | `harness` | `pi` (default), `codex`, `claude_code` |
 * | `aliases` | extra names the agent can be selected by |
 * | `systemPromptMode` | `append` (default) or `replace` |
 * | `inheritProjectContext`, `inheritSkills` | `false`: no context files / no skill discovery |
 * | `defaultContext` | `fresh` (default) or `fork`: start from a fork of the parent's session |
 * | `defaultReads` | files listed for the child to read first |
 * | `output` | the final answer is also written to this file in the child's cwd |
 *
 * Other tools' keys are handled in `agent-keys.ts`.
 */
import { parseFrontmatter } from "@earendil-works/pi-coding-agent";
import type { z } from "zod";
import { HARNESSES, type Harness } from "../core/launch-spec.ts";
import { didYouMean } from "../core/nearest-name.ts";
import { parseErrorLine } from "../core/printable.ts";
import type { Problems } from "../core/problems.ts";
import { lazySchema } from "../core/zod.ts";
import type { AgentDefinition, AgentSource, PiAgentSettings } from "./agent-definition.ts";
import { IGNORED_AGENT_KEYS, piToolName, REFUSED_AGENT_KEYS, splitForeignKeys } from "./agent-keys.ts";
import { contentDigest, listItems, listSchema, optional } from "./agent-values.ts";
import { addZodIssues, requiredString } from "./zod-issues.ts";

/** zod schema of the frontmatter mapping; strict, so unknown keys are reported by name. */
export const piFrontmatterSchema = lazySchema((z) =>
	z.strictObject({
		name: requiredString(),
		description: requiredString(),
		tools: optional(listSchema()),
		model: optional(requiredString()),
		effort: optional(requiredString()),
		harness: optional(
			z.enum(HARNESSES as [Harness, ...Harness[]], { error: `expected one of ${HARNESSES.join(", ")}` }),
		),
		disallowedTools: optional(listSchema()),
		thinking: optional(requiredString()),
		aliases: optional(listSchema()),
		systemPromptMode: optional(z.enum(["append", "replace"], { error: "expected append or replace" })),
		inheritProjectContext: optional(z.boolean({ error: "expected true or false" })),
		inheritSkills: optional(z.boolean({ error: "expected true or false" })),
		defaultContext: optional(z.enum(["fresh", "fork"], { error: "expected fresh or fork" })),
		defaultReads: optional(listSchema()),
		output: optional(requiredString()),
	}),
);

type PiFrontmatter = z.infer<ReturnType<typeof piFrontmatterSchema>>;

const text = (value: unknown) => typeof value === "string" && value.trim() !== "";
const list = (value: unknown) =>
	typeof value === "string" || (Array.isArray(value) && value.every((item) => typeof item === "string"));
const oneOf = (values: readonly string[]) => (value: unknown) => values.includes(value as string);
const flag = (value: unknown) => typeof value === "boolean";

/**
 * Each schema key with the test a plainly valid value passes. A frontmatter whose every value passes is read
 * without zod, exactly as the schema reads it (lists split, `null` as not set); any other goes to the schema,
 * which names every problem. So a session with only valid pi agent files never loads zod.
 */
const PLAIN_VALUES: Readonly<Record<keyof PiFrontmatter, (value: unknown) => boolean>> = {
	name: text,
	description: text,
	tools: list,
	model: text,
	effort: text,
	harness: oneOf(HARNESSES),
	disallowedTools: list,
	thinking: text,
	aliases: list,
	systemPromptMode: oneOf(["append", "replace"]),
	inheritProjectContext: flag,
	inheritSkills: flag,
	defaultContext: oneOf(["fresh", "fork"]),
	defaultReads: list,
	output: text,
};
const LIST_KEYS: readonly string[] = ["tools", "disallowedTools", "aliases", "defaultReads"];

/** `mapping` read as the schema would, when every value is plainly valid (see PLAIN_VALUES); else `undefined`. */
export function plainFrontmatter(mapping: Record<string, unknown>): PiFrontmatter | undefined {
	const read: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(mapping)) {
		if (!Object.hasOwn(PLAIN_VALUES, key)) return undefined;
		const test = PLAIN_VALUES[key as keyof PiFrontmatter];
		if (value === null && key !== "name" && key !== "description") continue;
		if (!test(value)) return undefined;
		read[key] = LIST_KEYS.includes(key) ? listItems(value as string | string[]) : value;
	}
	return read.name === undefined || read.description === undefined ? undefined : (read as PiFrontmatter);
}

const KNOWN_KEYS = [
	...Object.keys(PLAIN_VALUES),
	...Object.keys(IGNORED_AGENT_KEYS),
	...Object.keys(REFUSED_AGENT_KEYS),
];

/**
 * The frontmatter mapping and body of a Markdown agent file. Pure.
 * @returns `undefined` with the problem added when the YAML is invalid or not a mapping.
 */
export function readMarkdownAgent(
	content: string,
	problems: Problems,
): { frontmatter: Record<string, unknown>; body: string } | undefined {
	let parsed: { frontmatter: unknown; body: string };
	try {
		parsed = parseFrontmatter(content);
	} catch (error) {
		try {
			parsed = parseFrontmatter(quotePlainValues(content));
		} catch {
			problems.add(`frontmatter is not valid YAML: ${parseErrorLine(error)}`);
			return undefined;
		}
	}
	const { frontmatter, body } = parsed;
	if (frontmatter === null || typeof frontmatter !== "object" || Array.isArray(frontmatter)) {
		problems.add("frontmatter must be a YAML mapping with name and description");
		return undefined;
	}
	return { frontmatter: frontmatter as Record<string, unknown>, body };
}

/** A one-line `key: value` whose plain value YAML would read as a nested mapping (it holds `": "`). */
const PLAIN_VALUE_WITH_COLON = /^([A-Za-z_][\w-]*):[ \t]+([^"'[{|>&*!#\s].*: .*)$/;

/**
 * `content` with each one-line frontmatter value that holds `": "` quoted as a string. Public Claude Code
 * agent collections write descriptions such as `description: Use it when… Examples: <example>Context: …`
 * unquoted, which YAML rejects ("nested mappings are not allowed in compact mappings") and Claude Code
 * reads as one string; a file is read this way only when it is not valid YAML as written.
 */
function quotePlainValues(content: string): string {
	// Line ends as Pi's parseFrontmatter reads them: CRLF and CR are LF (a `.` of the pattern matches no CR).
	const lines = content.replace(/\r\n?/g, "\n").split("\n");
	const end = lines[0]?.trim() === "---" ? lines.findIndex((line, i) => i > 0 && line.trim() === "---") : -1;
	for (let i = 1; i < end; i++) {
		const match = PLAIN_VALUE_WITH_COLON.exec(lines[i]);
		if (match) lines[i] = `${match[1]}: ${JSON.stringify(match[2].trimEnd())}`;
	}
	return lines.join("\n");
}

/**
 * Removes the keys `known` does not list from `mapping`, adding one problem per key with the nearest known
 * key suggested. Pure.
 */
export function takeUnknownKeys(
	mapping: Record<string, unknown>,
	known: readonly string[],
	problems: Problems,
): Record<string, unknown> {
	const rest: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(mapping)) {
		if (known.includes(key)) rest[key] = value;
		else problems.add(`${key}: unknown key${didYouMean(key, known)}`);
	}
	return rest;
}

/**
 * Parses one pi-format agent file's text. Pure: no filesystem access.
 * @returns the definition, or `undefined` with every problem found added to `problems` (YAML syntax,
 *   non-mapping frontmatter, each bad, unknown or refused key).
 */
export function parseAgentFile(
	content: string,
	filePath: string,
	source: AgentSource,
	problems: Problems,
): AgentDefinition | undefined {
	const read = readMarkdownAgent(content, problems);
	if (!read) return undefined;
	const before = problems.size;
	const foreign = splitForeignKeys(read.frontmatter, problems);
	const known = takeUnknownKeys(foreign.rest, KNOWN_KEYS, problems);
	const fm = plainFrontmatter(known) ?? validated(known, problems);
	if (fm === undefined || problems.size > before) return undefined;
	if (fm.effort !== undefined && fm.thinking !== undefined && fm.effort !== fm.thinking) {
		problems.add(
			`thinking: ${JSON.stringify(fm.thinking)} disagrees with effort ${JSON.stringify(fm.effort)}; keep one`,
		);
		return undefined;
	}
	const harness = fm.harness ?? "pi";
	// A pi child of a file written for Claude Code gets pi's names for the same built-in tools.
	const toolNames = (names: string[]) => (harness === "pi" ? names.map(piToolName) : names);
	const agent: AgentDefinition = {
		name: fm.name,
		aliases: fm.aliases ?? [],
		description: fm.description,
		format: "pi",
		harness,
		systemPrompt: read.body.trim(),
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
	const pi = piSettings(fm);
	if (Object.keys(pi).length > 0) agent.pi = pi;
	return agent;
}

/** `mapping` validated by the schema: the frontmatter, or `undefined` with every problem added. */
function validated(mapping: Record<string, unknown>, problems: Problems): PiFrontmatter | undefined {
	const result = piFrontmatterSchema().safeParse(mapping);
	if (result.success) return result.data;
	addZodIssues(result.error.issues, problems);
	return undefined;
}

/** The pi-subagents keys that change how the child starts; defaults leave them out. */
function piSettings(fm: PiFrontmatter): PiAgentSettings {
	const pi: PiAgentSettings = {};
	if (fm.systemPromptMode === "replace") pi.replaceSystemPrompt = true;
	if (fm.inheritProjectContext === false) pi.noContextFiles = true;
	if (fm.inheritSkills === false) pi.noSkills = true;
	if (fm.defaultContext === "fork") pi.forkParentSession = true;
	if (fm.defaultReads && fm.defaultReads.length > 0) pi.readFirst = fm.defaultReads;
	if (fm.output !== undefined) pi.outputFile = fm.output;
	return pi;
}
