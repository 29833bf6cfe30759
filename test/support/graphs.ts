/** A graph definition parsed and compiled for engine tests; throws with every problem when it is refused. */
import { Problems } from "../../src/core/problems.ts";
import { parseGraphDefinition } from "../../src/graph/parse-graph.ts";
import { type CompiledGraph, compileGraph } from "../../src/graph/validate.ts";

export function compiledGraph(
	nodes: Record<string, Record<string, unknown>>,
	extra: Record<string, unknown> = {},
): CompiledGraph {
	const problems = new Problems();
	const definition = parseGraphDefinition({ nodes, ...extra }, problems);
	const graph = definition && compileGraph(definition, {}, problems);
	if (!graph) throw new Error(problems.list.join("\n"));
	return graph;
}

/** An object schema whose every property is required and nothing else is allowed. */
export function objectSchema(properties: Record<string, unknown>): Record<string, unknown> {
	return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}
