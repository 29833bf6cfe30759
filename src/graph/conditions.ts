/**
 * `when` conditions (docs/graphs.md "Conditions"): `{ ref, equals | not_equals | in | exists }`, combined
 * with `all` / `any` / `not`. `ref` is one ValueRef (`"${nodes.review.output.verdict}"`); which nodes and
 * paths it may name is checked with every other reference in `validate.ts`. Values compare as JSON.
 */
import { isDeepStrictEqual } from "node:util";
import { didYouMean } from "../core/nearest-name.ts";
import type { Problems } from "../core/problems.ts";
import { parseRef, type RefScope, readRef, type ValueRef } from "./value-refs.ts";

export type Condition =
	| { op: "equals" | "not_equals"; ref: ValueRef; value: unknown }
	| { op: "in"; ref: ValueRef; values: unknown[] }
	| { op: "exists"; ref: ValueRef; exists: boolean }
	| { op: "all" | "any"; items: Condition[] }
	| { op: "not"; item: Condition };

const TESTS = ["equals", "not_equals", "in", "exists"] as const;
const COMBINATORS = ["all", "any", "not"] as const;
const OPS = [...TESTS, ...COMBINATORS] as const;

/**
 * Parses a raw `when`. Problems are labelled with the place inside it (`when.all[1]: …`).
 * @returns the condition, or `undefined` with every problem added to `problems`.
 */
export function parseCondition(raw: unknown, problems: Problems): Condition | undefined {
	if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
		problems.add("expected an object: { ref, equals | not_equals | in | exists } or { all | any | not }");
		return undefined;
	}
	const fields = raw as Record<string, unknown>;
	const given = Object.keys(fields);
	const ops = given.filter((key) => (OPS as readonly string[]).includes(key));
	if (ops.length !== 1) {
		reportUnknownKeys(given, [...OPS, "ref"], problems);
		problems.add(`give exactly one of ${OPS.join(", ")}; got ${ops.length === 0 ? "none" : ops.join(" and ")}`);
		return undefined;
	}
	const op = ops[0] as (typeof OPS)[number];
	const allowed = (COMBINATORS as readonly string[]).includes(op) ? [op] : [op, "ref"];
	const unknown = reportUnknownKeys(given, allowed, problems);
	if (op === "all" || op === "any") return parseList(op, fields[op], problems.at(op));
	if (op === "not") {
		const item = parseCondition(fields.not, problems.at("not"));
		return item && unknown.length === 0 ? { op, item } : undefined;
	}
	const ref = parseConditionRef(fields.ref, problems.at("ref"));
	const value = fields[op];
	if (op === "in" && !Array.isArray(value)) problems.at("in").add("expected a list of values");
	if (op === "exists" && typeof value !== "boolean") problems.at("exists").add("expected true or false");
	if (!ref || unknown.length > 0) return undefined;
	if (op === "in") return Array.isArray(value) ? { op, ref, values: value } : undefined;
	if (op === "exists") return typeof value === "boolean" ? { op, ref, exists: value } : undefined;
	return { op, ref, value };
}

/**
 * Adds `unknown key "equal" (did you mean "equals"?)` for each key of `given` that `known` lacks, with the nearest
 * known key as the graph's other objects give it (docs/graphs.md §Validation).
 * @returns the unknown keys.
 */
function reportUnknownKeys(given: string[], known: readonly string[], problems: Problems): string[] {
	const unknown = given.filter((key) => !known.includes(key));
	for (const key of unknown) problems.add(`unknown key ${JSON.stringify(key)}${didYouMean(key, known)}`);
	return unknown;
}

function parseList(op: "all" | "any", raw: unknown, problems: Problems): Condition | undefined {
	if (!Array.isArray(raw) || raw.length === 0) {
		problems.add("expected a non-empty list of conditions");
		return undefined;
	}
	const items = raw.map((item, i) => parseCondition(item, problems.at(`[${i}]`)));
	return items.every((item) => item !== undefined) ? { op, items: items as Condition[] } : undefined;
}

function parseConditionRef(raw: unknown, problems: Problems): ValueRef | undefined {
	const match = typeof raw === "string" ? /^\$\{([^}]*)\}$/.exec(raw) : null;
	const ref = match ? parseRef(match[1]) : undefined;
	if (!ref)
		problems.add(
			`expected one ValueRef, "\${nodes.<key>.output.<path>}" or "\${inputs.<path>}"; got ${JSON.stringify(raw)}`,
		);
	return ref;
}

/** Every reference a condition reads. */
export function conditionRefs(condition: Condition): ValueRef[] {
	if (condition.op === "all" || condition.op === "any") return condition.items.flatMap(conditionRefs);
	if (condition.op === "not") return conditionRefs(condition.item);
	return [(condition as Extract<Condition, { ref: ValueRef }>).ref];
}

/** Evaluates a condition over the inputs and the completed nodes' structured outputs. */
export function evaluateCondition(condition: Condition, scope: RefScope): boolean {
	switch (condition.op) {
		case "all":
			return condition.items.every((item) => evaluateCondition(item, scope));
		case "any":
			return condition.items.some((item) => evaluateCondition(item, scope));
		case "not":
			return !evaluateCondition(condition.item, scope);
		case "exists":
			return (readRef(condition.ref, scope) !== undefined) === condition.exists;
		case "in": {
			const value = readRef(condition.ref, scope);
			return condition.values.some((candidate) => isDeepStrictEqual(candidate, value));
		}
		default: {
			const equal = isDeepStrictEqual(readRef(condition.ref, scope), condition.value);
			return condition.op === "equals" ? equal : !equal;
		}
	}
}
