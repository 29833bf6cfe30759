/**
 * Subgraphs at validation (docs/graphs.md §Subgraphs): a `graph` node's saved graph is compiled on its own
 * (every problem labelled `node "<key>": graph "<name>": …`), refused when its name is already on the
 * chain of enclosing graphs (a cycle, the chain named) or the chain is deeper than the settings cap, then
 * flattened into the run: its nodes become `<key>/<inner key>` (depending on the graph node's own
 * `depends_on`, gated by its `when`), and the graph node itself becomes their exit (`subgraph-exit.ts`).
 */
import type { Problems } from "../core/problems.ts";
import type { CoordinatorCaps } from "./compile-node.ts";
import type { CompiledGraph, CompiledNode, SubgraphFrame } from "./compiled.ts";
import type { Condition } from "./conditions.ts";
import { type GraphDefinition, nodeLabel, type SubgraphNode } from "./definition.ts";
import type { OutputShape } from "./ref-rules.ts";
import { schemaAt } from "./schema-paths.ts";
import type { TemplatePart, ValueRef } from "./value-refs.ts";

/** The saved graphs a run's graph nodes name, by name, as loaded (`loadSubgraphs`). */
export type SubgraphSources = ReadonlyMap<string, { definition: GraphDefinition; file: string }>;

/** What compiling one saved graph inside another needs. */
export interface SubgraphContext {
	caps: CoordinatorCaps;
	subgraphs?: SubgraphSources;
	/** Saved graphs that could not be read, their problems listed already: not reported again as not loaded. */
	unloadable?: ReadonlySet<string>;
	/** The names of the enclosing graphs, outermost first. */
	chain: string[];
	compile(definition: GraphDefinition, problems: Problems, chain: string[]): CompiledGraph | undefined;
}

/** The compiled saved graph of each graph node of `definition`, by node key; problems for every refusal. */
export function compileSubgraphs(
	definition: GraphDefinition,
	context: SubgraphContext,
	problems: Problems,
): Map<string, CompiledGraph> {
	const compiled = new Map<string, CompiledGraph>();
	for (const [key, node] of Object.entries(definition.nodes)) {
		if (node.kind !== "graph") continue;
		const field = problems.at(nodeLabel(key)).at("graph");
		const chain = [...context.chain, node.graph];
		if (context.chain.includes(node.graph)) {
			field.add(`cycle ${chain.join(" → ")}: a saved graph cannot contain itself`);
			continue;
		}
		if (chain.length - 1 > context.caps.maxNesting) {
			field.add(`nesting ${chain.join(" → ")} is deeper than ${context.caps.maxNesting} (settings graphs.max_nesting)`);
			continue;
		}
		const source = context.subgraphs?.get(node.graph);
		if (!source) {
			if (!context.unloadable?.has(node.graph)) field.add(`saved graph "${node.graph}" is not loaded`);
			continue;
		}
		checkInputNames(node, source.definition, problems.at(nodeLabel(key)));
		const sub = context.compile(source.definition, problems.at(`${nodeLabel(key)}: graph "${node.graph}"`), chain);
		if (sub) compiled.set(key, sub);
	}
	return compiled;
}

/** A graph node gives only inputs its saved graph declares, and every one it requires. */
function checkInputNames(node: SubgraphNode, definition: GraphDefinition, problems: Problems): void {
	const schema = definition.inputs as { properties?: Record<string, unknown>; required?: unknown } | undefined;
	const given = Object.keys(node.inputs ?? {});
	const declared = schema?.properties ? Object.keys(schema.properties) : [];
	for (const name of given) {
		if (!declared.includes(name))
			problems.at(`inputs.${name}`).add(`graph "${node.graph}" declares no input "${name}"`);
	}
	const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
	for (const name of required.filter((name) => !given.includes(name))) {
		problems.at("inputs").add(`graph "${node.graph}" requires input "${name}"`);
	}
}

/** What a graph node's output declares: its saved graph's outputs, each as the schema it reads (else a string). */
export function subgraphShape(sub: CompiledGraph): OutputShape {
	const properties: Record<string, unknown> = {};
	for (const { name, parts } of sub.outputs) {
		const ref = parts.length === 1 && typeof parts[0] !== "string" ? parts[0] : undefined;
		let schema: unknown = { type: "string" };
		if (ref?.source === "inputs") schema = schemaAt(sub.definition.inputs, ref.path) ?? {};
		else if (ref?.source === "node") {
			const shape = sub.shapes.get(ref.node);
			schema = (shape && "schema" in shape ? schemaAt(shape.schema, ref.path) : undefined) ?? {};
		}
		properties[name] = schema;
	}
	return { schema: { type: "object", properties } };
}

