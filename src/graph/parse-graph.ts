/**
 * Reading a graph definition against its schemas (definition.ts, docs/graphs.md §Validation): every shape
 * problem named by node and field, an unknown key with the nearest key its object knows, and the rest of a
 * graph some of whose nodes or fields are refused, so that its other problems are found in the same answer.
 */
import { fieldProblems } from "../config/zod-issues.ts";
import { checkJsonShape } from "../core/json-shape.ts";
import { didYouMean } from "../core/nearest-name.ts";
import type { Problems } from "../core/problems.ts";
import { type GraphDefinition, graphPlace, graphSchema, NODE_KEY, NODE_KIND_SCHEMAS, nodeLabel } from "./definition.ts";

/**
 * Parses a graph definition's shape. Problems name the node and field: `node "scan": output_schema: …`,
 * `limits.max_usd: …`, `nodes: give at least one node`. First the whole document keeps the shape rules of
 * `checkJsonShape` (core/json-shape.ts): at most `MAX_NESTING` levels deep, no `__proto__` key (a map of
 * nodes, outputs or inputs would drop it silently); it is not read further when it does not.
 * @returns the definition, or `undefined` with every problem added to `problems`.
 */
export function parseGraphDefinition(raw: unknown, problems: Problems): GraphDefinition | undefined {
	const parsed = parseGraphPartly(raw, problems);
	return parsed?.complete ? parsed.definition : undefined;
}

/** A graph as far as its shape could be read (`parseGraphPartly`). */
export interface PartlyParsedGraph {
	/** The graph without the nodes refused for their shape. */
	definition: GraphDefinition;
	/** Each node refused for its shape, with the `depends_on` it gave (when that is a list of strings). */
	refusedNodes: Map<string, string[]>;
	/** False when a problem was added: the graph is refused, `definition` is for finding the rest of its problems. */
	complete: boolean;
}

/**
 * {@link parseGraphDefinition}, and when only some nodes or top-level fields other than `inputs` have shape
 * problems, the rest of the graph without them, so that its other problems (`depends_on`, templates, conditions,
 * pre-flight) are listed in the same answer.
 * @returns the graph read so far, or `undefined` when nothing past its shape can be checked (`inputs` or `nodes`
 *   as a whole refused, every node refused); every problem is added to `problems`.
 */
export function parseGraphPartly(raw: unknown, problems: Problems): PartlyParsedGraph | undefined {
	if (!checkJsonShape(raw, problems, graphPlace)) return undefined;
	const parsed = graphSchema.safeParse(raw);
	const refusedNodes = new Map<string, string[]>();
	let definition = parsed.data;
	if (!parsed.success) {
		const found = fieldProblems(parsed.error.issues);
		for (const { path, message } of found) problems.add(locate(path, withNearestKey(raw, path, message)));
		const given = raw as { nodes: Record<string, unknown> };
		const dropped = new Set<string>();
		for (const { path } of found) {
			const [top, key] = path;
			// Without its inputs schema or its nodes, the rest cannot be checked without false problems.
			if (top === undefined || top === "inputs" || (top === "nodes" && key === undefined)) return undefined;
			if (top !== "nodes") dropped.add(String(top));
			else {
				const dependsOn = (given.nodes[String(key)] as { depends_on?: unknown } | undefined)?.depends_on;
				const deps = Array.isArray(dependsOn) ? dependsOn.filter((dep) => typeof dep === "string") : [];
				refusedNodes.set(String(key), deps);
			}
		}
		const rest = Object.entries(given).filter(([field]) => !dropped.has(field));
		const nodes = Object.fromEntries(Object.entries(given.nodes).filter(([key]) => !refusedNodes.has(key)));
		definition = graphSchema.safeParse({ ...Object.fromEntries(rest), nodes }).data;
		if (!definition) return undefined;
	}
	const before = problems.size;
	for (const key of [...Object.keys((definition as GraphDefinition).nodes), ...refusedNodes.keys()]) {
		if (!NODE_KEY.test(key)) {
			problems.add(
				`${nodeLabel(key)}: the key must start with a letter or "_" and hold only letters, digits, "_", "-"`,
			);
		}
	}
	return {
		definition: definition as GraphDefinition,
		refusedNodes,
		complete: parsed.success && problems.size === before,
	};
}

/** A zod issue's path as `node "<key>": <field>: <message>` inside a node, else `<path>: <message>`. */
function locate(path: readonly PropertyKey[], message: string): string {
	const fields = (segments: readonly PropertyKey[]) =>
		segments.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? String(s) : `.${String(s)}`)).join("");
	if (path[0] === "nodes" && path.length >= 2) {
		const rest = path.slice(2);
		return rest.length === 0
			? `${nodeLabel(String(path[1]))}: ${message}`
			: `${nodeLabel(String(path[1]))}: ${fields(rest)}: ${message}`;
	}
	return path.length === 0 ? message : `${fields(path)}: ${message}`;
}

/**
 * `unknown key "dependson"` with the nearest key its object knows (` (did you mean "depends_on"?)`): the graph's
 * own keys at the top, a node's those of its kind (`agent` when it gives none).
 */
function withNearestKey(raw: unknown, path: readonly PropertyKey[], message: string): string {
	if (!message.startsWith("unknown key")) return message;
	let schema: { shape: object } | undefined;
	if (path.length === 1) schema = graphSchema;
	else if (path.length === 3 && path[0] === "nodes") {
		const kind = (raw as { nodes: Record<string, { kind?: unknown }> }).nodes[String(path[1])]?.kind ?? "agent";
		schema = Object.hasOwn(NODE_KIND_SCHEMAS, String(kind))
			? NODE_KIND_SCHEMAS[String(kind) as keyof typeof NODE_KIND_SCHEMAS]
			: undefined;
	}
	return schema ? `${message}${didYouMean(String(path.at(-1)), Object.keys(schema.shape))}` : message;
}
