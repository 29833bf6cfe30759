/**
 * The bundle's code cache (src/core/bundle-loader.ts, docs/development.md §The bundle): a process that ran a call
 * caches every chunk it loaded, the next one uses those caches, and a cache that is damaged, stale, in a directory
 * others can write or impossible to write never changes what runs. Each case runs a real call (a real pi child
 * against the fake model) through the load probe, in a copy of the package with its bundle.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLE_DIR, BUNDLE_MANIFEST } from "../../src/core/native-bundle.ts";
import { cacheDir, cacheFiles, codeCacheHooks, freshCopy } from "../support/code-cache-copy.ts";
import { createPiHome } from "../support/pi-home.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const fixture = codeCacheHooks();
const call = fixture.call;

/** Rewrites bundle file `name` of `root` with `text`, its manifest agreeing (a build that wrote it so). */
function rewriteChunk(root: string, name: string, text: string): void {
	const dir = join(root, BUNDLE_DIR);
	writeFileSync(join(dir, name), text);
	const manifest = JSON.parse(readFileSync(join(dir, BUNDLE_MANIFEST), "utf8"));
	manifest.output[name] = Buffer.byteLength(text);
	writeFileSync(join(dir, BUNDLE_MANIFEST), JSON.stringify(manifest));
}

describe("the bundle's code cache", () => {
	it("is written at the exit of a process that ran a call, for each chunk it loaded, and used by the next", async () => {
		const copy = freshCopy();
		const first = await call(copy);
		const chunks = Object.keys(first.codeCache);
		expect(chunks).toEqual(expect.arrayContaining(["extension.cjs", expect.stringMatching(/^runtime-.*\.cjs$/)]));
		expect(new Set(Object.values(first.codeCache))).toEqual(new Set(["absent"]));
		const written = cacheFiles(copy);
		// One file a chunk, named after the chunk, its text, V8's version and this Node's flags; private.
		expect(Object.keys(written).map((name) => name.slice(0, name.indexOf(".cjs.") + 4))).toEqual(
			expect.arrayContaining(chunks),
		);
		expect(Object.keys(written)).toHaveLength(chunks.length);
		for (const name of Object.keys(written))
			expect(name).toMatch(
				new RegExp(`\\.cjs\\.[0-9a-f]{40}\\.${process.versions.v8.replaceAll(".", "\\.")}\\.[0-9a-f]{12}$`),
			);
		expect(statSync(cacheDir(copy)).mode & 0o777).toBe(0o700);
		for (const name of Object.keys(written)) expect(statSync(join(cacheDir(copy), name)).mode & 0o777).toBe(0o600);
		const second = await call(copy);
		expect(second.codeCache).toEqual(Object.fromEntries(chunks.map((chunk) => [chunk, "used"])));
		// Used, not written again.
		expect(cacheFiles(copy)).toEqual(written);
	});

	it("is not written by a process that never loaded the runtime (no call, nothing to retain)", async () => {
		const copy = freshCopy();
		// A home of its own: in one with child sessions, the session start loads the runtime for their retention.
		const quiet = createPiHome(fixture.server, {});
		const work = join(quiet.dir, "work");
		mkdirSync(work, { recursive: true });
		try {
			await new Promise<void>((resolve, reject) =>
				execFile(
					join(ROOT, "node_modules", ".bin", "node"),
					[join(ROOT, "test", "support", "load-probe.mjs"), join(copy, "index.ts"), "--session-start", work],
					{ env: { PATH: process.env.PATH, ...quiet.env, TMPDIR: quiet.dir } },
					(error) => (error ? reject(error) : resolve()),
				),
			);
		} finally {
			await quiet.cleanup();
		}
		expect(() => statSync(cacheDir(copy))).toThrow(/ENOENT/);
	});

	it("is refused when damaged: the chunk runs without it and the cache is written again", async () => {
		const copy = freshCopy();
		await call(copy);
		const dir = cacheDir(copy);
		const entryCache = readdirSync(dir).find((name) => name.startsWith("extension.cjs."));
		if (!entryCache) throw new Error("no cache of the entry");
		const good = readFileSync(join(dir, entryCache));
		writeFileSync(join(dir, entryCache), Buffer.alloc(good.length, 7));
		const damaged = await call(copy);
		expect(damaged.codeCache["extension.cjs"]).toBe("refused");
		expect(readFileSync(join(dir, entryCache)).equals(Buffer.alloc(good.length, 7))).toBe(false);
		expect((await call(copy)).codeCache["extension.cjs"]).toBe("used");
	});

	it("is not taken by a chunk whose text changed, even to the same length", async () => {
		const copy = freshCopy();
		await call(copy);
		const text = readFileSync(join(copy, BUNDLE_DIR, "extension.cjs"), "utf8");
		// The same number of characters, another program: the old cache must not run in its place.
		const edited = text.replace('{ value: "Module" }', '{ value: "Modulf" }');
		expect(edited).not.toBe(text);
		expect(edited).toHaveLength(text.length);
		rewriteChunk(copy, "extension.cjs", edited);
		const after = await call(copy);
		expect(after.codeCache["extension.cjs"]).toBe("absent");
		expect(Object.keys(cacheFiles(copy)).filter((name) => name.startsWith("extension.cjs."))).toHaveLength(2);
	});

	it("is neither read nor written in a directory other users can write", async () => {
		const copy = freshCopy();
		await call(copy);
		const before = cacheFiles(copy);
		chmodSync(cacheDir(copy), 0o777);
		const open = await call(copy);
		expect(new Set(Object.values(open.codeCache))).toEqual(new Set(["absent"]));
		expect(cacheFiles(copy)).toEqual(before);
	});

	it("that cannot be written (its directory's name taken by a file) leaves the call as it was", async () => {
		const copy = freshCopy();
		writeFileSync(cacheDir(copy), "not a directory\n");
		const first = await call(copy);
		expect(new Set(Object.values(first.codeCache))).toEqual(new Set(["absent"]));
		expect(readFileSync(cacheDir(copy), "utf8")).toBe("not a directory\n");
		expect(readdirSync(join(copy, BUNDLE_DIR)).filter((name) => name.includes(".partial"))).toEqual([]);
		rmSync(cacheDir(copy));
	});
});
