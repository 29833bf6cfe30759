/**
 * From the `agent_graph` arguments to a graph that may run (docs/graphs.md "Validation"): the definition
 * inline or saved, its shape, its wiring, its inputs, and every node pre-flighted through the launch
 * layer — all problems at once, nothing started.
 */
import type { Problems } from "../core/problems.ts";
import { type AgentNode, nodeLabel, parseGraphDefinition } from "./definition.ts";
import { loadSavedGraph } from "./loader.ts";
import { type NodeLaunchEnv, resolveNodes } from "./preflight.ts";
import { type CompiledGraph, compileGraph } from "./validate.ts";

export interface GraphRequest {
	/** An inline definition. */
	graph?: unknown;
	/** A saved graph's name. */
	name?: string;
	inputs?: unknown;
	/** Which nodes to pre-flight (default all); a restore pre-flights the nodes that still have to run. */
	preflight?(key: string): boolean;
}

export interface PreparedGraph {
	/** The graph's `name`, the saved graph's name, or `inline`. */
	name: string;
	compiled: CompiledGraph;
	/** Where a saved graph came from. */
	file?: string;
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
	let fromProject = false;
	if (request.name !== undefined) {
		const saved = await loadSavedGraph(request.name, env.scope, env.context(), problems);
		if (!saved) return undefined;
		raw = saved.raw;
		file = saved.file;
		fromProject = saved.source === "project";
	}
	const local = file ? problems.at(file) : problems;
	const definition = parseGraphDefinition(raw, local);
	if (!definition) return undefined;
	const granted = fromProject ? refuseSelfGrantedApproval(definition.nodes, local) : true;
	const compiled = compileGraph(definition, request.inputs, local);
	// The templates as written stand in for the tasks: pre-flight checks who runs, not what they are told.
	const nodes = Object.entries(definition.nodes)
		.filter(([key]) => request.preflight?.(key) ?? true)
		.map(([key, node]) => ({ key, node: node as AgentNode, task: node.task }));
	const specs = await resolveNodes(nodes, env, local);
	if (!compiled || !specs || !granted) return undefined;
	return { name: request.name ?? definition.name ?? "inline", compiled, file };
}

/**
 * A project graph cannot grant its nodes `auto_approve` (SECURITY.md "Trust": a file cannot grant itself
 * more than the call allows). `agent_graph` has no call-level `auto_approve`, so only an inline graph (the
 * model's own call) or a user graph (`<agent dir>/graphs/`) may set it.
 * @returns false with one problem per such node (`node "x": auto_approve: …`).
 */
function refuseSelfGrantedApproval(nodes: Record<string, { auto_approve?: boolean }>, problems: Problems): boolean {
	const granting = Object.keys(nodes).filter((key) => nodes[key].auto_approve === true);
	for (const key of granting) {
		problems
			.at(nodeLabel(key))
			.add(
				"auto_approve: a project graph cannot grant auto_approve (it would bypass the harness's approvals or sandbox); give the graph inline or copy it to your user graphs directory to allow it",
			);
	}
	return granting.length === 0;
}
