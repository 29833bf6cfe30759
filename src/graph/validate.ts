/**
 * Everything about a graph that can be checked without the launch layer (docs/graphs.md "Validation"),
 * all at once into one `Problems` collector, each problem naming the node and the field: dangling or self
 * `depends_on`, cycles (named), malformed or unmapped `${…}`, ValueRefs to a non-dependency / a node
 * without `output_schema` / an undeclared path, conditions, `output_schema`s ajv rejects and inputs that
 * fail the graph's `inputs` schema. The result is the compiled graph the engine runs.
 */
import type { Problems } from "../core/problems.ts";
import { checkJsonSchema, validateStructuredOutput } from "../runs/structured-output.ts";
import { type Condition, conditionRefs, parseCondition } from "./conditions.ts";
import { type GraphDefinition, type GraphNode, nodeLabel } from "./definition.ts";
import { declaresPath, formatPath } from "./schema-paths.ts";
import { parseTemplate, refsOf, type TemplatePart, type ValueRef } from "./value-refs.ts";

/** One node, checked: its task template cut into parts, its condition parsed, its dependencies known. */
export interface CompiledNode {
	key: string;
	node: GraphNode;
	task: TemplatePart[];
	when?: Condition;
	dependsOn: string[];
	/** Every node it depends on, directly or not. */
	ancestors: Set<string>;
}

export interface CompiledGraph {
	definition: GraphDefinition;
	inputs: unknown;
	/** In dependency order (a node after every node it depends on; definition order otherwise). */
	nodes: CompiledNode[];
	outputs: Array<{ name: string; parts: TemplatePart[] }>;
}

/**
 * @param inputs the graph's inputs as given (`{}` when none).
 * @returns the compiled graph, or `undefined` with every problem added to `problems`.
 */
export function compileGraph(
	definition: GraphDefinition,
	inputs: unknown,
	problems: Problems,
): CompiledGraph | undefined {
	const before = problems.size;
	checkInputs(definition, inputs, problems);
	const keys = Object.keys(definition.nodes);
	const deps = new Map(keys.map((key) => [key, checkDependsOn(key, definition, problems)]));
	const order = dependencyOrder(keys, deps, problems);
	const ancestors = new Map<string, Set<string>>();
	for (const key of order ?? []) {
		const all = new Set<string>();
		for (const dep of deps.get(key) ?? []) {
			all.add(dep);
			for (const above of ancestors.get(dep) ?? []) all.add(above);
		}
		ancestors.set(key, all);
	}
	const nodes = (order ?? keys).map((key) =>
		compileNode(key, definition, deps.get(key) ?? [], ancestors.get(key) ?? new Set(), problems),
	);
	const outputs = Object.entries(definition.outputs ?? {}).map(([name, template]) => {
		const field = problems.at(`outputs.${name}`);
		const parts = templateParts(template, field);
		for (const ref of refsOf(parts)) checkRef(ref, definition, undefined, field);
		return { name, parts };
	});
	if (problems.size > before || !order) return undefined;
	return { definition, inputs, nodes, outputs };
}

function checkInputs(definition: GraphDefinition, inputs: unknown, problems: Problems): void {
	const field = problems.at("inputs");
	if (!definition.inputs) {
		if (inputs !== undefined && !isEmptyObject(inputs)) field.add("the graph declares no inputs schema; give none");
		return;
	}
	if (!checkJsonSchema(definition.inputs, problems.at("graph.inputs"))) return;
	const check = validateStructuredOutput(definition.inputs, inputs ?? {});
	if (!check.ok) field.add(`do not match the graph's inputs schema: ${check.errors.replaceAll("result", "inputs")}`);
}

function isEmptyObject(value: unknown): boolean {
	return value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** The node's `depends_on`, without dangling, self and repeated entries (each reported). */
function checkDependsOn(key: string, definition: GraphDefinition, problems: Problems): string[] {
	const field = problems.at(nodeLabel(key)).at("depends_on");
	const kept: string[] = [];
	for (const dep of definition.nodes[key].depends_on ?? []) {
		if (dep === key) field.add("a node cannot depend on itself");
		else if (!Object.hasOwn(definition.nodes, dep)) field.add(`unknown node "${dep}"`);
		else if (kept.includes(dep)) field.add(`"${dep}" is listed twice`);
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
	key: string,
	definition: GraphDefinition,
	dependsOn: string[],
	ancestors: Set<string>,
	problems: Problems,
): CompiledNode {
	const node = definition.nodes[key];
	const local = problems.at(nodeLabel(key));
	const task = templateParts(node.task, local.at("task"));
	for (const ref of refsOf(task)) checkRef(ref, definition, { key, ancestors }, local.at("task"));
	let when: Condition | undefined;
	if (node.when !== undefined) {
		when = parseCondition(node.when, local.at("when"));
		for (const ref of when ? conditionRefs(when) : []) checkRef(ref, definition, { key, ancestors }, local.at("when"));
	}
	return { key, node, task, when, dependsOn, ancestors };
}

function templateParts(template: string, problems: Problems): TemplatePart[] {
	const { parts, errors } = parseTemplate(template);
	for (const error of errors) problems.add(error);
	return parts;
}

/**
 * A reference may read the inputs at a path their schema declares, or the structured output of a
 * (transitive) dependency that has an `output_schema`, at a path that schema declares. `reader` is the
 * node that reads it; graph outputs (no reader) may read any node.
 */
function checkRef(
	ref: ValueRef,
	definition: GraphDefinition,
	reader: { key: string; ancestors: Set<string> } | undefined,
	problems: Problems,
): void {
	if (ref.source === "inputs") {
		if (!definition.inputs) problems.add(`${ref.text}: the graph declares no inputs schema`);
		else if (!declaresPath(definition.inputs, ref.path)) {
			problems.add(`${ref.text}: the inputs schema does not declare inputs${formatPath(ref.path)}`);
		}
		return;
	}
	const target = definition.nodes[ref.node];
	if (!target) problems.add(`${ref.text}: unknown node "${ref.node}"`);
	else if (reader && (ref.node === reader.key || !reader.ancestors.has(ref.node))) {
		problems.add(
			`${ref.text}: node "${ref.node}" is not a dependency of "${reader.key}"; add it to depends_on (directly or through another node)`,
		);
	} else if (target.output_schema === undefined) {
		problems.add(
			`${ref.text}: node "${ref.node}" has no output_schema; wiring reads structured output only, never an answer's prose`,
		);
	} else if (!declaresPath(target.output_schema, ref.path)) {
		problems.add(`${ref.text}: the output_schema of node "${ref.node}" does not declare output${formatPath(ref.path)}`);
	}
}
