/**
 * What Pi runs on the raw `subagent` arguments before its schema check (`prepareArguments`, docs/tools.md §The
 * subagent tool): unknown fields refused with the nearest known name, the `prompt` alias folded into `task`.
 */
import { didYouMean } from "../core/nearest-name.ts";
import { argumentProblems } from "./check-arguments.ts";
import { childSchema, resourcesSchema, type SubagentArgs, subagentSchema } from "./subagent-schema.ts";

/**
 * Folds the documented alias `prompt` into `task`, at the top level and in `tasks` / `chain` items
 * (Pi runs `prepareArguments` before schema validation). When both are given with different text,
 * `prompt` is left in place and `selectMode` reports the conflict.
 */
export function prepareSubagentArguments(given: unknown): SubagentArgs {
	if (!given || typeof given !== "object") return given as SubagentArgs;
	const raw = listsOf(given as Record<string, unknown>);
	const refused = new Map<string, string>();
	unknownArguments(raw as Record<string, unknown>, refused);
	nullableMisuse(raw as Record<string, unknown>, refused);
	// Thrown before Pi's schema check, whose message Pi gives the model as the tool's result (same format), with
	// what the complete schema finds in the rest of the arguments: every field problem in one answer.
	if (refused.size > 0) {
		const rest = argumentProblems("subagent", subagentSchema, without(raw, refused));
		const lines = [...refused.values(), ...rest];
		throw new Error(`Validation failed for tool "subagent":\n${lines.map((line) => `  - ${line}`).join("\n")}`);
	}
	const fold = (value: unknown): unknown => {
		if (!value || typeof value !== "object" || Array.isArray(value)) return value;
		const { prompt, ...rest } = value as Record<string, unknown>;
		if (prompt === undefined) return value;
		if (rest.task === undefined || rest.task === prompt) return { ...rest, task: prompt };
		return value;
	};
	const args = fold(raw) as Record<string, unknown>;
	const items = (list: unknown) => (Array.isArray(list) ? list.map(fold) : list);
	return { ...args, tasks: items(args.tasks), chain: items(args.chain) } as SubagentArgs;
}

/** The fields whose schema is `<type> | null`, by name, with the JSON type of their other branch. */
const NULLABLE = new Map<string, string>(
	[...Object.entries(subagentSchema.properties), ...Object.entries(resourcesSchema.properties)].flatMap(
		([key, schema]) => {
			const branches = (schema as { anyOf?: Array<{ type?: string }> }).anyOf ?? [];
			const other = branches.find((branch) => branch.type !== "null")?.type;
			return branches.some((branch) => branch.type === "null") && other ? [[key, other] as const] : [];
		},
	),
);

/**
 * A nullable field given a value that is neither `null` nor of its type's kind that Pi's check would read as
 * something else: `0`, `false`, `""` or `"0"` as `null` (for `inactivity_timeout_ms`, "never"), `1.5` or
 * `"1.5"` as `1`, `true` as `1`. An integer field takes `null`, an integer ≥ 1 or its digits (`"5"`); another
 * field anything but a falsy value. Refused naming the field (`inactivity_timeout_ms: expected an integer ≥ 1
 * or null, got 0`), as Pi's check words it.
 */
function nullableMisuse(args: Record<string, unknown>, found: Map<string, string>): void {
	const check = (value: unknown, where: string) => {
		if (!value || typeof value !== "object" || Array.isArray(value)) return;
		for (const [key, item] of Object.entries(value)) {
			const type = NULLABLE.get(key);
			if (key === "resources") check(item, `${where}resources.`);
			if (type === undefined || item === null || item === undefined) continue;
			const fits =
				type === "integer"
					? (typeof item === "number" && Number.isInteger(item) && item >= 1) ||
						(typeof item === "string" && /^[1-9]\d*$/.test(item))
					: Boolean(item);
			if (!fits)
				found.set(
					`${where}${key}`,
					`${where}${key}: expected ${KINDS[type] ?? type} or null, got ${JSON.stringify(item)}`,
				);
		}
	};
	check(args, "");
	for (const list of ["tasks", "chain"] as const) {
		const items = args[list];
		if (Array.isArray(items)) for (const [i, item] of items.entries()) check(item, `${list}.${i}.`);
	}
}

const KINDS: Record<string, string> = {
	integer: "an integer ≥ 1",
	string: "a non-empty string",
	array: "a list",
	object: "an object",
};

/**
 * `tasks` or `chain` given as one object, as the list of it that Pi's check makes of one value for a list: every
 * check here then sees what Pi's does (the `prompt` alias, unknown fields, nullable values of its item 0).
 */
function listsOf(args: Record<string, unknown>): Record<string, unknown> {
	const one = (value: unknown) => value !== null && typeof value === "object" && !Array.isArray(value);
	if (!one(args.tasks) && !one(args.chain)) return args;
	const listed = { ...args };
	for (const list of ["tasks", "chain"] as const) if (one(args[list])) listed[list] = [args[list]];
	return listed;
}

const TOP_KEYS = Object.keys(subagentSchema.properties);
const CHILD_KEYS = Object.keys(childSchema.properties);
const RESOURCE_KEYS = Object.keys(resourcesSchema.properties);

/**
 * Every argument name the schema does not know, at the top level, in `tasks` / `chain` items and in
 * `resources`, each with the nearest known name (`tasks.0.alowed_tools: unknown field (did you mean
 * "allowed_tools"?)`, paths as Pi's schema check writes them). Pi's check would refuse them too, without
 * a suggestion (issue 20 item 4).
 */
function unknownArguments(args: Record<string, unknown>, found: Map<string, string>): void {
	const check = (value: unknown, known: readonly string[], where: string) => {
		if (!value || typeof value !== "object" || Array.isArray(value)) return;
		for (const [key, item] of Object.entries(value)) {
			if (!known.includes(key)) {
				found.set(`${where}${key}`, `${where}${key}: unknown field${didYouMean(key, known)}`);
			} else if (key === "resources") check(item, RESOURCE_KEYS, `${where}resources.`);
		}
	};
	check(args, TOP_KEYS, "");
	for (const list of ["tasks", "chain"] as const) {
		const items = args[list];
		if (!Array.isArray(items)) continue;
		for (const [i, item] of items.entries()) check(item, CHILD_KEYS, `${list}.${i}.`);
	}
}

/**
 * `value` without the fields at `paths` (dotted, as the checks above write them: `tasks.0.foo`, `resources.x`),
 * copied where it changes, so the complete schema checks only what was not refused already.
 */
function without(value: unknown, paths: ReadonlyMap<string, string>, where = ""): unknown {
	if (!value || typeof value !== "object") return value;
	if (Array.isArray(value)) return value.map((item, i) => without(item, paths, `${where}${i}.`));
	// `fromEntries` keeps a `__proto__` key (of an output_schema, say) as a field, as JSON.parse made it.
	return Object.fromEntries(
		Object.entries(value).flatMap(([key, item]) =>
			paths.has(`${where}${key}`) ? [] : [[key, without(item, paths, `${where}${key}.`)]],
		),
	);
}
