/**
 * Which ValueRefs a field may use (docs/graphs.md "Wiring"): the inputs at a path their schema declares;
 * the output of a (transitive) dependency whose kind declares an output shape, at a path that shape
 * declares (an agent's `output_schema`, a fan-out's array of item outputs, a feedback loop's worker output,
 * a subgraph's outputs, a command's `{ exit_code, stdout_tail, stderr_tail }`, a human answer); and a
 * coordinator's local values only inside that coordinator's own templates.
 */
import { didYouMean } from "../core/nearest-name.ts";
import type { GraphDefinition, GraphNode } from "./definition.ts";
import { declaresPath, formatPath } from "./schema-paths.ts";
import type { LocalSource, ValueRef } from "./value-refs.ts";

/** What a command gate's output declares. */
export const COMMAND_OUTPUT_SCHEMA = {
	type: "object",
	properties: { exit_code: { type: "integer" }, stdout_tail: { type: "string" }, stderr_tail: { type: "string" } },
	required: ["exit_code", "stdout_tail", "stderr_tail"],
};

/**
 * What a node's output declares: a schema, nothing (`none`: why a ValueRef cannot read it), or not known
 * (`unknown`: the node was refused for its shape, so what reads it is checked no further).
 */
export type OutputShape = { schema: unknown; named?: "output_schema" } | { none: string } | { unknown: true };

const PROSE = "wiring reads structured output only, never an answer's prose";

/** The output shape of a node of each kind but `graph` (whose shape comes from its saved graph's outputs). */
export function outputShapeOf(node: GraphNode): OutputShape {
	switch (node.kind) {
		case "agent":
			return node.output_schema
				? { schema: node.output_schema, named: "output_schema" }
				: { none: `has no output_schema; ${PROSE}` };
		case "fanout":
			return node.node.output_schema
				? { schema: { type: "array", items: node.node.output_schema } }
				: { none: `is a fanout whose node template has no output_schema; ${PROSE}` };
		case "feedback":
			return node.worker.output_schema
				? { schema: node.worker.output_schema }
				: { none: `is a feedback loop whose worker has no output_schema; ${PROSE}` };
		case "command":
			return { schema: COMMAND_OUTPUT_SCHEMA };
		case "human":
			if (node.output_schema) return { schema: node.output_schema };
			return { schema: node.choices ? { enum: node.choices } : { type: "string" } };
		case "graph":
			return { none: "is a graph node whose saved graph is not known" };
	}
}

/** Where a reference is read, and what it may read there. */
export interface RefReader {
	definition: GraphDefinition;
	/** The output shape of each node (graph nodes included), by key. */
	shapes: ReadonlyMap<string, OutputShape>;
	/** The reading node and its (transitive) dependencies; graph `outputs` have no reader and read any node. */
	reader?: { key: string; ancestors: ReadonlySet<string> };
	/** The local values this field may read, each with its schema (`undefined`: any path). */
	locals?: Partial<Record<LocalSource, { schema?: unknown }>>;
	/** What the locals are called in messages, e.g. `a fanout's node template`. */
	localsWhere?: string;
	/** The graph's inputs schema was refused (its own problem listed): what reads inputs is checked no further. */
	inputsRefused?: boolean;
}

/** Where each local value may be used, for the message when it is used elsewhere. */
const LOCAL_HOME: Record<LocalSource, string> = {
	item: "a fanout's node template",
	index: "a fanout's node template",
	feedback: "a feedback loop's worker task",
	worker: "a feedback loop's evaluator task",
};

/** Adds a problem to `problems` for each rule `ref` breaks where `at` reads it. */
export function checkRef(ref: ValueRef, at: RefReader, problems: { add(message: string): void }): void {
	if (ref.source === "inputs") {
		if (at.inputsRefused) return;
		if (!at.definition.inputs) problems.add(`${ref.text}: the graph declares no inputs schema`);
		else if (!declaresPath(at.definition.inputs, ref.path)) {
			problems.add(`${ref.text}: the inputs schema does not declare inputs${formatPath(ref.path)}`);
		}
		return;
	}
	if (ref.source !== "node") {
		checkLocal(ref, ref.source, at, problems);
		return;
	}
	const shape = at.shapes.get(ref.node);
	const reader = at.reader;
	if (!shape) problems.add(`${ref.text}: unknown node "${ref.node}"${didYouMean(ref.node, at.shapes.keys())}`);
	else if (reader && (ref.node === reader.key || !reader.ancestors.has(ref.node))) {
		problems.add(
			`${ref.text}: node "${ref.node}" is not a dependency of "${reader.key}"; add it to depends_on (directly or through another node)`,
		);
	} else if ("unknown" in shape) return;
	else if ("none" in shape) problems.add(`${ref.text}: node "${ref.node}" ${shape.none}`);
	else if (!declaresPath(shape.schema, ref.path)) {
		const what = shape.named ?? "output";
		problems.add(`${ref.text}: the ${what} of node "${ref.node}" does not declare output${formatPath(ref.path)}`);
	}
}

function checkLocal(ref: ValueRef, source: LocalSource, at: RefReader, problems: { add(message: string): void }): void {
	const local = at.locals?.[source];
	if (!local) {
		problems.add(`${ref.text}: \${${source}…} is only available in ${LOCAL_HOME[source]}`);
		return;
	}
	if ((source === "index" || source === "feedback") && ref.path.length > 0) {
		problems.add(`${ref.text}: \${${source}} has no path`);
	} else if (local.schema !== undefined && !declaresPath(local.schema, ref.path)) {
		problems.add(`${ref.text}: the ${source} schema does not declare ${source}${formatPath(ref.path)}`);
	} else if (local.schema === undefined && source === "worker") {
		problems.add(`${ref.text}: the worker has no output_schema; ${PROSE}`);
	}
}
