/**
 * Turns zod validation issues into field-path messages a user can act on (docs/settings.md §Settings file,
 * docs/rules.md §Rosters: errors name the file, the entry and the field, and list every problem found), plus the small
 * schema helpers shared by every config file this package reads.
 */
import type { z } from "zod";
import type { Problems } from "../core/problems.ts";
import { zod } from "../core/zod.ts";

/**
 * Formats a zod issue path as `a.b[0].c`. Numeric segments become indexes; an empty path is `(root)`.
 */
function formatFieldPath(path: readonly PropertyKey[]): string {
	let out = "";
	for (const segment of path) {
		if (typeof segment === "number") out += `[${segment}]`;
		else out += out === "" ? String(segment) : `.${String(segment)}`;
	}
	return out === "" ? "(root)" : out;
}

/** One problem at one field path. */
export interface FieldProblem {
	path: PropertyKey[];
	message: string;
}

/** Flattens zod issues into one problem per field; an unknown-keys issue becomes one problem per key. */
export function fieldProblems(issues: readonly z.core.$ZodIssue[]): FieldProblem[] {
	const problems: FieldProblem[] = [];
	for (const issue of issues) {
		if (issue.code === "unrecognized_keys") {
			for (const key of issue.keys) problems.push({ path: [...issue.path, key], message: `unknown key "${key}"` });
		} else {
			problems.push({ path: [...issue.path], message: issue.message });
		}
	}
	return problems;
}

/**
 * Adds one problem per field to `problems`: `<key><field path>: <what was expected>`.
 * @param key written before each field path, e.g. `resources.` for a selection given as a tool argument.
 */
export function addZodIssues(issues: readonly z.core.$ZodIssue[], problems: Problems, key = ""): void {
	for (const problem of fieldProblems(issues)) {
		problems.add(`${key}${formatFieldPath(problem.path)}: ${problem.message}`);
	}
}

/** A required, non-empty string (whitespace-only counts as empty). */
export function requiredString() {
	return zod()
		.string({
			error: (issue) =>
				issue.input === undefined
					? "is required (a non-empty string)"
					: `expected a string, got ${typeName(issue.input)}`,
		})
		.refine((s) => s.trim() !== "", "must not be empty");
}

/**
 * A whole number of at least `min`, counted in `unit`, with the messages every numeric field of the settings file
 * and of a graph gives: `expected an integer (ms), got 1.5`, `must be at least 1 (ms)`.
 */
export function integerAtLeast(min: number, unit: string) {
	return zod()
		.int({ error: (issue) => notAnInteger(issue.input, unit) })
		.min(min, `must be at least ${min} (${unit})`);
}

/**
 * Why `value` is no integer field's value: `expected an integer (ms), got 1.5`; a whole number past 2^53 − 1, which
 * a JSON number cannot hold exactly, `must be at most 9007199254740991 (ms)`; `Infinity` (YAML `.inf`) `expected a
 * finite number`.
 */
export function notAnInteger(value: unknown, unit: string): string {
	if (typeof value === "number" && !Number.isFinite(value)) return `expected a finite number (${unit}), got ${value}`;
	if (typeof value === "number" && Number.isInteger(value))
		return `must be at most ${Number.MAX_SAFE_INTEGER} (${unit})`;
	return `expected an integer (${unit}), got ${describeValue(value)}`;
}

/** A number as written, anything else by its type (`typeName`), for messages. */
export function describeValue(value: unknown): string {
	return typeof value === "number" ? String(value) : typeName(value);
}

/** `typeof`, but `null` and arrays named as such, for messages. */
export function typeName(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "array";
	return typeof value;
}

/** A boolean with a default; a wrong type says what it got. */
export function booleanWithDefault(value: boolean) {
	return zod()
		.boolean({ error: (issue) => `expected true or false, got ${typeName(issue.input)}` })
		.default(value);
}

/** `roster.roles[3] "feature-owner"`, using the raw entry's name when it has a usable one. */
function roleLabel(rawDoc: unknown, rosterKey: PropertyKey[], index: number): string {
	const roles = dig(rawDoc, [...rosterKey, "roles"]);
	const entry = Array.isArray(roles) ? roles[index] : undefined;
	const name = dig(entry, ["name"]);
	const base = `${formatFieldPath([...rosterKey, "roles", index])}`;
	return typeof name === "string" && name.trim() !== "" ? `${base} "${name}"` : base;
}

function dig(value: unknown, path: readonly PropertyKey[]): unknown {
	let current = value;
	for (const key of path) {
		if (current === null || typeof current !== "object") return undefined;
		current = (current as Record<PropertyKey, unknown>)[key];
	}
	return current;
}

/**
 * Formats a schema problem so it names the roster entry: `roster.roles[2] "reviewer": model: must not be
 * empty` when the field is inside `<rosterKey>.roles[i]` (the entry's raw name is used when usable),
 * else `<field path>: <message>`.
 */
export function locateProblem(rawDoc: unknown, problem: FieldProblem, rosterKey: PropertyKey[] = ["roster"]): string {
	const { path, message } = problem;
	const n = rosterKey.length;
	const inRoles =
		path.length > n + 1 &&
		rosterKey.every((key, i) => path[i] === key) &&
		path[n] === "roles" &&
		typeof path[n + 1] === "number";
	if (!inRoles) return `${formatFieldPath(path)}: ${message}`;
	const label = roleLabel(rawDoc, rosterKey, path[n + 1] as number);
	const rest = path.slice(n + 2);
	return rest.length === 0 ? `${label}: ${message}` : `${label}: ${formatFieldPath(rest)}: ${message}`;
}
