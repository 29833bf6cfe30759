/**
 * Each node kind's own fields, checked (docs/graphs.md "Node kinds"): its templates cut into parts with
 * every ValueRef checked where it is read (`ref-rules.ts`), and the rules of the kind — a fan-out's `over`
 * names an array and its `concurrency` fits the graph's; a feedback loop's `max_iterations` is within the
 * settings cap and its evaluator's `output_schema` declares `decision` (`"pass" | "revise"`) and `feedback`
 * (string); a human gate gives `choices` or an `output_schema`, not both.
 */
import type { Problems } from "../core/problems.ts";
import { checkOutputSchema } from "../runs/structured-output.ts";
import type { GraphNode } from "./definition.ts";
import { checkRef, type RefReader } from "./ref-rules.ts";
import { isArraySchema, schemaAt } from "./schema-paths.ts";
import { parseTemplate, refsOf, type TemplatePart } from "./value-refs.ts";

/** The caps settings put on coordinators (settings `graphs`, docs/settings.md §Graph runs). */
export interface CoordinatorCaps {
	/** Largest `max_iterations` of a feedback loop. */
	maxIterations: number;
	/** Deepest nesting of saved graphs inside one another (the top graph is level 0). */
	maxNesting: number;
}

export const DEFAULT_CAPS: CoordinatorCaps = { maxIterations: 10, maxNesting: 3 };

/** A node's templates by field: `task`, `over`, `node.task`, `worker.task`, `evaluator.task`, `run[0]`, `question`, `inputs.<name>`. */
export type NodeTemplates = Record<string, TemplatePart[]>;

/** What a node's checks read: the graph, every node's output shape, the reader, the caps. */
export interface NodeCheck extends Omit<RefReader, "locals" | "reader"> {
	reader: { key: string; ancestors: ReadonlySet<string> };
	caps: CoordinatorCaps;
}

/** Cuts `template` into parts and checks each reference; problems go to `field`. */
export function compileTemplate(template: string, at: RefReader, field: Pick<Problems, "add">): TemplatePart[] {
	const { parts, errors } = parseTemplate(template);
	for (const error of errors) field.add(error);
	for (const ref of refsOf(parts)) checkRef(ref, at, field);
	return parts;
}

/** The node's templates, every rule of its kind checked into `problems` (already labelled with the node). */
export function compileNodeTemplates(node: GraphNode, check: NodeCheck, problems: Problems): NodeTemplates {
	const field = (name: string, template: string, locals?: RefReader["locals"]) =>
		compileTemplate(template, { ...check, locals }, problems.at(name));
	switch (node.kind) {
		case "agent":
			return { task: field("task", node.task) };
		case "fanout":
			return compileFanout(node, check, problems, field);
		case "feedback": {
			checkFeedback(node, check, problems);
			return {
				"worker.task": field("worker.task", node.worker.task, { feedback: {} }),
				"evaluator.task": field("evaluator.task", node.evaluator.task, {
					worker: { schema: node.worker.output_schema },
				}),
			};
		}
		case "command": {
			const run = Object.fromEntries(node.run.map((arg, i) => [`run[${i}]`, field(`run[${i}]`, arg)]));
			// What runs is what the consent and the graph name: no input or node output chooses the program.
			if (run["run[0]"]?.some((part) => typeof part !== "string")) {
				problems.at("run[0]").add("the program is written out: a ValueRef may fill its arguments, not choose it");
			}
			return run;
		}
		case "human":
			if (node.choices && node.output_schema) problems.add("give choices or output_schema, not both");
			if (node.output_schema) checkOutputSchema(node.output_schema, problems.at("output_schema"));
			return { question: field("question", node.question) };
		case "graph":
			return Object.fromEntries(
				Object.entries(node.inputs ?? {}).flatMap(([name, value]) =>
					typeof value === "string" ? [[`inputs.${name}`, field(`inputs.${name}`, value)]] : [],
				),
			);
	}
}

type Field = (name: string, template: string, locals?: RefReader["locals"]) => TemplatePart[];

function compileFanout(
	node: Extract<GraphNode, { kind: "fanout" }>,
	check: NodeCheck,
	problems: Problems,
	field: Field,
): NodeTemplates {
	const over = field("over", node.over);
	const here = problems.at("over");
	const ref = over.length === 1 && typeof over[0] !== "string" ? over[0] : undefined;
	let itemSchema: unknown;
	if (!ref || (ref.source !== "inputs" && ref.source !== "node")) {
		// biome-ignore lint/suspicious/noTemplateCurlyInString: the graph's own placeholder syntax
		here.add("must be exactly one ValueRef to an array: ${inputs.<path>} or ${nodes.<key>.output.<path>}");
	} else {
		const inputs = check.inputsRefused ? undefined : check.definition.inputs;
		const base = ref.source === "inputs" ? inputs : shapeSchema(check, ref.node);
		const array = base === undefined ? undefined : schemaAt(base, ref.path);
		if (array !== undefined && !isArraySchema(array)) here.add(`${ref.text} does not name an array in its schema`);
		itemSchema = array === undefined ? undefined : schemaAt(array, [0]);
	}
	const limit = check.definition.limits?.concurrency;
	if (node.concurrency !== undefined && limit !== undefined && node.concurrency > limit) {
		problems.at("concurrency").add(`${node.concurrency} is above the graph's limits.concurrency ${limit}`);
	}
	return { over, "node.task": field("node.task", node.node.task, { item: { schema: itemSchema }, index: {} }) };
}

function shapeSchema(check: NodeCheck, key: string): unknown {
	const shape = check.shapes.get(key);
	return shape && "schema" in shape ? shape.schema : undefined;
}

const EVALUATOR_RULE =
	'must declare decision: { "enum": ["pass", "revise"] } and feedback: { "type": "string" }, both required';

function checkFeedback(node: Extract<GraphNode, { kind: "feedback" }>, check: NodeCheck, problems: Problems): void {
	if (node.max_iterations > check.caps.maxIterations) {
		problems
			.at("max_iterations")
			.add(`${node.max_iterations} is above the cap ${check.caps.maxIterations} (settings graphs.max_iterations)`);
	}
	const schema = node.evaluator.output_schema;
	const field = problems.at("evaluator.output_schema");
	if (!schema) {
		field.add(`is required: it ${EVALUATOR_RULE}`);
		return;
	}
	const decision = schemaAt(schema, ["decision"]) as { enum?: unknown } | undefined;
	const feedback = schemaAt(schema, ["feedback"]) as { type?: unknown } | undefined;
	const required = Array.isArray(schema.required) ? schema.required : [];
	const values = Array.isArray(decision?.enum) ? decision.enum : [];
	const decides = values.length === 2 && values.includes("pass") && values.includes("revise");
	const explains = feedback?.type === "string";
	if (!decides || !explains || !required.includes("decision") || !required.includes("feedback")) {
		field.add(EVALUATOR_RULE);
	}
}
