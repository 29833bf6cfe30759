/**
 * Templates and ValueRefs (docs/graphs.md "Wiring"): `${inputs.<path>}` and `${nodes.<key>.output.<path>}`,
 * a path being dot-separated keys and `[n]` indices; inside a fan-out's item template also `${item}`,
 * `${item.<path>}` and `${index}`, inside a feedback worker's task `${feedback}`, inside its evaluator's
 * task `${worker.<path>}` (validate.ts says which field may use which). Anything else inside `${…}` is an error, never literal
 * text; `$${` writes a literal `${`. Substitution is literal (split/join, as chain's `{previous}`): `$&` or
 * `${x}` inside a value survive unchanged; strings go in as they are, other values as JSON.
 */

/** One step of a path: an object key or an array index. */
export type PathSegment = string | number;

/** A reference to a value: the graph's inputs, a node's structured output, or a coordinator's local value. */
export type ValueRef =
	| { source: "inputs"; path: PathSegment[]; text: string }
	| {
			source: "node";
			node: string;
			path: PathSegment[];
			text: string;
	  }
	| { source: LocalSource; path: PathSegment[]; text: string };

/** Values only a coordinator's own templates read: a fan-out item and its index, a feedback round's values. */
export type LocalSource = "item" | "index" | "feedback" | "worker";

/** A template cut into literal text and references, in order. */
export type TemplatePart = string | ValueRef;

const KEY = "[A-Za-z0-9_-]+";
const PATH = `(?:\\.${KEY}|\\[\\d+\\])*`;
const INPUTS_REF = new RegExp(`^inputs(${PATH})$`);
const NODE_REF = new RegExp(`^nodes\\.([A-Za-z_][A-Za-z0-9_-]*)\\.output(${PATH})$`);
const LOCAL_REF = new RegExp(`^(item|worker)(${PATH})$|^(index|feedback)$`);

/** `.a.b[0]` → `["a", "b", 0]`. */
function parsePath(text: string): PathSegment[] {
	return [...text.matchAll(/\.([A-Za-z0-9_-]+)|\[(\d+)\]/g)].map((m) => (m[1] !== undefined ? m[1] : Number(m[2])));
}

/** Parses the inside of one `${…}`; `undefined` when it is not a ValueRef. */
export function parseRef(inner: string): ValueRef | undefined {
	const text = `\${${inner}}`;
	const inputs = INPUTS_REF.exec(inner);
	if (inputs) return { source: "inputs", path: parsePath(inputs[1]), text };
	const node = NODE_REF.exec(inner);
	if (node) return { source: "node", node: node[1], path: parsePath(node[2]), text };
	const local = LOCAL_REF.exec(inner);
	if (local) return { source: (local[1] ?? local[3]) as LocalSource, path: parsePath(local[2] ?? ""), text };
	return undefined;
}

/**
 * Cuts `template` into parts. Each malformed placeholder (no closing `}`, or not a ValueRef) is one error:
 * `"${inputs.path" is not closed`, `"${nodes.scan.outptu}" is not a ValueRef (…)`.
 */
export function parseTemplate(template: string): { parts: TemplatePart[]; errors: string[] } {
	const parts: TemplatePart[] = [];
	const errors: string[] = [];
	let literal = "";
	let i = 0;
	while (i < template.length) {
		if (template.startsWith("$${", i)) {
			literal += "${";
			i += 3;
			continue;
		}
		if (!template.startsWith("${", i)) {
			literal += template[i];
			i += 1;
			continue;
		}
		const end = template.indexOf("}", i + 2);
		if (end === -1) {
			errors.push(`${JSON.stringify(template.slice(i, i + 40))} is not closed with "}"`);
			break;
		}
		const inner = template.slice(i + 2, end);
		const ref = parseRef(inner);
		if (!ref) {
			errors.push(
				`\${${inner}} is not a ValueRef (use \${inputs.<path>} or \${nodes.<key>.output.<path>}; in fan-out items \${item.<path>}, \${index}; in feedback rounds \${feedback}, \${worker.<path>}; write $\${ for a literal \${)`,
			);
		} else {
			if (literal) parts.push(literal);
			literal = "";
			parts.push(ref);
		}
		i = end + 1;
	}
	if (literal) parts.push(literal);
	return { parts, errors };
}

/** The references of a parsed template. */
export function refsOf(parts: readonly TemplatePart[]): ValueRef[] {
	return parts.filter((part): part is ValueRef => typeof part !== "string");
}

/** What references read at run time: the inputs, each completed node's structured output, local values. */
export interface RefScope {
	inputs: unknown;
	outputs: Readonly<Record<string, unknown>>;
	/** A fan-out item's template: the item and its position (from 0). */
	item?: unknown;
	index?: number;
	/** A feedback worker's task: the last evaluation's feedback (`""` in round 1). */
	feedback?: string;
	/** A feedback evaluator's task: this round's worker output. */
	worker?: unknown;
}

/**
 * The value a reference starts from, before its path. A node's output is looked up as the node's own key, so
 * a node keyed `constructor` or `toString` that has no output reads as absent, never as `Object`'s method.
 */
function refRoot(ref: ValueRef, scope: RefScope): unknown {
	if (ref.source === "inputs") return scope.inputs;
	if (ref.source === "node") return Object.hasOwn(scope.outputs, ref.node) ? scope.outputs[ref.node] : undefined;
	return scope[ref.source];
}

/** The value at `ref`, or `undefined` when it is absent (an optional field not given, an index out of range). */
export function readRef(ref: ValueRef, scope: RefScope): unknown {
	let value: unknown = refRoot(ref, scope);
	for (const segment of ref.path) {
		if (value === null || typeof value !== "object") return undefined;
		if (typeof segment === "number" && !Array.isArray(value)) return undefined;
		if (!Object.hasOwn(value, segment)) return undefined;
		value = (value as Record<PropertyKey, unknown>)[segment];
	}
	return value;
}

/** A value as template text: a string as it is, anything else as JSON. */
export function valueText(value: unknown): string {
	return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Fills in a template. A template that is exactly one reference yields the value itself (`raw`), for
 * outputs; `text` is always the substituted string.
 * @returns the text, or `missing`: the references whose value is absent.
 */
export function fillTemplate(
	parts: readonly TemplatePart[],
	scope: RefScope,
): { text: string; raw: unknown } | { missing: string[] } {
	const missing: string[] = [];
	const pieces = parts.map((part) => {
		if (typeof part === "string") return part;
		const value = readRef(part, scope);
		if (value === undefined) missing.push(part.text);
		return valueText(value);
	});
	if (missing.length > 0) return { missing };
	const text = pieces.join("");
	const only = parts.length === 1 && typeof parts[0] !== "string" ? readRef(parts[0], scope) : text;
	return { text, raw: only };
}
