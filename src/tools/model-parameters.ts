/**
 * The parameter schemas the parent model receives (docs/tools.md §Tool definitions): every field of every tool
 * named once, with what the model needs to choose well and nothing the error messages already say. `tasks` and
 * `chain` items are plain objects "with the fields above", so the child fields are described once; the package
 * checks every call against the complete schemas (`subagent-schema.ts`, `jobs-schema.ts`) with
 * `checkToolArguments`. Only keywords every provider conversion of pi-ai keeps are used (type, enum, anyOf,
 * items, properties, minimum): no `$ref`/`$defs` (Google's OpenAPI form drops `$defs`), no `const`.
 * A data module (scripts/data-modules.mjs): it exports data only, which the bundle holds as values
 * (docs/design-notes.md §Start-up cost).
 */
import { type Static, Type } from "typebox";
import type { ChildCallPreview } from "../core/details.ts";
import { HARNESSES } from "../core/launch-spec.ts";
import { JOBS_ACTIONS } from "./jobs-schema.ts";

/** A string enum as `{type:"string",enum:[…]}` (what pi-ai's StringEnum builds; some providers reject anyOf/const). */
function stringEnum<T extends string>(values: readonly T[], description: string) {
	return Type.Optional(Type.Unsafe<T>({ type: "string", enum: [...values], description }));
}

const text = (description?: string) => Type.Optional(Type.String(description === undefined ? {} : { description }));
const flag = (description: string) => Type.Optional(Type.Boolean({ description }));
const names = (description: string) => Type.Optional(Type.Array(Type.String(), { description }));
const object = (description: string) =>
	Type.Optional(Type.Unsafe<Record<string, unknown>>({ type: "object", description }));
const children = (description: string) =>
	Type.Optional(Type.Array(Type.Unsafe<ChildCallPreview>({ type: "object" }), { description }));

export const subagentParameters = Type.Object({
	agent: text("Agent definition or alias (pi, Claude Code, codex formats; pi:x, claude:x, codex:x pick one)"),
	roster_entry: text("Roster entry (subagent_roster); its harness, model, cwd, resources apply"),
	agent_type: stringEnum(HARNESSES, "Ad-hoc harness; with agent: run that agent on it"),
	task: text("Text for the child (alias: prompt)"),
	task_name: text("Label in progress and results"),
	cwd: text(),
	model: text("Harness-native, e.g. provider/id for pi"),
	effort: text("pi: off|minimal|low|medium|high|xhigh|max"),
	resources: object(
		"Path lists: skills, extensions, plugins (claude), packages (empty); mcp_servers: list, null inherits; booleans (default true): inherit_personal_resources, inherit_project_resources, include_instruction_files, include_home_system_prompt",
	),
	roster_file: text("pi: the child's own roster file"),
	allowed_tools: names("Tool allowlist"),
	disallowed_tools: names("Tool denylist"),
	auto_approve: flag("Bypass approvals/sandbox for this call"),
	interactive: flag("Run the harness's TUI in tmux; the result gives the attach command"),
	stay_open: flag("Interactive: keep the tmux session after the run"),
	inactivity_timeout_ms: Type.Optional(
		Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
			description: "Interactive: end after this many ms without screen change; null: never",
		}),
	),
	output_schema: object("JSON Schema the result must match; the result is that JSON"),
	resume_session_id: text("Continue that child session (`session:` of a result) with a new task"),
	tasks: children("Parallel children, fields as above"),
	chain: children("Sequential steps, fields as above; {previous} in a task is the prior step's answer"),
	background: flag("Return a job id now; the result follows as a message (subagent_jobs)"),
	agentScope: stringEnum(
		["user", "project", "both"] as const,
		"Agent lookup: user (default, with built-ins), project, both",
	),
});

export const jobsParameters = Type.Object({
	action: stringEnum(JOBS_ACTIONS, "Default list"),
	job_id: text(),
	child: Type.Optional(
		Type.Union([Type.String(), Type.Number()], { description: "send: index or task_name, if several" }),
	),
	text: text("send: the message"),
	mode: stringEnum(["steer", "follow_up"] as const, "send: steer (default, current run) or follow_up (next turn)"),
	timeout_ms: Type.Optional(Type.Integer({ description: "wait: default 60000" })),
});

/** `agent_graph`'s actions (docs/graphs.md §Controls). */
export const GRAPH_ACTIONS = ["run", "list", "status", "cancel", "skip", "retry", "pause", "resume"] as const;
export type GraphAction = (typeof GRAPH_ACTIONS)[number];
/** The fields each `agent_graph` action reads besides `action`; another is refused (src/tools/action-fields.ts). */
export const GRAPH_ACTION_FIELDS: Record<GraphAction, readonly (keyof GraphArgs)[]> = {
	run: ["graph", "name", "inputs", "background", "agentScope"],
	list: [],
	status: ["run_id"],
	cancel: ["run_id"],
	pause: ["run_id"],
	resume: ["run_id", "background"],
	skip: ["run_id", "node"],
	retry: ["run_id", "node"],
};
/**
 * A JSON object whose shape is checked after Pi's schema validation (plain `type: object`: some providers
 * refuse `patternProperties`, which `Type.Record` emits).
 */
const looseObject = (description: string) => Type.Unsafe<Record<string, unknown>>({ type: "object", description });

/** The `agent_graph` arguments (the graph's own shape is checked by graph/definition.ts, docs/graphs.md). */
export const graphParameters = Type.Object(
	{
		action: Type.Optional(
			Type.Unsafe<GraphAction>({
				type: "string",
				enum: [...GRAPH_ACTIONS],
				description:
					"run (default): graph or name; list: this session's runs; status, cancel, pause (hold admissions), resume (a paused run, or an unfinished one after a restart): run_id; skip, retry: node of run_id",
			}),
		),
		run_id: Type.Optional(Type.String({ description: "From a run's result or list" })),
		node: Type.Optional(Type.String({ description: "Node key" })),
		graph: Type.Optional(
			looseObject(
				"{ nodes: { <key>: { agent | roster_entry | agent_type, task, depends_on?, output_schema?, when? } }, inputs?, outputs?, limits?, fail_fast? }",
			),
		),
		name: Type.Optional(Type.String({ description: "Saved graph (<agent dir>/graphs, .pi/graphs)" })),
		inputs: Type.Optional(looseObject("Values for the graph's inputs schema")),
		background: Type.Optional(Type.Boolean({ description: "Run (or resume) as a job (subagent_jobs)" })),
		agentScope: Type.Optional(
			Type.Unsafe<"user" | "project" | "both">({
				type: "string",
				enum: ["user", "project", "both"],
				description: "As for subagent; also for saved graphs",
			}),
		),
	},
	{ additionalProperties: false },
);

export type GraphArgs = Static<typeof graphParameters>;

/** `subagent_roster` takes no arguments. */
export const rosterParameters = Type.Object({}, { additionalProperties: false });
