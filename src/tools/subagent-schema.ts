/**
 * The `subagent` tool's argument schema (TypeBox; Pi validates it as JSON Schema). `prompt` is folded into `task` by
 * `prepareSubagentArguments` (docs/tools.md §The subagent tool). Field names follow docs/rules.md §Calling the tool.
 */
import { type Static, Type } from "typebox";
import { HARNESSES } from "../core/launch-spec.ts";
import { didYouMean } from "../core/nearest-name.ts";

/** A string enum as `{type:"string",enum:[…]}` (what pi-ai's StringEnum builds; some providers reject anyOf/const). */
function stringEnum<T extends string>(values: readonly T[], description: string) {
	return Type.Unsafe<T>({ type: "string", enum: [...values], description });
}

const paths = (description: string) => Type.Optional(Type.Array(Type.String(), { description }));
const flag = (description: string) => Type.Optional(Type.Boolean({ description }));

const resources = Type.Object(
	{
		skills: paths("Skill files or directories (pi: --skill)."),
		plugins: paths("Plugin directories (claude: --plugin-dir; not supported by pi)."),
		extensions: paths("Extension files or directories (pi: -e)."),
		packages: paths("Must be empty: packages are never installed."),
		mcp_servers: Type.Optional(
			Type.Union([Type.Array(Type.String()), Type.Null()], {
				description: "null inherits MCP servers; [] disables them.",
			}),
		),
		inherit_personal_resources: flag("Default true."),
		inherit_project_resources: flag("Default true."),
		include_instruction_files: flag("AGENTS.md / CLAUDE.md discovery. Default true."),
		include_home_system_prompt: flag("The home SYSTEM.md. Default true."),
	},
	{
		description: "Resource selection; paths resolve against the child's cwd. Omit or null: not set.",
		additionalProperties: false,
	},
);

/** Fields every child has, in single mode (top level) and in `tasks` / `chain` items. */
const childFields = {
	agent: Type.Optional(
		Type.String({
			description:
				"Name (or alias) of an agent definition to run: this package's or pi-subagents' Markdown, a Claude Code agent (.claude/agents) or a codex custom agent (.codex/agents). Qualify by format to pick one file: pi:scout, claude:reviewer, codex:fixer. subagent_roster lists them.",
		}),
	),
	roster_entry: Type.Optional(
		Type.String({ description: "Name of a roster entry to run; its harness, model, effort, cwd and resources apply." }),
	),
	agent_type: Type.Optional(
		stringEnum(
			HARNESSES,
			"Ad-hoc run of a harness: pi, codex or claude_code. With agent: run that agent on this harness instead of its own.",
		),
	),
	task: Type.Optional(
		Type.String({
			description: "The text handed to the child (alias: prompt). In a chain, {previous} is the prior step's answer.",
		}),
	),
	prompt: Type.Optional(Type.String({ description: "Alias of task." })),
	task_name: Type.Optional(Type.String({ description: "Short label for this child in progress and results." })),
	cwd: Type.Optional(Type.String({ description: "Working directory of the child, relative to the current one." })),
	model: Type.Optional(Type.String({ description: "Model (harness-native selector, e.g. provider/id for pi)." })),
	effort: Type.Optional(
		Type.String({ description: "Effort / thinking level (pi: off|minimal|low|medium|high|xhigh|max)." }),
	),
	resources: Type.Optional(Type.Union([resources, Type.Null()])),
	roster_file: Type.Optional(
		Type.Union([Type.String(), Type.Null()], {
			description: "Pi only: the child's own roster file (PI_AGENTSHELL_ROSTER_FILE). Omit or null: not set.",
		}),
	),
	allowed_tools: Type.Optional(Type.Array(Type.String(), { description: "Tool allowlist for this call." })),
	disallowed_tools: Type.Optional(Type.Array(Type.String(), { description: "Tool denylist for this call." })),
	auto_approve: flag("Bypass the harness's approvals / sandbox for this call only. Default false."),
	interactive: flag(
		"Run the harness's own TUI in a tmux session on a private socket; the result adds the command that attaches to it. Default false.",
	),
	stay_open: flag(
		"Interactive only: keep the tmux session (and the harness in it) after the run ends. Default: settings interactive.stay_open.",
	),
	inactivity_timeout_ms: Type.Optional(
		Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
			description:
				"Interactive only: end the run after this many ms without a change on its screen; null: never. Default: settings interactive.inactivity_timeout_ms.",
		}),
	),
	output_schema: Type.Optional(
		Type.Unsafe<Record<string, unknown>>({
			type: "object",
			description:
				"JSON Schema (at most 64 KiB) the child's result must match; the result is that JSON. Not with interactive.",
		}),
	),
	resume_session_id: Type.Optional(
		Type.String({
			description:
				"Continue this child session (the native session id from an earlier result) with a new task; its saved launch settings apply.",
		}),
	),
};

// Unknown fields are errors: a misspelt `alowed_tools` must not launch a child without its restriction.
const child = Type.Object(childFields, { additionalProperties: false });

export const subagentSchema = Type.Object(
	{
		...childFields,
		tasks: Type.Optional(
			Type.Array(child, {
				description: "Parallel mode: children run at once (bounded); results come back in this order.",
			}),
		),
		chain: Type.Optional(
			Type.Array(child, {
				description: "Chain mode: steps run in order; {previous} in a step's task is the prior step's final answer.",
			}),
		),
		background: Type.Optional(
			Type.Boolean({
				description:
					"Return a job id at once and run the children in the background; the result arrives later as a follow-up message (subagent_jobs waits for, reads or cancels it). Refused in print/JSON mode (pi -p), where no follow-up can arrive.",
			}),
		),
		agentScope: Type.Optional(
			stringEnum(
				["user", "project", "both"] as const,
				'Where agent definitions are looked up: "user" (default: user directories and the built-ins), "project" (nearest .pi/agents, .claude/agents, .codex/agents) or "both" (project overrides user).',
			),
		),
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
