/**
 * Everything about a graph that can be checked without the launch layer (docs/graphs.md "Validation"),
 * all at once into one `Problems` collector, each problem naming the node and the field: dangling or self
 * `depends_on`, cycles (named), malformed or unmapped `${…}`, ValueRefs to a non-dependency / a node
 * without `output_schema` / an undeclared path, conditions, `output_schema`s ajv rejects and inputs that
 * fail the graph's `inputs` schema. The result is the compiled graph the engine runs.
 */
import { checkJsonShape } from "../core/json-shape.ts";
import { didYouMean } from "../core/nearest-name.ts";
import type { Problems } from "../core/problems.ts";
import { checkJsonSchema, validateStructuredOutput } from "../runs/structured-output.ts";
import { type CoordinatorCaps, compileNodeTemplates, compileTemplate, DEFAULT_CAPS } from "./compile-node.ts";
import type { CompiledGraph, CompiledNode, SubgraphFrame } from "./compiled.ts";
import { type Condition, conditionRefs, parseCondition } from "./conditions.ts";
import { type GraphDefinition, type GraphNode, nodeLabel } from "./definition.ts";
import { checkRef, type OutputShape, outputShapeOf } from "./ref-rules.ts";
import {
	compileSubgraphs,
	computeAncestors,
	flattenSubgraph,
	type SubgraphSources,
	subgraphShape,
} from "./subgraphs.ts";

export type { CompiledGraph, CompiledNode, SubgraphFrame } from "./compiled.ts";

/** What compiling a graph may be told: the coordinators' caps (settings `graphs`) and its saved subgraphs. */
export interface CompileOptions {
	caps?: CoordinatorCaps;
	/** The saved graphs its graph nodes name (`loadSubgraphs`); a name not given is refused. */
	subgraphs?: SubgraphSources;
	/** The names of the graphs around this one, outermost first (default: this graph's name, or `inline`). */
	chain?: string[];
	/** A saved graph inside another: its inputs come at run time (checked then against its inputs schema). */
	inputsAtRunTime?: boolean;
	/**
	 * Nodes refused for their shape (`parseGraphPartly`), each with the `depends_on` it gave: the rest is checked
	 * as if they were there, their output not known, so no problem is reported for them twice or wrongly.
	 */
	refusedNodes?: ReadonlyMap<string, readonly string[]>;
	/** Saved graphs that could not be read (each one's problem listed already): a graph node running one is not checked further. */
	unloadable?: ReadonlySet<string>;
}

/**
 * @param inputs the graph's inputs as given (`{}` when none).
 * @returns the compiled graph, or `undefined` with every problem added to `problems`.
 */
export function compileGraph(
	definition: GraphDefinition,
	inputs: unknown,
	problems: Problems,
	options: CompileOptions = {},
): CompiledGraph | undefined {
	const before = problems.size;
	const caps = options.caps ?? DEFAULT_CAPS;
	const refused = options.refusedNodes ?? new Map<string, readonly string[]>();
	const shapes = new Map<string, OutputShape>(
		Object.entries(definition.nodes).map(([key, node]) => [key, outputShapeOf(node)]),
	);
	for (const key of refused.keys()) shapes.set(key, { unknown: true });
	for (const [key, node] of Object.entries(definition.nodes)) {
		if (node.kind === "graph" && options.unloadable?.has(node.graph)) shapes.set(key, { unknown: true });
	}
	const inputsRefused = options.inputsAtRunTime
		? definition.inputs !== undefined && !checkJsonSchema(definition.inputs, problems.at("graph.inputs"))
		: !checkInputs(definition, inputs, problems);
	const subs = compileSubgraphs(
		definition,
		{
			caps,
			subgraphs: options.subgraphs,
			unloadable: options.unloadable,
			chain: options.chain ?? [definition.name ?? "inline"],
			compile: (sub, local, chain) => compileGraph(sub, undefined, local, { ...options, chain, inputsAtRunTime: true }),
		},
		problems,
	);
	for (const [key, sub] of subs) shapes.set(key, subgraphShape(sub));
	const keys = Object.keys(definition.nodes);
	const deps = new Map(keys.map((key) => [key, checkDependsOn(key, definition, refused, problems)]));
	for (const [key, given] of refused)
		deps.set(
			key,
			[...new Set(given)].filter((dep) => dep !== key && (deps.has(dep) || refused.has(dep))),
		);
	const order = dependencyOrder([...deps.keys()], deps, problems);
	// Of every node, also in a graph with a cycle: a ValueRef is then checked against what its node depends on.
	const ancestors = new Map([...deps.keys()].map((key) => [key, ancestorsOf(key, deps)]));
	const nodes = (order ?? keys).flatMap((key) => {
		if (refused.has(key)) return [];
		const reader = { key, ancestors: ancestors.get(key) ?? new Set<string>() };
		return [
			compileNode(
				definition.nodes[key],
				deps.get(key) ?? [],
				{ definition, shapes, reader, caps, inputsRefused },
				problems,
			),
		];
	});
	const outputs = Object.entries(definition.outputs ?? {}).map(([name, template]) => ({
		name,
		parts: compileTemplate(template, { definition, shapes, inputsRefused }, problems.at(`outputs.${name}`)),
	}));
	if (problems.size > before || !order || refused.size > 0) return undefined;
	const frames: Record<string, SubgraphFrame> = {};
	const flat = nodes.flatMap((node) => {
		const sub = subs.get(node.key);
		if (!sub) return [node];
		const flattened = flattenSubgraph(node, sub);
		Object.assign(frames, flattened.frames);
		return flattened.nodes;
	});
	computeAncestors(flat);
	return { definition, inputs, nodes: flat, outputs, frames, shapes };
}

