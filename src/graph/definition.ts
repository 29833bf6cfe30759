/**
 * The graph definition format (docs/graphs.md "A graph"): zod schemas for inline graphs and saved files,
 * shape only. Every object is strict (an unknown key is an error). Nodes are a discriminated union on
 * `kind` (`agent`, the default, `fanout`, `feedback`, `graph`, `command`, `human`); each kind has a schema
 * here and an executor in `executors.ts`. A definition is read against them by `parse-graph.ts`; rules across
 * fields (dependencies, cycles, ValueRefs, conditions) are checked in `validate.ts`.
 */
import type { z as Zod } from "zod";
import { describeValue, integerAtLeast, notAnInteger, requiredString, typeName } from "../config/zod-issues.ts";
import { fieldPath, type ValuePath } from "../core/json-shape.ts";
import { HARNESSES, type Harness } from "../core/launch-spec.ts";
import { zod } from "../core/zod.ts";

// The graph modules load with the first graph: zod may load with them.
const z = zod();

/** Node keys: a letter or `_`, then letters, digits, `_` or `-` (they appear in `${nodes.<key>…}`). */
export const NODE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Most nodes one graph may have. */
export const MAX_NODES = 100;

const jsonSchemaObject = z.record(z.string(), z.unknown(), {
	error: (issue) => `expected a JSON Schema object, got ${typeName(issue.input)}`,
});
const stringList = z.array(z.string(), {
	error: (issue) => `expected a list of strings, got ${typeName(issue.input)}`,
});
/** A count of at least 1, in `unit`: `must be at least 1 (ms)`, as the settings file's limits say it. */
const positiveInt = (unit: string) => integerAtLeast(1, unit);

/** The child fields an agent node shares with a `subagent` call (docs/rules.md §Calling the tool). */
const childFields = {
	agent: z.string().optional(),
	roster_entry: z.string().optional(),
	agent_type: z
		.enum(HARNESSES as [Harness, ...Harness[]], {
			error: (issue) => `expected one of ${HARNESSES.join(", ")}, got ${JSON.stringify(issue.input)}`,
		})
		.optional(),
	task: requiredString(),
	task_name: z.string().optional(),
	cwd: z.string().optional(),
	model: z.string().optional(),
	effort: z.string().optional(),
	resources: z.unknown().optional(),
	roster_file: z.string().nullable().optional(),
	allowed_tools: stringList.optional(),
	disallowed_tools: stringList.optional(),
	auto_approve: z.boolean().optional(),
};

/** What every node kind has: its dependencies, its condition and its admissions. */
const commonFields = {
	depends_on: stringList.optional(),
	/** Checked by `conditions.ts`. */
	when: z.unknown().optional(),
	/** Admissions the node may have: its first run plus reruns after a crash or a retry (docs/graphs.md §Durability). */
	max_attempts: positiveInt("admissions").optional(),
};

/** One child run as a template: an agent node's child fields and its `output_schema` (fanout items, feedback roles). */
const agentTemplateSchema = z.strictObject({
	...childFields,
	/** Checked by `checkOutputSchema` (runs/structured-output.ts) in `validate.ts`. */
	output_schema: jsonSchemaObject.optional(),
});

/** An `agent` node: one child run (an agent definition, a roster entry or an ad-hoc harness). */
const agentNodeSchema = z.strictObject({
	kind: z.literal("agent").default("agent"),
	...childFields,
	...commonFields,
	/** Checked by `checkOutputSchema` (runs/structured-output.ts) in `validate.ts`. */
	output_schema: jsonSchemaObject.optional(),
});

/** Items one fan-out runs when it sets no `max_items`. */
export const DEFAULT_MAX_ITEMS = 50;

/** A `fanout` node: one child per item of an array (docs/graphs.md §Fan-out). */
const fanoutNodeSchema = z.strictObject({
	kind: z.literal("fanout"),
	...commonFields,
	/** A ValueRef to an array (`${nodes.<key>.output.<path>}` or `${inputs.<path>}`). */
	over: requiredString(),
	max_items: positiveInt("items").default(DEFAULT_MAX_ITEMS),
	concurrency: positiveInt("children").optional(),
	node: agentTemplateSchema,
	on_item_failure: z.enum(["fail", "continue"]).default("fail"),
});

/** A `feedback` node: worker and evaluator rounds until a pass or the bound (docs/graphs.md §Feedback loops). */
const feedbackNodeSchema = z.strictObject({
	kind: z.literal("feedback"),
	...commonFields,
	worker: agentTemplateSchema,
	evaluator: agentTemplateSchema,
	max_iterations: z
		.int({
			error: (issue) =>
				issue.input === undefined
					? "is required (a positive integer, at most the settings cap)"
					: notAnInteger(issue.input, "rounds"),
		})
		.min(1, "must be at least 1 (rounds)"),
	on_exhausted: z.enum(["fail", "accept_last"]).default("fail"),
});

/** A `graph` node: a saved graph run inside this one (docs/graphs.md §Subgraphs). */
const graphNodeSchema = z.strictObject({
	kind: z.literal("graph"),
	...commonFields,
	graph: requiredString(),
	/** Input name → a template string (filled in like a task) or a JSON value. */
	inputs: z.record(z.string(), z.unknown()).optional(),
});

