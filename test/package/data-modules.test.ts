/**
 * The bundle's data modules (scripts/data-modules.mjs): each tool schema module is built into the values its source
 * exports under Pi's TypeBox, as that TypeBox made them (hidden kinds, shared objects and property order included),
 * and a module that exports anything but data fails the build with its file, export and path.
 */
import { execFile } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Type } from "typebox";
import { afterAll, describe, expect, it } from "vitest";
import { DATA_MODULES, dataModuleCode } from "../../scripts/data-modules.mjs";
import { describeTree } from "../support/describe-tree.mjs";
import { makeTempDir } from "../support/temp-dir.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const dir = makeTempDir("data-modules-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let written = 0;
/** Imports generated module `code`. */
async function importCode(code: string): Promise<Record<string, unknown>> {
	const file = join(dir, `module-${++written}.mjs`);
	writeFileSync(file, code);
	return import(pathToFileURL(file).href);
}

describe("a data module in the bundle", () => {
	it("holds the values each source exports under Pi's TypeBox, as that TypeBox built them", async () => {
		// In a Node process of its own: the build's resolution of typebox (Pi's copy) is not the tests' (the project's).
		const { stdout } = await promisify(execFile)(NODE, [join(ROOT, "test", "support", "data-module-parity.mjs"), dir]);
		const report = JSON.parse(stdout) as {
			typebox: string;
			modules: Record<string, { names: number; differ: string[] }>;
		};
		expect(report.typebox).toContain("/@earendil-works/pi-coding-agent/node_modules/typebox/");
		expect(Object.keys(report.modules)).toEqual([...DATA_MODULES]);
		for (const [path, { names, differ }] of Object.entries(report.modules)) {
			expect(names, path).toBeGreaterThan(0);
			expect(differ, path).toEqual([]);
		}
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
			"build-runtime: src/tools/bad.ts is a data module (scripts/data-modules.mjs) but its export check is of type function",
		);
		expect(refuse({ schema: { properties: { when: new Date(0) } } })).toThrow(
			"its export schema.properties.when is not a plain object",
		);
		expect(refuse({ schema: { limit: Number.POSITIVE_INFINITY } })).toThrow(
			"its export schema.limit is the number Infinity",
		);
		expect(refuse({ schema: Object.freeze({ type: "string" }) })).toThrow(
			"its export schema is frozen, sealed or not extensible",
		);
		expect(refuse({ schema: { [Symbol("kind")]: "String" } })).toThrow("its export schema is keyed by a symbol");
		const cyclic: Record<string, unknown> = { type: "object" };
		cyclic.self = cyclic;
		expect(refuse({ cyclic })).toThrow("its export cyclic.self is part of a cycle");
		const accessor = Object.defineProperty({}, "type", { get: () => "string", enumerable: true });
		expect(refuse({ accessor })).toThrow("its export accessor.type is an accessor");
		const hidden = Object.defineProperty({}, "secret", {
			value: 1,
			enumerable: false,
			writable: true,
			configurable: true,
		});
		expect(refuse({ hidden })).toThrow("its export hidden.secret is a hidden property TypeBox does not make");
		const mark = Object.defineProperty({}, "~foo", { value: 1, enumerable: false, writable: true, configurable: true });
		expect(refuse({ mark })).toThrow("its export mark.~foo is a hidden property TypeBox does not make");
		const readOnly = Object.defineProperty({}, "type", { value: "string", enumerable: true, writable: false });
		expect(refuse({ readOnly })).toThrow("its export readOnly.type is read-only or not configurable");
		expect(refuse({ schema: JSON.parse('{"properties": {"__proto__": {"type": "number"}}}') })).toThrow(
			"its export schema.properties.__proto__ is an own __proto__ property",
		);
		const extra = Object.assign([1, 2], { note: "x" });
		expect(refuse({ extra })).toThrow("its export extra.note is not an element of the array in order");
		// biome-ignore lint/suspicious/noSparseArray: the hole is the case
		const holed = Object.assign([1, , 3], { note: "x" });
		expect(refuse({ holed })).toThrow("is not an element of the array in order (a hole or another property)");
		expect(refuse({ list: Object.setPrototypeOf([1], null) })).toThrow(
			"its export list is an array of another prototype",
		);
		expect(refuse({ default: { type: "string" } })).toThrow("its export default is a default export");
		expect(refuse({ __dataModuleHide: {} })).toThrow("named with the generated code's prefix");
		expect(refuse({ count: 1n })).toThrow("its export count is of type bigint");
	});

	it("keeps -0, escapes and key order as the source has them", async () => {
		const values = {
			zero: -0,
			list: [-0, 0],
			text: "a\u2028b\u2029\0\ud800",
			order: { b: 1, 2: "two", a: 3, 1: "one" },
		};
		const built = await importCode(dataModuleCode(values, "values.ts"));
		expect(Object.is(built.zero, -0)).toBe(true);
		expect(Object.is((built.list as number[])[0], -0)).toBe(true);
		expect(built.text).toBe(values.text);
		expect(Object.keys(built.order as object)).toEqual(Object.keys(values.order));
	});
});
