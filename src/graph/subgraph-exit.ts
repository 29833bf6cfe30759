/**
 * A subgraph at run time (docs/graphs.md §Subgraphs). A `graph` node's saved graph is flattened into the
 * run at validation (`subgraphs.ts`): its nodes run as `<key>/<inner key>` in the same engine, so they count
 * in the graph's limits and budget, and the `graph` node itself settles last, as the subgraph's exit: its
 * output is the saved graph's `outputs`. Inside, `${inputs…}` reads the subgraph's frame: the `graph`
 * node's `inputs`, filled in from the enclosing frame and checked against the saved graph's inputs schema.
 */
import { validateStructuredOutput } from "../runs/structured-output.ts";
import type { CompiledGraph } from "./compiled.ts";
import type { NodeExecution, NodeOutcome } from "./execution.ts";
import { fillTemplate } from "./value-refs.ts";

/**
 * The inputs a frame reads, filled in from the completed nodes' `outputs`.
 * @returns the inputs, or why they cannot be given (a value missing, or not matching the inputs schema).
 */
export function frameInputs(
	graph: CompiledGraph,
	outputs: Readonly<Record<string, unknown>>,
	frame: string | undefined,
): { inputs: unknown } | { error: string } {
	if (frame === undefined) return { inputs: graph.inputs ?? {} };
	const spec = graph.frames[frame];
	const parent = frameInputs(graph, outputs, spec.parent);
	if ("error" in parent) return parent;
	const inputs: Record<string, unknown> = {};
	for (const [name, given] of Object.entries(spec.inputs)) {
		if ("value" in given) {
			inputs[name] = given.value;
			continue;
		}
		const filled = fillTemplate(given.parts, { inputs: parent.inputs, outputs });
		if ("missing" in filled) {
			return { error: `graph "${spec.graph}" inputs.${name}: no value for ${filled.missing.join(", ")}` };
		}
		inputs[name] = filled.raw;
	}
	if (spec.schema) {
		const check = validateStructuredOutput(spec.schema, inputs);
		if (!check.ok) {
			return {
				error: `graph "${spec.graph}" inputs do not match its inputs schema: ${check.errors.replaceAll("result", "inputs")}`,
			};
		}
	}
	return { inputs };
}

/** The `graph` node's own run: every inner node has settled; its output is the saved graph's outputs. */
export async function runSubgraphExit(execution: NodeExecution): Promise<NodeOutcome> {
	const exit = execution.compiled.exit;
	if (!exit) return { status: "failed", error: "a graph node without its subgraph (an engine bug)" };
	const output: Record<string, unknown> = {};
	const missing: string[] = [];
	for (const { name, parts } of exit.outputs) {
		const filled = fillTemplate(parts, execution.scope);
		if ("missing" in filled) missing.push(`outputs.${name}`);
		else output[name] = filled.raw;
	}
	return { status: "completed", output, note: missing.length > 0 ? `no value for ${missing.join(", ")}` : undefined };
}
