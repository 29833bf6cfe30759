/**
 * The bundle's chunk loader (src/core/bundle-loader.ts) on chunks of its own: an error a chunk throws names the
 * chunk's file, line and column (also on its first line, where the loader's wrapper stands), and a chunk that
 * threw is evaluated again at its next load, while the chunks it loaded stay loaded. The code cache is covered with
 * the real bundle in test/package/code-cache*.test.ts.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadChunk } from "../../src/core/bundle-loader.ts";
import { tempDirsRemovedAfter } from "../support/temp-dir.ts";

const tempDir = tempDirsRemovedAfter(afterAll);

/** The first stack frame of what `load` throws. */
function firstFrame(load: () => unknown): string {
	try {
		load();
	} catch (error) {
		return String((error as Error).stack).split("\n")[1] ?? "";
	}
	throw new Error("the load did not throw");
}

describe("a chunk that throws while it is evaluated", () => {
	it("names its file, line and column in the stack trace, also on its first line", () => {
		const dir = tempDir("bundle-loader-");
		const first = join(dir, "first.cjs");
		writeFileSync(first, "exports.a = 1; null.first;\n");
		// The property read of `null.first`: column 21 of line 1, as Node's own loader says.
		expect(firstFrame(() => loadChunk(first))).toMatch(`${first}:1:21`);
		const third = join(dir, "third.cjs");
		writeFileSync(third, "exports.a = 1;\n\n  null.third;\n");
		expect(firstFrame(() => loadChunk(third))).toMatch(`${third}:3:8`);
	});

	it("is evaluated again at its next load, with a fresh module, the chunks it required kept", () => {
		const dir = tempDir("bundle-loader-");
		const counter = Symbol.for("bundle-loader-test.evaluations");
		writeFileSync(join(dir, "dep.cjs"), "exports.made = {};\n");
		writeFileSync(
			join(dir, "main.cjs"),
			[
				'const dep = require("./dep.cjs");',
				`const count = (globalThis[Symbol.for(${JSON.stringify(counter.description)})] ??= { n: 0 });`,
				"count.n++;",
				'if (count.n === 1) throw new Error("first evaluation fails");',
				"exports.dep = dep;",
				"exports.n = count.n;",
			].join("\n"),
		);
		expect(() => loadChunk(join(dir, "main.cjs"))).toThrow("first evaluation fails");
		const main = loadChunk(join(dir, "main.cjs")) as { dep: unknown; n: number };
		expect(main.n).toBe(2);
		expect(main.dep).toBe(loadChunk(join(dir, "dep.cjs")));
		// Kept once it ran: not evaluated a third time.
		expect(loadChunk(join(dir, "main.cjs"))).toBe(main);
	});
});
