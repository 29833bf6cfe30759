/**
 * The complete `subagent` argument schema (TypeBox), which every call is checked against (`checkToolArguments`,
 * after `prepareSubagentArguments` folds `prompt` into `task`, docs/tools.md §The subagent tool). The model sees
 * the shorter `subagentParameters` (model-parameters.ts), where each field is described. Field names follow
 * docs/rules.md §Calling the tool.
 */
import { type Static, Type } from "typebox";
import { HARNESSES } from "../core/launch-spec.ts";
import { didYouMean } from "../core/nearest-name.ts";

const oneOf = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: "string", enum: [...values] });
const optional = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) => Type.Optional(schema);
const strings = () => Type.Optional(Type.Array(Type.String()));
const flag = () => Type.Optional(Type.Boolean());
const text = () => Type.Optional(Type.String());

const resources = Type.Object(
	{
		skills: strings(),
		plugins: strings(),
		extensions: strings(),
		packages: strings(),
		mcp_servers: optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
		inherit_personal_resources: flag(),
		inherit_project_resources: flag(),
		include_instruction_files: flag(),
		include_home_system_prompt: flag(),
	},
	{ additionalProperties: false },
);

/** Fields every child has, in single mode (top level) and in `tasks` / `chain` items. */
const childFields = {
	agent: text(),
	roster_entry: text(),
	agent_type: optional(oneOf(HARNESSES)),
	task: text(),
	prompt: text(),
	task_name: text(),
	cwd: text(),
	model: text(),
	effort: text(),
	resources: optional(Type.Union([resources, Type.Null()])),
	roster_file: optional(Type.Union([Type.String(), Type.Null()])),
	allowed_tools: strings(),
	disallowed_tools: strings(),
	auto_approve: flag(),
	interactive: flag(),
	stay_open: flag(),
	inactivity_timeout_ms: optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
	/** Checked as a JSON Schema by `checkOutputSchema` (runs/structured-output.ts). */
	output_schema: optional(Type.Unsafe<Record<string, unknown>>({ type: "object" })),
	resume_session_id: text(),
};

// Unknown fields are errors: a misspelt `alowed_tools` must not launch a child without its restriction.
const child = Type.Object(childFields, { additionalProperties: false });

export const subagentSchema = Type.Object(
	{
		...childFields,
		tasks: optional(Type.Array(child)),
		chain: optional(Type.Array(child)),
		background: flag(),
		agentScope: optional(oneOf(["user", "project", "both"] as const)),
	},
	{ additionalProperties: false },
);

export type SubagentArgs = Static<typeof subagentSchema>;
export type ChildArgs = Static<typeof child>;

/**
 * Folds the documented alias `prompt` into `task`, at the top level and in `tasks` / `chain` items
 * (Pi runs `prepareArguments` before schema validation). When both are given with different text,
 * `prompt` is left in place and `selectMode` reports the conflict.
 */
export function prepareSubagentArguments(raw: unknown): SubagentArgs {
	if (!raw || typeof raw !== "object") return raw as SubagentArgs;
	const unknown = unknownArguments(raw as Record<string, unknown>);
	// Thrown before Pi's schema check, whose message Pi gives the model as the tool's result (same format).
	if (unknown.length > 0) {
		throw new Error(`Validation failed for tool "subagent":\n${unknown.map((line) => `  - ${line}`).join("\n")}`);
	}
	const fold = (value: unknown): unknown => {
		if (!value || typeof value !== "object" || Array.isArray(value)) return value;
		const { prompt, ...rest } = value as Record<string, unknown>;
		if (prompt === undefined) return value;
		if (rest.task === undefined || rest.task === prompt) return { ...rest, task: prompt };
		return value;
	};
	const args = fold(raw) as Record<string, unknown>;
	const items = (list: unknown) => (Array.isArray(list) ? list.map(fold) : list);
	return { ...args, tasks: items(args.tasks), chain: items(args.chain) } as SubagentArgs;
}

const TOP_KEYS = Object.keys(subagentSchema.properties);
const CHILD_KEYS = Object.keys(childFields);
const RESOURCE_KEYS = Object.keys(resources.properties);

/**
 * Every argument name the schema does not know, at the top level, in `tasks` / `chain` items and in
 * `resources`, each with the nearest known name (`tasks.0.alowed_tools: unknown field (did you mean
 * "allowed_tools"?)`, paths as Pi's schema check writes them). Pi's check would refuse them too, without
 * a suggestion (issue 20 item 4).
 */
function unknownArguments(args: Record<string, unknown>): string[] {
	const found: string[] = [];
	const check = (value: unknown, known: readonly string[], where: string) => {
		if (!value || typeof value !== "object" || Array.isArray(value)) return;
		for (const [key, item] of Object.entries(value)) {
			if (!known.includes(key)) {
				found.push(`${where}${key}: unknown field${didYouMean(key, known)}`);
			} else if (key === "resources") check(item, RESOURCE_KEYS, `${where}resources.`);
		}
	};
	check(args, TOP_KEYS, "");
	for (const list of ["tasks", "chain"] as const) {
		const items = args[list];
		if (!Array.isArray(items)) continue;
		for (const [i, item] of items.entries()) check(item, CHILD_KEYS, `${list}.${i}.`);
	}
	return found;
}