/** Renames a compiled subgraph's keys and frames into the enclosing graph, under graph node `key`. */
class Prefix {
	readonly key: string;
	constructor(key: string) {
		this.key = key;
	}
	node = (inner: string) => `${this.key}/${inner}`;
	frame = (inner: string | undefined) => (inner === undefined ? this.key : `${this.key}/${inner}`);
	parts = (parts: readonly TemplatePart[]): TemplatePart[] => parts.map((part) => this.ref(part));
	ref<T extends TemplatePart>(part: T): T {
		if (typeof part === "string" || (part as ValueRef).source !== "node") return part;
		return {
			...(part as Extract<ValueRef, { source: "node" }>),
			node: this.node((part as { node: string }).node),
		} as T;
	}
	condition = (condition: Condition): Condition => {
		if (condition.op === "all" || condition.op === "any")
			return { ...condition, items: condition.items.map(this.condition) };
		if (condition.op === "not") return { ...condition, item: this.condition(condition.item) };
		const test = condition as Extract<Condition, { ref: ValueRef }>;
		return { ...test, ref: this.ref(test.ref) };
	};
}

/**
 * Graph node `outer` and its compiled saved graph as the nodes of the enclosing run: the inner nodes, then
 * the exit (the graph node itself), with the frames their `${inputs…}` read. Ancestors are left for the
 * caller to compute over the whole run.
 */
export function flattenSubgraph(
	outer: CompiledNode,
	sub: CompiledGraph,
): { nodes: CompiledNode[]; frames: Record<string, SubgraphFrame> } {
	const p = new Prefix(outer.key);
	const gate = outer.when ? [{ when: outer.when, frame: outer.frame }] : [];
	const outerDeps = outer.dependsOn;
	const inner = sub.nodes.map(
		(n): CompiledNode => ({
			key: p.node(n.key),
			node: n.node,
			templates: Object.fromEntries(Object.entries(n.templates).map(([field, parts]) => [field, p.parts(parts)])),
			when: n.when && p.condition(n.when),
			dependsOn: [...n.dependsOn.map(p.node), ...(n.dependsOn.length === 0 ? outerDeps : [])],
			ancestors: new Set(),
			frame: p.frame(n.frame),
			gates: [...(n.gates ?? []).map((g) => ({ when: p.condition(g.when), frame: p.frame(g.frame) })), ...gate],
			exit: n.exit && {
				requires: [...n.exit.requires.map(p.node), ...(n.exit.requires.length === 0 ? outerDeps : [])],
				inner: n.exit.inner.map(p.node),
				outputs: n.exit.outputs.map(({ name, parts }) => ({ name, parts: p.parts(parts) })),
			},
		}),
	);
	const innerKeys = inner.map((n) => n.key);
	const exit: CompiledNode = {
		...outer,
		when: undefined,
		dependsOn: [...outerDeps, ...innerKeys],
		frame: outer.key,
		gates: gate,
		exit: {
			requires: outerDeps,
			inner: innerKeys,
			outputs: sub.outputs.map((o) => ({ ...o, parts: p.parts(o.parts) })),
		},
	};
	return { nodes: [...inner, exit], frames: { ...prefixFrames(p, sub), [outer.key]: outerFrame(outer, sub) } };
}

function prefixFrames(p: Prefix, sub: CompiledGraph): Record<string, SubgraphFrame> {
	return Object.fromEntries(
		Object.entries(sub.frames).map(([name, frame]) => [
			p.frame(name),
			{
				...frame,
				parent: p.frame(frame.parent),
				inputs: Object.fromEntries(
					Object.entries(frame.inputs).map(([input, given]) => [
						input,
						"parts" in given ? { parts: p.parts(given.parts) } : given,
					]),
				),
			},
		]),
	);
}

/** The frame of graph node `outer`: its `inputs` (templates compiled with the node), read in its own frame. */
function outerFrame(outer: CompiledNode, sub: CompiledGraph): SubgraphFrame {
	const node = outer.node as SubgraphNode;
	const inputs: SubgraphFrame["inputs"] = {};
	for (const [name, value] of Object.entries(node.inputs ?? {})) {
		inputs[name] = typeof value === "string" ? { parts: outer.templates[`inputs.${name}`] ?? [] } : { value };
	}
	return { graph: node.graph, parent: outer.frame, inputs, schema: sub.definition.inputs };
}

/** Every node's (transitive) dependencies, over a run in dependency order. */
export function computeAncestors(nodes: CompiledNode[]): void {
	const byKey = new Map<string, Set<string>>();
	for (const node of nodes) {
		const all = new Set<string>();
		for (const dep of node.dependsOn) {
			all.add(dep);
			for (const above of byKey.get(dep) ?? []) all.add(above);
		}
		node.ancestors = all;
		byKey.set(node.key, all);
	}
}
