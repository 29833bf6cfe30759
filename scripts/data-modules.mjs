/**
 * Data modules: source modules whose every export is data (the tool schemas TypeBox builds, the constants they
 * use), which the bundle holds as the values themselves rather than the code that builds them
 * (docs/design-notes.md §Start-up cost). TypeBox copies each schema it is handed (`Type.Optional`, `Type.Object`
 * and `Type.Array` clone their arguments), so building the tool schemas at every load cost more than the
 * schemas: in a Pi parent it pushed TypeBox's clone functions, which Pi's own start-up runs too, over V8's
 * threshold for optimizing compilation, about 10 ms of CPU on V8's worker threads (docs/design-notes.md
 * §Start-up cost).
 * A value keeps what TypeBox gives it: its enumerable properties in their order, and its hidden ones (`~kind`,
 * `~optional`, `~unsafe`, …: not enumerable, writable, configurable), which Pi's TypeBox reads. The build imports a
 * data module with the TypeBox of the Pi it builds against (the copy `@earendil-works/pi-coding-agent` resolves),
 * as Pi's loader gives the sources that one: the bundle holds what the sources make under that Pi.
 */
import { registerHooks } from "node:module";
import { pathToFileURL } from "node:url";

/** The data modules, relative to the package root (each is built from its source at every build). */
export const DATA_MODULES = [
	"src/tools/model-parameters.ts",
	"src/tools/subagent-schema.ts",
	"src/tools/jobs-schema.ts",
];

/** The hidden properties TypeBox 1.x gives a schema (its `~`-prefixed marks); any other fails the build. */
const TYPEBOX_MARKS = new Set(["~kind", "~optional", "~readonly", "~unsafe", "~immutable", "~refine", "~codec"]);
/** The prefix of the generated module's own names; an export name with it fails the build. */
const OWN = "__dataModule";

/** Gives each key of `hidden` to `value` as TypeBox does: not enumerable, writable, configurable. */
const HIDE = `const ${OWN}Hide = (value, hidden) => {
	for (const key of Object.keys(hidden))
		Object.defineProperty(value, key, { value: hidden[key], writable: true, enumerable: false, configurable: true });
	return value;
};`;

/**
 * The code of an ES module that exports the values of `exports` (a module namespace), each as a literal; a value
 * reached more than once (TypeBox's `Type.Object` keeps the property schemas it is given) is one constant, so
 * what is one object in the source is one in the bundle.
 * @param file the module's path, for the error.
 * @throws Error naming `file`, the export and the path in it of a value that is not data: a function, a symbol
 *   key, an accessor, a read-only property, an own `__proto__`, a frozen or non-plain object (a class instance, a
 *   Map), an array with holes or other properties, a cycle, a number JSON cannot write, a hidden property other
 *   than TypeBox's marks; or of an export named `default` or with the generated code's prefix.
 */
export function dataModuleCode(exports, file) {
	const uses = new Map();
	for (const name of Object.keys(exports)) countUses(exports[name], { file, path: name }, uses, new Set());
	const lines = [HIDE];
	const state = { uses, names: new Map(), lines };
	for (const name of Object.keys(exports)) {
		const where = { file, path: name };
		if (name === "default") throw refusal(where, "a default export (give it a name)");
		if (name.startsWith(OWN)) throw refusal(where, `named with the generated code's prefix ${OWN}`);
		lines.push(`export const ${name} = ${literal(exports[name], where, state)};`);
	}
	return `${lines.join("\n")}\n`;
}

/** The error for a value of data module `where.file` at `where.path` that is `what`. */
function refusal(where, what) {
	return new Error(
		`build-runtime: ${where.file} is a data module (scripts/data-modules.mjs) but its export ${where.path} is ${what}`,
	);
}

/** Counts in `uses` how often each object is reached from `value`; `open`: the objects being walked (a cycle). */
function countUses(value, where, uses, open) {
	if (value === null || typeof value !== "object") return;
	if (open.has(value)) throw refusal(where, "part of a cycle");
	uses.set(value, (uses.get(value) ?? 0) + 1);
	if (uses.get(value) > 1) return;
	open.add(value);
	for (const key of Reflect.ownKeys(value)) {
		const descriptor = Object.getOwnPropertyDescriptor(value, key);
		if (typeof key === "string" && descriptor && "value" in descriptor)
			countUses(descriptor.value, { ...where, path: `${where.path}.${key}` }, uses, open);
	}
	open.delete(value);
}

