/**
 * Keeps the layering of docs/architecture.md true: every import between two folders of `src/` points
 * down the floors below, nothing imports `src/index.ts`, `core/` imports nothing of the package, no
 * file-level import cycle exists and source files stay short. Type-only imports count as arrows too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { functionLengths } from "./support/function-lengths.ts";

/**
 * The floors of `src/`, top first. A folder may import its own files and any folder on a lower floor;
 * folders on one floor do not import each other. `ui` sits right above `core`: it reads only the core
 * vocabulary, and the tools call it.
 */
const FLOORS: readonly (readonly string[])[] = [
	["tools"],
	["graph"],
	["launch", "interactive"],
	["config", "harness"],
	["runs"],
	["process", "sessions"],
	["ui"],
	["core"],
];

/** Longest source file, lines (one concern per file). */
const MAX_LINES = 300;
/** Longest function, lines from its first token to its end (nested functions count in their outer one). */
const MAX_FUNCTION_LINES = 80;
/**
 * Functions allowed over MAX_FUNCTION_LINES because they are one flat `switch` mapping (one case per
 * record or event type, nothing else), as `file#name`.
 */
const FLAT_SWITCH_MAPPINGS = new Set<string>([]);

const SRC = resolve(import.meta.dirname, "../src");

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith(".ts") ? [path] : [];
	});
}

/** Relative imports of one file (static, re-exports and dynamic `import()`), as paths relative to `src/`. */
function importsOf(file: string): string[] {
	const text = readFileSync(file, "utf8");
	const specifiers = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
	return specifiers.map((specifier) => relative(SRC, resolve(dirname(file), specifier)));
}

/** `src/` relative path → its folder, or `""` for a file at the top (only `index.ts`). */
function folderOf(path: string): string {
	return path.includes("/") ? path.slice(0, path.indexOf("/")) : "";
}

function floorOf(folder: string): number {
	const floor = FLOORS.findIndex((names) => names.includes(folder));
	if (floor === -1) throw new Error(`src/${folder}/ has no floor: add it to FLOORS in test/architecture.test.ts`);
	return floor;
}

const graph = new Map(sourceFiles(SRC).map((file) => [relative(SRC, file), importsOf(file)]));

/** Every import running against the floors, as `from → to` lines. */
function upwardArrows(): string[] {
	const wrong: string[] = [];
	for (const [from, targets] of graph) {
		const fromFolder = folderOf(from);
		for (const to of targets) {
			const toFolder = folderOf(to);
			if (toFolder === "") {
				wrong.push(`${from} → ${to} (nothing imports the wiring file)`);
				continue;
			}
			if (fromFolder === "" || fromFolder === toFolder) continue;
			if (floorOf(toFolder) <= floorOf(fromFolder)) wrong.push(`${from} → ${to}`);
		}
	}
	return wrong;
}

/** One file-level import cycle, as a list of files, or `undefined` when there is none. */
function findCycle(): string[] | undefined {
	const state = new Map<string, "open" | "done">();
	const stack: string[] = [];
	const visit = (file: string): string[] | undefined => {
		if (state.get(file) === "done") return undefined;
		if (state.get(file) === "open") return [...stack.slice(stack.indexOf(file)), file];
		state.set(file, "open");
		stack.push(file);
		for (const next of graph.get(file) ?? []) {
			const cycle = visit(next);
			if (cycle) return cycle;
		}
		stack.pop();
		state.set(file, "done");
		return undefined;
	};
	for (const file of graph.keys()) {
		const cycle = visit(file);
		if (cycle) return cycle;
	}
	return undefined;
}

describe("architecture of src/", () => {
	it("reads every source file and finds imports", () => {
		expect(graph.size).toBeGreaterThan(40);
		expect(graph.get("index.ts")?.length).toBeGreaterThan(5);
	});

	it("gives every folder of src/ a floor", () => {
		const folders = new Set([...graph.keys()].map(folderOf).filter((folder) => folder !== ""));
		for (const folder of folders) expect(() => floorOf(folder), folder).not.toThrow();
	});

	it("points every import between folders down the floors", () => {
		expect(upwardArrows()).toEqual([]);
	});

	it("keeps core free of imports from the rest of the package", () => {
		const outward = [...graph]
			.filter(([from]) => folderOf(from) === "core")
			.flatMap(([from, targets]) => targets.filter((to) => folderOf(to) !== "core").map((to) => `${from} → ${to}`));
		expect(outward).toEqual([]);
	});

	it(`keeps every source file within ${MAX_LINES} lines`, () => {
		const long = [...graph.keys()].filter((file) => {
			const lines = readFileSync(join(SRC, file), "utf8").split("\n").length - 1;
			return lines > MAX_LINES;
		});
		expect(long).toEqual([]);
	});

	it(`keeps every function within ${MAX_FUNCTION_LINES} lines, except flat switch mappings`, () => {
		const functions = functionLengths([...graph.keys()].map((file) => join(SRC, file)));
		expect(functions.length).toBeGreaterThan(100);
		const long = functions
			.map((fn) => ({ ...fn, id: `${relative(SRC, fn.file)}#${fn.name}` }))
			.filter((fn) => fn.lines > MAX_FUNCTION_LINES && !FLAT_SWITCH_MAPPINGS.has(fn.id))
			.map((fn) => `${fn.id} (line ${fn.line}): ${fn.lines} lines`);
		expect(long).toEqual([]);
	}, 60_000);

	it("has no file-level import cycle", () => {
		expect(findCycle()).toBeUndefined();
	});
});
