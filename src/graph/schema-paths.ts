/**
 * Whether a JSON Schema declares a path (docs/graphs.md "Wiring": a ValueRef may only name a path its
 * node's `output_schema` declares). A key is declared by `properties`, an index by `items` or
 * `prefixItems`; a path declared by any branch of `anyOf` / `oneOf` / `allOf` is declared. `$ref` is not
 * followed: a path through it is not declared.
 */
import type { PathSegment } from "./value-refs.ts";

function isObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** @returns true when `schema` declares `path` (the empty path always). */
export function declaresPath(schema: unknown, path: readonly PathSegment[]): boolean {
	return path.length === 0 || schemaAt(schema, path) !== undefined;
}

/** `.problems[0].file` — a path as written after the ValueRef's source. */
export function formatPath(path: readonly PathSegment[]): string {
	return path.map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`)).join("");
}

/**
 * The schema `schema` declares at `path` (the first branch of a combinator that declares it), or
 * `undefined` when the path is not declared. The empty path is the schema itself.
 */
export function schemaAt(schema: unknown, path: readonly PathSegment[]): unknown {
	if (path.length === 0) return schema;
	if (!isObject(schema)) return undefined;
	for (const combinator of ["anyOf", "oneOf", "allOf"]) {
		const branches = schema[combinator];
		for (const branch of Array.isArray(branches) ? branches : []) {
			const found = schemaAt(branch, path);
			if (found !== undefined) return found;
		}
	}
	const [head, ...rest] = path;
	if (typeof head === "number") {
		const tuple = Array.isArray(schema.prefixItems)
			? schema.prefixItems
			: Array.isArray(schema.items)
				? schema.items
				: [];
		if (head < tuple.length) return schemaAt(tuple[head], rest);
		return isObject(schema.items) ? schemaAt(schema.items, rest) : undefined;
	}
	const properties = schema.properties;
	return isObject(properties) && Object.hasOwn(properties, head) ? schemaAt(properties[head], rest) : undefined;
}

/** True when `schema` says its value is an array (`type: "array"`, or `items` / `prefixItems`). */
export function isArraySchema(schema: unknown): boolean {
	if (!isObject(schema)) return false;
	const type = schema.type;
	return (
		type === "array" || (Array.isArray(type) && type.includes("array")) || "items" in schema || "prefixItems" in schema
	);
}