/** A `command` gate: one process, argv without a shell (docs/graphs.md §Command gates). */
const commandNodeSchema = z.strictObject({
	kind: z.literal("command"),
	...commonFields,
	run: z
		.array(requiredString(), { error: (issue) => `expected an argv list of strings, got ${typeName(issue.input)}` })
		.min(1, 'give the program and its arguments, e.g. ["npm", "test"]'),
	cwd: z.string().optional(),
	timeout_ms: positiveInt("ms").optional(),
});

/** A `human` gate: a question the user answers in Pi's UI (docs/graphs.md §Human gates). */
const humanNodeSchema = z.strictObject({
	kind: z.literal("human"),
	...commonFields,
	question: requiredString(),
	choices: z.array(requiredString()).min(1, "give at least one choice").optional(),
	output_schema: jsonSchemaObject.optional(),
	on_headless: z.enum(["fail", "park"]).default("fail"),
});

/** Every node kind, for messages. */
export const NODE_KINDS = ["agent", "fanout", "feedback", "graph", "command", "human"] as const;

/** Each node kind's schema: its keys are what an unknown key of such a node is matched against. */
export const NODE_KIND_SCHEMAS = {
	agent: agentNodeSchema,
	fanout: fanoutNodeSchema,
	feedback: feedbackNodeSchema,
	graph: graphNodeSchema,
	command: commandNodeSchema,
	human: humanNodeSchema,
};

const nodeSchema = z.discriminatedUnion(
	"kind",
	[agentNodeSchema, fanoutNodeSchema, feedbackNodeSchema, graphNodeSchema, commandNodeSchema, humanNodeSchema],
	{
		error: (issue) =>
			issue.code === "invalid_union"
				? `unknown node kind ${JSON.stringify((issue.input as { kind?: unknown } | undefined)?.kind)}; known: ${NODE_KINDS.join(", ")}`
				: undefined,
	},
);

const limitsSchema = z.strictObject({
	concurrency: positiveInt("nodes").optional(),
	max_nodes_started: positiveInt("nodes").optional(),
	max_usd: z
		.number({
			error: (issue) =>
				typeof issue.input === "number"
					? `expected a finite number (USD), got ${issue.input}`
					: `expected a number (USD), got ${describeValue(issue.input)}`,
		})
		.positive("must be more than 0 (USD)")
		.optional(),
	max_tokens: positiveInt("tokens").optional(),
	timeout_ms: positiveInt("ms").optional(),
});

export const graphSchema = z.strictObject({
	name: z.string().optional(),
	description: z.string().optional(),
	inputs: jsonSchemaObject.optional(),
	nodes: z
		.record(
			z.string(),
			z.preprocess((raw) => withDefaultKind(raw), nodeSchema),
			{
				error: (issue) =>
					issue.input === undefined
						? "is required (an object of nodes by key)"
						: `expected an object of nodes by key, got ${typeName(issue.input)}`,
			},
		)
		.refine((nodes) => Object.keys(nodes).length > 0, "give at least one node")
		.refine((nodes) => Object.keys(nodes).length <= MAX_NODES, `at most ${MAX_NODES} nodes are allowed`),
	outputs: z.record(z.string(), z.string({ error: "expected a template string" })).optional(),
	limits: limitsSchema.optional(),
	fail_fast: z.boolean().optional(),
});

export type GraphDefinition = Zod.infer<typeof graphSchema>;
export type GraphNode = GraphDefinition["nodes"][string];
export type AgentNode = Extract<GraphNode, { kind: "agent" }>;
export type FanoutNode = Extract<GraphNode, { kind: "fanout" }>;
export type FeedbackNode = Extract<GraphNode, { kind: "feedback" }>;
export type SubgraphNode = Extract<GraphNode, { kind: "graph" }>;
export type CommandNode = Extract<GraphNode, { kind: "command" }>;
export type HumanNode = Extract<GraphNode, { kind: "human" }>;
/** The child fields and `output_schema` of one child run: an agent node, a fan-out's item, a feedback role. */
export type AgentTemplate = Zod.infer<typeof agentTemplateSchema>;
export type NodeKind = GraphNode["kind"];
export type GraphLimits = NonNullable<GraphDefinition["limits"]>;

/** A node without `kind` is an agent node. */
function withDefaultKind(raw: unknown): unknown {
	if (raw && typeof raw === "object" && !Array.isArray(raw) && !("kind" in raw)) return { kind: "agent", ...raw };
	return raw;
}

/** `node "scan"` — how problems name a node. */
export function nodeLabel(key: string): string {
	return `node ${JSON.stringify(key)}`;
}

/**
 * Where a path inside a graph definition is, as its problems name it: `node "a": when` inside a node (its
 * field, however deep the path goes), `nodes` for the map itself, `inputs` outside the nodes.
 */
export function graphPlace(path: ValuePath): string {
	if (path[0] !== "nodes" || path.length < 2) return fieldPath(path, 1);
	const field = fieldPath(path.slice(2), 1);
	return field ? `${nodeLabel(String(path[1]))}: ${field}` : nodeLabel(String(path[1]));
}