/** @returns false when the graph's inputs schema is not a valid JSON Schema (its problem added). */
function checkInputs(definition: GraphDefinition, inputs: unknown, problems: Problems): boolean {
	const field = problems.at("inputs");
	const schemaValid = !definition.inputs || checkJsonSchema(definition.inputs, problems.at("graph.inputs"));
	if (!checkJsonShape(inputs, field) || !schemaValid) return schemaValid;
	if (!definition.inputs) {
		if (inputs !== undefined && !isEmptyObject(inputs)) field.add("the graph declares no inputs schema; give none");
		return true;
	}
	const check = validateStructuredOutput(definition.inputs, inputs ?? {});
	if (!check.ok) field.add(`do not match the graph's inputs schema: ${check.errors.replaceAll("result", "inputs")}`);
	return true;
}

function isEmptyObject(value: unknown): boolean {
	return value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** The node's `depends_on`, without dangling, self and repeated entries (each reported); a refused node is there. */
function checkDependsOn(
	key: string,
	definition: GraphDefinition,
	refused: ReadonlyMap<string, unknown>,
	problems: Problems,
): string[] {
	const field = problems.at(nodeLabel(key)).at("depends_on");
	const kept: string[] = [];
	for (const dep of definition.nodes[key].depends_on ?? []) {
		if (dep === key) field.add("a node cannot depend on itself");
		else if (!Object.hasOwn(definition.nodes, dep) && !refused.has(dep)) {
			field.add(`unknown node "${dep}"${didYouMean(dep, [...Object.keys(definition.nodes), ...refused.keys()])}`);
		} else if (kept.includes(dep)) field.add(`"${dep}" is listed twice`);
		else kept.push(dep);
	}
	return kept;
}

/**
 * Kahn's order over the definition order; when nodes remain, each cycle among them is named once
 * (`node "a": depends_on: cycle a → b → a`).
 * @returns the order, or `undefined` when there is a cycle.
 */
function dependencyOrder(keys: string[], deps: Map<string, string[]>, problems: Problems): string[] | undefined {
	const order: string[] = [];
	const placed = new Set<string>();
	let progress = true;
	while (progress) {
		progress = false;
		for (const key of keys) {
			if (placed.has(key) || !(deps.get(key) ?? []).every((dep) => placed.has(dep))) continue;
			placed.add(key);
			order.push(key);
			progress = true;
		}
	}
	if (order.length === keys.length) return order;
	const reported = new Set<string>();
	for (const start of keys.filter((key) => !placed.has(key))) {
		const cycle = findCycle(start, deps);
		if (!cycle) continue;
		const id = [...cycle.slice(0, -1)].sort().join("\0");
		if (reported.has(id)) continue;
		reported.add(id);
		problems.at(nodeLabel(cycle[0])).add(`depends_on: cycle ${cycle.join(" → ")}`);
	}
	return undefined;
}

/** Every node `key` depends on, directly or through others (a cycle through it ends the walk). */
function ancestorsOf(key: string, deps: ReadonlyMap<string, readonly string[]>): Set<string> {
	const found = new Set<string>();
	const walk = [...(deps.get(key) ?? [])];
	for (let dep = walk.pop(); dep !== undefined; dep = walk.pop()) {
		if (found.has(dep)) continue;
		found.add(dep);
		walk.push(...(deps.get(dep) ?? []));
	}
	return found;
}

/** A cycle through `start` (`[start, …, start]`), if one exists. */
function findCycle(start: string, deps: Map<string, string[]>): string[] | undefined {
	const path: string[] = [];
	const seen = new Set<string>();
	const visit = (key: string): string[] | undefined => {
		if (key === start && path.length > 0) return [...path, start];
		if (seen.has(key)) return undefined;
		seen.add(key);
		path.push(key);
		for (const dep of deps.get(key) ?? []) {
			const found = visit(dep);
			if (found) return found;
		}
		path.pop();
		return undefined;
	};
	return visit(start);
}

function compileNode(
	node: GraphNode,
	dependsOn: string[],
	check: Parameters<typeof compileNodeTemplates>[1],
	problems: Problems,
): CompiledNode {
	const { key, ancestors } = check.reader;
	const local = problems.at(nodeLabel(key));
	const templates = compileNodeTemplates(node, check, local);
	let when: Condition | undefined;
	if (node.when !== undefined) {
		when = parseCondition(node.when, local.at("when"));
		for (const ref of when ? conditionRefs(when) : []) checkRef(ref, check, local.at("when"));
	}
	return { key, node, templates, when, dependsOn, ancestors: new Set(ancestors) };
}
