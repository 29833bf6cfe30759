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
	if (path.length === 0) return true;
	if (!isObject(schema)) return false;
	for (const combinator of ["anyOf", "oneOf", "allOf"]) {
		const branches = schema[combinator];
		if (Array.isArray(branches) && branches.some((branch) => declaresPath(branch, path))) return true;
	}
	const [head, ...rest] = path;
	if (typeof head === "number") {
		const tuple = Array.isArray(schema.prefixItems)
			? schema.prefixItems
			: Array.isArray(schema.items)
				? schema.items
				: [];
		if (head < tuple.length) return declaresPath(tuple[head], rest);
		return isObject(schema.items) && declaresPath(schema.items, rest);
	}
	const properties = schema.properties;
	return isObject(properties) && Object.hasOwn(properties, head) && declaresPath(properties[head], rest);
}

/** `.problems[0].file` — a path as written after the ValueRef's source. */
export function formatPath(path: readonly PathSegment[]): string {
	return path.map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`)).join("");
}