/** `value` as a JavaScript expression (see {@link dataModuleCode}); a shared object becomes a constant first. */
function literal(value, where, state) {
	if (value === null || typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
	if (typeof value === "number") {
		if (Object.is(value, -0)) return "-0";
		if (Number.isFinite(value)) return JSON.stringify(value);
		throw refusal(where, `the number ${value}`);
	}
	if (typeof value !== "object") throw refusal(where, `of type ${typeof value}`);
	const named = state.names.get(value);
	if (named) return named;
	const code = objectLiteral(value, where, state);
	if ((state.uses.get(value) ?? 0) < 2) return code;
	const name = `${OWN}Shared${state.names.size}`;
	state.lines.push(`const ${name} = ${code};`);
	state.names.set(value, name);
	return name;
}

/** Object or array `value` as a literal, its hidden properties given back by the generated module's hide. */
function objectLiteral(value, where, state) {
	if (!Object.isExtensible(value)) throw refusal(where, "frozen, sealed or not extensible");
	const array = Array.isArray(value);
	const prototype = Object.getPrototypeOf(value);
	if (prototype !== (array ? Array.prototype : Object.prototype))
		throw refusal(where, array ? "an array of another prototype" : "not a plain object");
	const shown = [];
	const hidden = [];
	for (const key of Reflect.ownKeys(value)) {
		if (typeof key === "symbol") throw refusal(where, `keyed by a symbol (${String(key)})`);
		if (array && key === "length") continue;
		const descriptor = Object.getOwnPropertyDescriptor(value, key);
		const at = { ...where, path: `${where.path}.${key}` };
		if (!("value" in descriptor)) throw refusal(at, "an accessor");
		if (!descriptor.writable || !descriptor.configurable) throw refusal(at, "read-only or not configurable");
		if (key === "__proto__") throw refusal(at, "an own __proto__ property (a literal would set the prototype)");
		if (descriptor.enumerable) {
			if (array && String(shown.length) !== key)
				throw refusal(at, "not an element of the array in order (a hole or another property)");
			shown.push([key, literal(descriptor.value, at, state)]);
		} else if (TYPEBOX_MARKS.has(key)) hidden.push([key, literal(descriptor.value, at, state)]);
		else throw refusal(at, "a hidden property TypeBox does not make");
	}
	if (array && shown.length !== value.length) throw refusal(where, "an array with holes");
	const body = array
		? `[${shown.map(([, code]) => code).join(", ")}]`
		: `{${shown.map(([key, code]) => `${JSON.stringify(key)}: ${code}`).join(", ")}}`;
	if (hidden.length === 0) return body;
	return `${OWN}Hide(${body}, {${hidden.map(([key, code]) => `${JSON.stringify(key)}: ${code}`).join(", ")}})`;
}

let piTypebox = false;

/**
 * Makes every later import of `typebox` (and its subpaths) in this process resolve as Pi's own package resolves
 * it: to the copy of the Pi this package builds against, the one Pi's loader gives the sources at run time.
 */
export function usePiTypebox() {
	if (piTypebox) return;
	piTypebox = true;
	const pi = import.meta.resolve("@earendil-works/pi-coding-agent");
	registerHooks({
		resolve: (specifier, context, next) =>
			specifier === "typebox" || specifier.startsWith("typebox/")
				? next(specifier, { ...context, parentURL: pi })
				: next(specifier, context),
	});
}

/**
 * The code standing in for data module `file` (absolute) in the bundle: its values, as the module gives them when
 * this process imports it with Pi's TypeBox ({@link usePiTypebox}).
 * @throws what importing the module throws, or {@link dataModuleCode}'s error.
 */
export async function dataModule(file) {
	usePiTypebox();
	return dataModuleCode(await import(pathToFileURL(file).href), file);
}
