/**
 * From the `agent_graph` arguments to a graph that may run (docs/graphs.md "Validation"): the definition
 * inline or saved, its shape, its wiring, its inputs, and every node pre-flighted through the launch
 * layer — all problems at once, nothing started.
 */
import type { Problems } from "../core/problems.ts";
import type { CoordinatorCaps } from "./compile-node.ts";
import { parseGraphDefinition } from "./definition.ts";
import { loadSavedGraph, loadSubgraphs } from "./loader.ts";
import { childrenToResolve, type NodeLaunchEnv, resolveNodes } from "./preflight.ts";
import type { SubgraphSources } from "./subgraphs.ts";
import { type CompiledGraph, compileGraph } from "./validate.ts";

export interface GraphRequest {
	/** An inline definition. */
	graph?: unknown;
	/** A saved graph's name. */
	name?: string;
	inputs?: unknown;
	/** The coordinators' caps (settings `graphs`); default `DEFAULT_CAPS`. */
	caps?: CoordinatorCaps;
	/** Which nodes to pre-flight (default all); a restore pre-flights the nodes that still have to run. */
	preflight?(key: string): boolean;
}

export interface PreparedGraph {
	/** The graph's `name`, the saved graph's name, or `inline`. */
	name: string;
	compiled: CompiledGraph;
	/** Where a saved graph came from. */
	file?: string;
	/** The saved graphs its graph nodes run, by name (kept with the run, so its controls can compile it again). */
	subgraphs: SubgraphSources;
}

/**
 * @returns the graph, or `undefined` with every problem added to `problems` (a saved graph's problems are
 *   labelled with its file).
 */
export async function prepareGraph(
	request: GraphRequest,
	env: NodeLaunchEnv,
	problems: Problems,
): Promise<PreparedGraph | undefined> {
	if ((request.graph === undefined) === (request.name === undefined)) {
		problems.add("give exactly one of graph (an inline definition) or name (a saved graph)");
		return undefined;
	}
	let raw = request.graph;
	let file: string | undefined;
	if (request.name !== undefined) {
		const saved = await loadSavedGraph(request.name, env.scope, env.context(), problems);
		if (!saved) return undefined;
		raw = saved.raw;
		file = saved.file;
	}
	const local = file ? problems.at(file) : problems;
	const definition = parseGraphDefinition(raw, local);
	if (!definition) return undefined;
	const subgraphs = await loadSubgraphs(definition, env.scope, env.context(), local);
	const compiled = compileGraph(definition, request.inputs, local, {
		caps: request.caps,
		subgraphs,
		chain: [request.name ?? definition.name ?? "inline"],
	});
	// The templates as written stand in for the tasks: pre-flight checks who runs, not what they are told.
	const all = compiled ? compiled.nodes.map(({ key, node }) => [key, node] as const) : Object.entries(definition.nodes);
	const nodes = all
		.filter(([key]) => request.preflight?.(key) ?? true)
		.flatMap(([key, node]) => childrenToResolve(key, node));
	const specs = await resolveNodes(nodes, env, local);
	if (!compiled || !specs) return undefined;
	return { name: request.name ?? definition.name ?? "inline", compiled, file, subgraphs };
}
