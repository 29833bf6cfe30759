/**
 * zod schemas of the two roster file formats and of `resources` (docs/rules.md §Rosters, §Resources). Every object is
 * strict: unknown keys are errors, never ignored. These schemas check shape only; rules that need more
 * than one field or the filesystem (unique names, `roster_file` Pi-only, non-Pi normalized rosters,
 * path existence) live in `roster-inline.ts` and `roster-normalized.ts`.
 */
import type { z } from "zod";
import { HARNESSES, type Harness } from "../core/launch-spec.ts";
import { lazySchema, zod } from "../core/zod.ts";
import { booleanWithDefault, requiredString, typeName } from "./zod-issues.ts";

const harnessList = HARNESSES.join(", ");

/** `agent_type`: one of `pi`, `codex`, `claude_code`; required. */
const agentTypeSchema = () =>
	zod().enum(HARNESSES as [Harness, ...Harness[]], {
		error: (issue) =>
			issue.input === undefined
				? `is required (one of ${harnessList})`
				: `expected one of ${harnessList}, got ${JSON.stringify(issue.input)}`,
	});

/** An optional path string: omitted is fine, but when present it must be a non-empty string (not null). */
const optionalPath = () => requiredString().optional();

const pathList = () =>
	zod()
		.array(requiredString(), { error: (issue) => `expected a list of paths, got ${typeName(issue.input)}` })
		.default([]);

/**
 * `resources` as written in a roster file (paths still relative). Defaults: path lists `[]`,
 * `mcp_servers` `null` (inherit), the four booleans `true`.
 * - `packages` must be empty: this package never runs a resource-package installer.
 * - `mcp_servers`: `null` inherits, `[]` disables, a non-empty list is rejected.
 */
export const resourcesSchema = lazySchema((z) =>
	z.strictObject(
		{
			skills: pathList(),
			plugins: pathList(),
			extensions: pathList(),
			packages: z
				.array(z.unknown(), { error: (issue) => `expected an empty list, got ${typeName(issue.input)}` })
				.default([])
				.refine(
					(list) => list.length === 0,
					"must be empty: this extension never installs resource packages; provision the files yourself and list their paths",
				)
				.transform((): string[] => []),
			mcp_servers: z
				.array(z.unknown(), { error: (issue) => `expected null or [], got ${typeName(issue.input)}` })
				.nullable()
				.default(null)
				.refine(
					(list) => list === null || list.length === 0,
					"a non-empty list is not supported: omit it or use null to inherit the harness's MCP servers, [] to disable them",
				)
				.transform((list): string[] | null => (list === null ? null : [])),
			inherit_personal_resources: booleanWithDefault(true),
			inherit_project_resources: booleanWithDefault(true),
			include_instruction_files: booleanWithDefault(true),
			include_home_system_prompt: booleanWithDefault(true),
		},
		{
			error: (issue) =>
				issue.code === "invalid_type" ? `expected an object, got ${typeName(issue.input)}` : undefined,
		},
	),
);

export type ParsedResources = z.output<ReturnType<typeof resourcesSchema>>;

const objectError = (issue: { code: string; input?: unknown }) =>
	issue.code === "invalid_type"
		? issue.input === undefined
			? "is required (an object)"
			: `expected an object, got ${typeName(issue.input)}`
		: undefined;

/** The settings every agent description has, in both roster formats (docs/rules.md §Rosters). */
const agentFields = () => ({
	name: requiredString(),
	description: requiredString(),
	agent_type: agentTypeSchema(),
	model: requiredString(),
	effort: requiredString(),
	cwd: optionalPath(),
	resources: resourcesSchema().optional(),
});

/** One entry of a native inline roster: the agent fields plus the Pi-only `roster_file`. */
export const inlineEntrySchema = lazySchema((z) =>
	z.strictObject({ ...agentFields(), roster_file: optionalPath() }, { error: objectError }),
);

export type ParsedInlineEntry = z.output<ReturnType<typeof inlineEntrySchema>>;

const rolesList = <T extends z.ZodType>(entry: T) =>
	zod()
		.array(entry, { error: (issue) => `expected a list, got ${typeName(issue.input)}` })
		.default([]);

/** The `roster` section of a native inline roster (and of the personal settings file). */
export const inlineRosterSchema = lazySchema((z) =>
	z.strictObject({ enabled: booleanWithDefault(false), roles: rolesList(inlineEntrySchema()) }, { error: objectError }),
);

export type ParsedInlineRoster = z.output<ReturnType<typeof inlineRosterSchema>>;

/** A native inline roster file: exactly `{ roster }`. */
export const inlineRosterFileSchema = lazySchema((z) =>
	z.strictObject({ roster: inlineRosterSchema() }, { error: objectError }),
);

/** The `agent` section of a normalized definition: the agent fields, nothing else. */
const normalizedAgentSchema = () => zod().strictObject(agentFields(), { error: objectError });

/** A normalized roster entry: exactly `{ agent_file }`. */
const normalizedRoleSchema = () => zod().strictObject({ agent_file: requiredString() }, { error: objectError });

const normalizedRosterSchema = () =>
	zod().strictObject(
		{ enabled: booleanWithDefault(false), roles: rolesList(normalizedRoleSchema()) },
		{ error: objectError },
	);

/** A normalized `agent.json`: exactly `{ agent, roster }`, both required. */
export const normalizedDefinitionSchema = lazySchema((z) =>
	z.strictObject({ agent: normalizedAgentSchema(), roster: normalizedRosterSchema() }, { error: objectError }),
);

export type ParsedNormalizedDefinition = z.output<ReturnType<typeof normalizedDefinitionSchema>>;
