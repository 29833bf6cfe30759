/**
 * The bundle's data modules (scripts/data-modules.mjs): each tool schema module is built into the values its source
 * exports, as TypeBox made them (hidden kinds, shared objects and property order included), and a module that
 * exports anything but data fails the build with its file, export and path.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Type } from "typebox";
import { afterAll, describe, expect, it } from "vitest";
import { DATA_MODULES, dataModule, dataModuleCode } from "../../scripts/data-modules.mjs";
import { makeTempDir } from "../support/temp-dir.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const dir = makeTempDir("data-modules-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let written = 0;
/** Imports generated module `code`. */
async function importCode(code: string): Promise<Record<string, unknown>> {
	const file = join(dir, `module-${++written}.mjs`);
	writeFileSync(file, code);
	return import(pathToFileURL(file).href);
}

/**
 * Every own property of `value` and below, with its attributes, and each object named by when it was first
 * reached: two trees describe alike only when they hold the same values, keys, order, hidden properties and sharing.
 */
function describeTree(value: unknown, seen = new Map<object, number>()): unknown {
	if (value === null || typeof value !== "object") return value;
	const id = seen.get(value);
	if (id !== undefined) return { sameAs: id };
	seen.set(value, seen.size);
	return {
		array: Array.isArray(value),
		prototype: Object.getPrototypeOf(value) === Object.prototype ? "Object" : Array.isArray(value) ? "Array" : "other",
		properties: Reflect.ownKeys(value).map((key) => {
			const descriptor = Object.getOwnPropertyDescriptor(value, key) as PropertyDescriptor;
			return [
				String(key),
				descriptor.enumerable,
				descriptor.writable,
				descriptor.configurable,
				describeTree(descriptor.value, seen),
			];
		}),
	};
}

describe("a data module in the bundle", () => {
	it.each(DATA_MODULES)("holds the values %s exports, as TypeBox built them", async (path) => {
		const source = await import(pathToFileURL(join(ROOT, path)).href);
		const built = await importCode(await dataModule(join(ROOT, path)));
		expect(Object.keys(built).sort()).toEqual(Object.keys(source).sort());
		for (const name of Object.keys(source)) expect(describeTree(built[name]), name).toEqual(describeTree(source[name]));
	});

	it("keeps one object one object when a schema holds it twice", async () => {
		const shared = Type.String();
		const schema = Type.Object({ a: shared, b: Type.Object({ c: shared }) });
		expect(schema.properties.a).toBe(schema.properties.b.properties.c);
		const built = (await importCode(dataModuleCode({ schema }, "shared.ts"))).schema as typeof schema;
		expect(built.properties.a).toBe(built.properties.b.properties.c);
		expect(describeTree(built)).toEqual(describeTree(schema));
	});

	it("fails the build naming the file, the export and the path of a value that is not data", () => {
		const refuse = (exports: Record<string, unknown>) => () => dataModuleCode(exports, "src/tools/bad.ts");
		expect(refuse({ check: () => true })).toThrow(
			"build-runtime: src/tools/bad.ts is a data module (scripts/data-modules.mjs) but its export check is a function",
		);
		expect(refuse({ schema: { properties: { when: new Date(0) } } })).toThrow(
			"its export schema.properties.when is not a plain object",
		);
		expect(refuse({ schema: { limit: Number.POSITIVE_INFINITY } })).toThrow(
			"its export schema.limit is the number Infinity",
		);
		expect(refuse({ schema: Object.freeze({ type: "string" }) })).toThrow("its export schema is frozen or sealed");
		expect(refuse({ schema: { [Symbol("kind")]: "String" } })).toThrow("its export schema is keyed by a symbol");
		const cyclic: Record<string, unknown> = { type: "object" };
		cyclic.self = cyclic;
		expect(refuse({ cyclic })).toThrow("its export cyclic.self is part of a cycle");
		const accessor = Object.defineProperty({}, "type", { get: () => "string", enumerable: true });
		expect(refuse({ accessor })).toThrow("its export accessor.type is an accessor");
		const hidden = Object.defineProperty({}, "secret", { value: 1, enumerable: false });
		expect(refuse({ hidden })).toThrow("its export hidden.secret is a hidden property TypeBox does not make");
	});
});
