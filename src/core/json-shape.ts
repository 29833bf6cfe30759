/**
 * Two rules every JSON value read from a user's file or a graph definition keeps (docs/rules.md
 * §Configuration files, docs/graphs.md "A graph"), checked before anything walks it: objects and arrays nest
 * at most `MAX_NESTING` levels (the checks, schemas and serializers that walk a value recurse, and a deeper
 * one would end them with a bare stack overflow), and no object has the key `__proto__` (`JSON.parse` keeps
 * it as a key, but an object built from the value by assignment, as a schema library's record does, drops it
 * without a word).
 */
import type { Problems } from "./problems.ts";

/** Most levels of objects and arrays a value nests (the outermost object or array is level 1). */
export const MAX_NESTING = 64;

/** The key an object built by assignment turns into its prototype. */
const RESERVED_KEY = "__proto__";

/** One step into a value: an object key or an array index. */
export type ValuePath = readonly (string | number)[];

/** `roles[1].resources` — the first `keep` steps of a path, as written in a file. */
export function fieldPath(path: ValuePath, keep = 3): string {
	return path
		.slice(0, keep)
		.map((step, i) => (typeof step === "number" ? `[${step}]` : i === 0 ? step : `.${step}`))
		.join("");
}

/**
 * Checks both rules over `value` without recursion (so any depth is safe to check). Each problem is labelled
 * by `place`, which names where it is from a path (default: its first three steps, `fieldPath`):
 * `nodes.a.when: nested deeper than 64 levels of objects and arrays …` (the path of the first value too deep
 * there), `nodes: the key "__proto__" is not allowed …` (the path of the object that has it).
 * @returns true when `value` keeps both, else false with one problem per place added to `problems`.
 */
export function checkJsonShape(
	value: unknown,
	problems: Problems,
	place: (path: ValuePath) => string = (path) => fieldPath(path),
): boolean {
	const found = new Set<string>();
	const report = (path: ValuePath, problem: string) => {
		const at = place(path);
		const line = at ? `${at}: ${problem}` : problem;
		if (!found.has(line)) problems.add(line);
		found.add(line);
	};
	const stack: Array<{ value: unknown; path: ValuePath }> = [{ value, path: [] }];
	for (let next = stack.pop(); next; next = stack.pop()) {
		if (next.value === null || typeof next.value !== "object") continue;
		if (next.path.length >= MAX_NESTING) {
			report(
				next.path,
				`nested deeper than ${MAX_NESTING} levels of objects and arrays (at most ${MAX_NESTING} are read)`,
			);
			continue;
		}
		const entries: Array<[string | number, unknown]> = Array.isArray(next.value)
			? [...next.value.entries()]
			: Object.entries(next.value);
		if (entries.some(([key]) => key === RESERVED_KEY)) {
			report(
				next.path,
				`the key "${RESERVED_KEY}" is not allowed (JavaScript objects treat it as their prototype); rename it`,
			);
		}
		// Pushed last first, so problems come in the value's own order.
		for (const [key, item] of entries.reverse()) stack.push({ value: item, path: [...next.path, key] });
	}
	return found.size === 0;
}
