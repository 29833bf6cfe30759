/**
 * The complete `subagent` argument schema (TypeBox), which every call is checked against (`checkToolArguments`,
 * after `prepareSubagentArguments` of subagent-arguments.ts folds `prompt` into `task`, docs/tools.md §The subagent tool). The model sees
 * the shorter `subagentParameters` (model-parameters.ts), where each field is described. Field names follow
 * docs/rules.md §Calling the tool.
 * A data module (scripts/data-modules.mjs): it exports data only, which the bundle holds as values
 * (docs/design-notes.md §Start-up cost).
 */
import { type Static, Type } from "typebox";
import { HARNESSES } from "../core/launch-spec.ts";

const oneOf = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: "string", enum: [...values] });
const optional = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) => Type.Optional(schema);
const strings = () => Type.Optional(Type.Array(Type.String()));
const flag = () => Type.Optional(Type.Boolean());
const text = () => Type.Optional(Type.String());

/** `resources` of a child: every field, none other. */
export const resourcesSchema = Type.Object(
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
	resources: optional(Type.Union([resourcesSchema, Type.Null()])),
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
export const childSchema = Type.Object(childFields, { additionalProperties: false });

export const subagentSchema = Type.Object(
	{
		...childFields,
		tasks: optional(Type.Array(childSchema)),
		chain: optional(Type.Array(childSchema)),
		background: flag(),
		agentScope: optional(oneOf(["user", "project", "both"] as const)),
	},
	{ additionalProperties: false },
);

export type SubagentArgs = Static<typeof subagentSchema>;
export type ChildArgs = Static<typeof childSchema>;
