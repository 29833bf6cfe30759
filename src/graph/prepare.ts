/**
 * From the `agent_graph` arguments to a graph that may run (docs/graphs.md "Validation"): the definition
 * inline or saved, its shape, its wiring, its inputs, and every node pre-flighted through the launch
 * layer — all problems at once, nothing started.
 */

import { resolveAdHocCwd } from "../config/paths.ts";
import type { Problems } from "../core/problems.ts";
import type { CoordinatorCaps } from "./compile-node.ts";
import { type GraphNode, nodeLabel } from "./definition.ts";
import { checkGraphTrust } from "./graph-trust.ts";
import { type GraphOrigin, type LoadedSubgraph, readSavedGraph, readSubgraphs } from "./loader.ts";
import { parseGraphPartly } from "./parse-graph.ts";
import { childrenToResolve, type NodeLaunchEnv, resolveNodes } from "./preflight.ts";
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
	/**
	 * Where the inline `graph` came from (default: given inline): a restore gives a stored run's, so a project
	 * graph passes the trust gate again (the trust of its project may be gone, a confirmation always is).
	 */
	origin?: GraphOrigin;
}

export interface PreparedGraph {
	/** The graph's `name`, the saved graph's name, or `inline`. */
	name: string;
	compiled: CompiledGraph;
	/** Where a saved graph came from. */
	file?: string;
	/** Where the graph came from (kept with the run: its restore passes the trust gate again). */
	origin: GraphOrigin;
	/** The saved graphs its graph nodes run, by name (kept with the run, so its controls can compile it again). */
	subgraphs: ReadonlyMap<string, LoadedSubgraph>;
}

/**
 * Whether the children of node `key` may approve tools with their `allowed_tools` (claude `--allowedTools`: a
 * matching call runs without asking): not in a project graph, which grants nothing itself, as an agent file
 * cannot (SECURITY.md "Trust"); there the list only narrows what is offered. A node of an unknown graph does not.
 */
export function approvesTools(prepared: PreparedGraph, key: string): boolean {
	const frame = prepared.compiled.nodes.find((node) => node.key === key)?.frame;
	const graph = frame === undefined ? undefined : prepared.compiled.frames[frame]?.graph;
	const source = graph === undefined ? prepared.origin.source : prepared.subgraphs.get(graph)?.source;
	return source === "inline" || source === "user";
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
	let origin: GraphOrigin = request.origin ?? { source: "inline" };
	if (request.name !== undefined) {
		const saved = readSavedGraph(request.name, env.scope, env.context(), problems);
		if (!saved) return undefined;
		raw = saved.raw;
		origin = { source: saved.source, name: saved.name, file: saved.file, digest: saved.digest };
	}
	const file = origin.source === "inline" ? undefined : origin.file;
	const local = file ? problems.at(file) : problems;
	// A graph with some nodes refused for their shape is still checked without them, for its other problems.
	const parsed = parseGraphPartly(raw, local);
	if (!parsed) return undefined;
	const { definition, refusedNodes, complete } = parsed;
	const { loaded: subgraphs, failed: unloadable } = readSubgraphs(definition, env.scope, env.context(), local);
	// A saved project graph, and every project graph a run loads as a subgraph, grants nothing itself.
	const projectGraphs = [
		...(origin.source === "project" ? [{ nodes: definition.nodes, field: local }] : []),
		...[...subgraphs.values()]
			.filter((sub) => sub.source === "project")
			.map((sub) => ({ nodes: sub.definition.nodes, field: problems.at(sub.file) })),
	];
	const granted = projectGraphs.map(({ nodes, field }) => refuseSelfGranted(nodes, field)).every(Boolean);
	// No one is asked to trust a graph that is refused anyway. Its other problems are listed below only when it
	// reaches no project graph: what an unconsented project file names (roster files, paths) is not read for it.
	const ask = complete && granted && problems.subjectSize === 0;
	const project = projectGraphs.length > 0;
	if (!ask && project) return undefined;
	if (ask && !(await checkGraphTrust({ origin, definition }, subgraphs, env.context(), problems))) return undefined;
	const compiled = compileGraph(definition, request.inputs, local, {
		caps: request.caps,
		subgraphs,
		chain: [request.name ?? definition.name ?? "inline"],
		refusedNodes,
		unloadable,
	});
	// The templates as written stand in for the tasks: pre-flight checks who runs, not what they are told.
	const all = compiled ? compiled.nodes.map(({ key, node }) => [key, node] as const) : Object.entries(definition.nodes);
	const nodes = all
		.filter(([key]) => request.preflight?.(key) ?? true)
		.flatMap(([key, node]) => childrenToResolve(key, node));
	const specs = await resolveNodes(nodes, env, local);
	// A command gate's cwd, resolved as its dispatch does (command-gate.ts): a missing one refuses the graph now.
	for (const [key, node] of all) {
		if (node.kind !== "command" || node.cwd === undefined || !(request.preflight?.(key) ?? true)) continue;
		resolveAdHocCwd(env.context().cwd, node.cwd, local.at(nodeLabel(key)));
	}
	if (problems.subjectSize > 0 || !complete || !compiled || !specs || !granted) return undefined;
	return { name: request.name ?? definition.name ?? "inline", compiled, file, origin, subgraphs };
}

/**
 * What a project graph cannot give its children (SECURITY.md "Graph runs": a file cannot grant itself more than
 * the call allows, and the consent names what runs): `auto_approve` (it would bypass the harness's approvals or
 * sandbox), and code the child loads with your permissions that the consent cannot show or pin: `resources`
 * `extensions` or `plugins` (a plugin's hooks run commands), and a `roster_file` (its entries can carry both).
 * `agent_graph` has no call-level field for them, so only an inline graph (the model's own call) or a user graph
 * (`<agent dir>/graphs/`) may set them.
 * @returns false with one problem per such field (`node "x": auto_approve: …`, `node "x": node: roster_file: …`).
 */
function refuseSelfGranted(nodes: Record<string, GraphNode>, problems: Problems): boolean {
	const allow = "give the graph inline or copy it to your user graphs directory to allow it";
	const code = "load code from the project with your permissions, which the trust prompt neither shows nor pins";
	let granted = true;
	// Every child a node runs: an agent node's own, a fan-out's item template, a feedback node's roles.
	for (const child of Object.entries(nodes).flatMap(([key, node]) => childrenToResolve(key, node))) {
		const refuse = (field: string, what: string) => {
			granted = false;
			problems.at(child.label ?? nodeLabel(child.key)).add(`${field}: a project graph cannot ${what}; ${allow}`);
		};
		const { auto_approve, resources, roster_file } = child.node;
		if (auto_approve === true)
			refuse("auto_approve", "grant auto_approve (it would bypass the harness's approvals or sandbox)");
		const chosen = resources !== null && typeof resources === "object" ? (resources as Record<string, unknown>) : {};
		for (const kind of ["extensions", "plugins"]) {
			const list = chosen[kind];
			if (Array.isArray(list) && list.length > 0) refuse(`resources.${kind}`, `choose ${kind} (they would ${code})`);
		}
		if (typeof roster_file === "string") refuse("roster_file", `choose a roster file (its entries can ${code})`);
	}
	return granted;
}
