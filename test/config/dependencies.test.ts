/**
 * Which runtime dependencies count as installed (src/config/dependencies.ts): the `node_modules` look-up that
 * spares `require.resolve` at every extension load must agree with Node's resolution.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { missingDependencies } from "../../src/config/dependencies.ts";
import { tempDirsRemovedAfter } from "../support/temp-dir.ts";

const tempDir = tempDirsRemovedAfter(afterEach);

/** `<root>/node_modules/pi-native-subagents/package.json` depending on `names`, as `pi install npm:…` lays it out. */
function installedPackage(root: string, names: string[]): string {
	const dir = join(root, "node_modules", "pi-native-subagents");
	mkdirSync(dir, { recursive: true });
	const dependencies = Object.fromEntries(names.map((name) => [name, "*"]));
	writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "pi-native-subagents", dependencies }));
	return join(dir, "package.json");
}

function dependency(nodeModules: string, name: string, manifest: object | undefined, main = "index.js"): void {
	const dir = join(nodeModules, name);
	mkdirSync(dir, { recursive: true });
	if (manifest) writeFileSync(join(dir, "package.json"), JSON.stringify({ name, ...manifest }));
	writeFileSync(join(dir, main), "module.exports = 1;\n");
}

describe("missingDependencies", () => {
	it("counts a dependency hoisted to an ancestor's node_modules, or in the package's own, as installed", () => {
		const root = tempDir("deps-");
		const manifest = installedPackage(root, ["hoisted-dep", "own-dep"]);
		dependency(join(root, "node_modules"), "hoisted-dep", { main: "index.js" });
		dependency(join(root, "node_modules", "pi-native-subagents", "node_modules"), "own-dep", { main: "index.js" });
		expect(missingDependencies(manifest)).toEqual([]);
	});

	it("counts a dependency that is not there, or whose directory has no package.json and no entry, as missing", () => {
		const root = tempDir("deps-");
		const manifest = installedPackage(root, ["absent-dep", "hollow-dep", "present-dep"]);
		mkdirSync(join(root, "node_modules", "hollow-dep"), { recursive: true });
		dependency(join(root, "node_modules"), "present-dep", { main: "index.js" });
		expect(missingDependencies(manifest)).toEqual(["absent-dep", "hollow-dep"]);
	});

	it("counts a dependency whose exports hide its entry as installed, as Node resolves it", () => {
		const root = tempDir("deps-");
		const manifest = installedPackage(root, ["esm-only-dep"]);
		dependency(join(root, "node_modules"), "esm-only-dep", { exports: { ".": { import: "./index.js" } } });
		expect(missingDependencies(manifest)).toEqual([]);
	});

	it("counts a dependency whose package.json is there but not its entry (an interrupted install) as missing, as Node cannot resolve it", () => {
		const root = tempDir("deps-");
		const manifest = installedPackage(root, ["cut-main-dep", "cut-exports-dep", "whole-dep"]);
		for (const [name, fields] of [
			["cut-main-dep", { main: "lib/main.js" }],
			["cut-exports-dep", { exports: { ".": { require: "./dist/index.cjs", default: "./dist/index.js" } } }],
		] as const) {
			mkdirSync(join(root, "node_modules", name), { recursive: true });
			writeFileSync(join(root, "node_modules", name, "package.json"), JSON.stringify({ name, ...fields }));
		}
		dependency(join(root, "node_modules"), "whole-dep", { exports: { default: "./index.js" } });
		expect(missingDependencies(manifest)).toEqual(["cut-exports-dep", "cut-main-dep"]);
	});

	it("counts a dependency present only as a dangling symlink as missing, and one linked to a whole package as installed", () => {
		const root = tempDir("deps-");
		const manifest = installedPackage(root, ["dangling-dep", "linked-dep"]);
		symlinkSync(join(root, "gone"), join(root, "node_modules", "dangling-dep"));
		dependency(join(root, "store"), "linked-dep", { main: "index.js" });
		symlinkSync(join(root, "store", "linked-dep"), join(root, "node_modules", "linked-dep"));
		expect(missingDependencies(manifest)).toEqual(["dangling-dep"]);
	});

	it("resolves a dependency that has no package.json the way Node does (an index.js is enough)", () => {
		const root = tempDir("deps-");
		const manifest = installedPackage(root, ["bare-dep"]);
		dependency(join(root, "node_modules"), "bare-dep", undefined);
		expect(missingDependencies(manifest)).toEqual([]);
	});
});
