/**
 * The bundle's code cache under a crashing host and a hostile environment (src/core/bundle-loader.ts,
 * docs/development.md §The bundle): a cache file damaged past V8's header, made by another V8 or under other V8
 * flags, one that is a FIFO, a directory, a symlink, a file others can write or larger than any cache, a cache
 * directory that is a symlink, two processes writing at once, a killed writer's leftover and a full disk. Each case runs real calls (a real pi child against the fake model) through the load probe, in a copy
 * of the package with its bundle; the call must run, and what the cache held must never run in place of the chunk.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
	chmodSync,
	copyFileSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	symlinkSync,
	truncateSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { cacheDir, cacheFileOf, cacheFiles, codeCacheHooks, freshCopy } from "../support/code-cache-copy.ts";
import { canMountTmpfs, mountFullDisk } from "../support/full-disk.ts";
import { holdSubagentCall } from "../support/probe-call.ts";

const fixture = codeCacheHooks();
const call = fixture.call;

/** A package copy whose code cache a first call wrote, and the cache file of its entry chunk. */
async function cachedCopy(): Promise<{ copy: string; entryCache: string }> {
	const copy = freshCopy();
	await call(copy);
	return { copy, entryCache: cacheFileOf(copy, "extension.cjs.") };
}

describe("the bundle's code cache, damaged", () => {
	it("is refused when a byte past V8's header changed (V8 checks only the header): the chunk runs without it", async () => {
		const copy = freshCopy();
		await call(copy);
		// The largest cache: most of its bytes are V8's serialized code, which V8 deserializes unchecked.
		const file = cacheFileOf(copy, "runtime-");
		const damaged = readFileSync(file);
		damaged[damaged.length >> 1] ^= 0xff;
		writeFileSync(file, damaged);
		const after = await call(copy);
		const runtime = Object.keys(after.codeCache).find((name) => name.startsWith("runtime-")) ?? "runtime-";
		expect(after.codeCache[runtime]).toBe("refused");
		// Written again at that exit, and used by the next process.
		expect(readFileSync(file).equals(damaged)).toBe(false);
		expect((await call(copy)).codeCache[runtime]).toBe("used");
	});

	it("is refused unread when the file is larger than any cache of its chunk (a 1 GiB file)", async () => {
		const { copy, entryCache } = await cachedCopy();
		truncateSync(entryCache, 1024 ** 3);
		const after = await call(copy);
		expect(after.codeCache["extension.cjs"]).toBe("refused");
		// Reading it would have held the whole GiB.
		expect(after.maxRss).toBeLessThan(768 * 1024);
		expect(statSync(entryCache).size).toBeLessThan(1024 ** 2);
	});
});

describe("a code cache made by another V8", () => {
	it("is refused by V8 when its header names another V8 (its digest matching), and is written again", async () => {
		const { copy, entryCache } = await cachedCopy();
		// V8's data after the 32-byte digest: its header's second word is the hash of the V8 version that made it.
		const file = readFileSync(entryCache);
		const data = file.subarray(32);
		data.writeUInt32LE(data.readUInt32LE(4) ^ 0x5a5a5a5a, 4);
		writeFileSync(entryCache, Buffer.concat([createHash("sha256").update(data).digest(), data]));
		const after = await call(copy);
		expect(after.codeCache["extension.cjs"]).toBe("refused");
		expect((await call(copy)).codeCache["extension.cjs"]).toBe("used");
	});

	it("with other V8 flags (NODE_OPTIONS) is kept beside the one of these: processes of either flags use their own", async () => {
		const copy = freshCopy();
		// V8 refuses a cache made under other flags: a shared file would be replaced by each in turn.
		const flagged = { NODE_OPTIONS: "--max-old-space-size=3000" };
		await call(copy);
		const other = await call(copy, flagged);
		expect(new Set(Object.values(other.codeCache))).toEqual(new Set(["absent"]));
		expect(new Set(Object.values((await call(copy)).codeCache))).toEqual(new Set(["used"]));
		expect(new Set(Object.values((await call(copy, flagged)).codeCache))).toEqual(new Set(["used"]));
	});
});

describe("a code cache file that is not a private file of this user's", () => {
	it("does not hang the load when it is a FIFO: the chunk runs without it, and a cache file replaces it", async () => {
		const { copy, entryCache } = await cachedCopy();
		rmSync(entryCache);
		execFileSync("mkfifo", [entryCache]);
		const after = await call(copy);
		expect(after.codeCache["extension.cjs"]).toBe("absent");
		expect(lstatSync(entryCache).isFile()).toBe(true);
		expect((await call(copy)).codeCache["extension.cjs"]).toBe("used");
	});

	it("is not read when it is a directory, which stays: the chunk runs without a cache, the others keep theirs", async () => {
		const { copy, entryCache } = await cachedCopy();
		rmSync(entryCache);
		mkdirSync(entryCache, { mode: 0o700 });
		const after = await call(copy);
		expect(Object.entries(after.codeCache).filter(([, use]) => use !== "used")).toEqual([["extension.cjs", "absent"]]);
		expect(lstatSync(entryCache).isDirectory()).toBe(true);
		expect(readdirSync(cacheDir(copy)).filter((name) => name.includes(".partial"))).toEqual([]);
	});

	it("is not followed when it is a symlink, even to a good cache: the chunk runs without it", async () => {
		const { copy, entryCache } = await cachedCopy();
		const outside = join(fixture.home.dir, "outside-cache");
		copyFileSync(entryCache, outside);
		const good = readFileSync(outside);
		rmSync(entryCache);
		symlinkSync(outside, entryCache);
		const after = await call(copy);
		expect(after.codeCache["extension.cjs"]).toBe("absent");
		// Replaced by a file of its own, the link's target untouched.
		expect(lstatSync(entryCache).isFile()).toBe(true);
		expect(readFileSync(outside).equals(good)).toBe(true);
		rmSync(outside);
	});

	it("is not read when others can write it (in a directory they can enter), and is replaced by a private one", async () => {
		const { copy, entryCache } = await cachedCopy();
		chmodSync(cacheDir(copy), 0o755);
		chmodSync(entryCache, 0o666);
		const after = await call(copy);
		expect(after.codeCache["extension.cjs"]).toBe("absent");
		expect(statSync(entryCache).mode & 0o777).toBe(0o600);
	});

	it("is neither read nor written through a cache directory that is a symlink to a private one of this user's", async () => {
		const copy = freshCopy();
		await call(copy);
		const elsewhere = join(fixture.home.dir, "cache-elsewhere");
		renameSync(cacheDir(copy), elsewhere);
		symlinkSync(elsewhere, cacheDir(copy));
		const before = cacheFiles(copy);
		const after = await call(copy);
		expect(new Set(Object.values(after.codeCache))).toEqual(new Set(["absent"]));
		expect(cacheFiles(copy)).toEqual(before);
		rmSync(cacheDir(copy));
		rmSync(elsewhere, { recursive: true });
	});
});

describe("code cache writers", () => {
	it("that run at once each write whole files: the next process uses every cache, no partial file is left", async () => {
		const copy = freshCopy();
		await Promise.all([call(copy), call(copy)]);
		expect(readdirSync(cacheDir(copy)).filter((name) => name.includes(".partial"))).toEqual([]);
		const next = await call(copy);
		expect(new Set(Object.values(next.codeCache))).toEqual(new Set(["used"]));
	});

	it("write a new file: one a killed writer of the same pid left, a FIFO or a link, is replaced, never written through", async () => {
		const copy = freshCopy();
		await call(copy);
		const names = readdirSync(cacheDir(copy));
		for (const name of names) rmSync(join(cacheDir(copy), name));
		const held = await holdSubagentCall(join(copy, "index.ts"), fixture.home, { agent: "echo", task: "cached" });
		// Where this process writes each cache before its rename: a FIFO (an open to write it waits for a reader),
		// then links to a file outside.
		const outside = join(fixture.home.dir, "outside-partial");
		writeFileSync(outside, "not a cache\n");
		const partials = names.map((name) => join(cacheDir(copy), `${name}.${held.pid}.partial`));
		execFileSync("mkfifo", [partials[0]]);
		for (const partial of partials.slice(1)) symlinkSync(outside, partial);
		const probe = await held.release();
		expect(probe.result).toContain("echo: cached");
		expect(readFileSync(outside, "utf8")).toBe("not a cache\n");
		expect(readdirSync(cacheDir(copy)).sort()).toEqual([...names].sort());
		for (const name of names) expect(lstatSync(join(cacheDir(copy), name)).isFile()).toBe(true);
		expect(new Set(Object.values((await call(copy)).codeCache))).toEqual(new Set(["used"]));
		rmSync(outside);
	});

	it("keep each chunk's four newest cache files, and remove a partial file its writer left over an hour ago", async () => {
		const { copy, entryCache } = await cachedCopy();
		const dir = cacheDir(copy);
		const hoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
		const planted = (name: string, when: Date) => {
			writeFileSync(join(dir, name), "planted\n", { mode: 0o600 });
			utimesSync(join(dir, name), when, when);
			return name;
		};
		// Caches of V8s and flags gone by (what an installed copy, never rebuilt, gathers); a killed writer's partial
		// file; one a writer is writing now.
		const old = [1, 2, 3, 4, 5].map((n) =>
			planted(`extension.cjs.${"0".repeat(40)}.${n}.0.0.${"0".repeat(12)}`, hoursAgo),
		);
		const killed = planted(`${basename(entryCache)}.999999.partial`, hoursAgo);
		const writing = planted(`${basename(entryCache)}.999998.partial`, new Date());
		rmSync(entryCache);
		await call(copy);
		const left = readdirSync(dir);
		expect(left.filter((name) => name.startsWith("extension.cjs.") && !name.endsWith(".partial"))).toHaveLength(4);
		expect(left).toContain(basename(entryCache));
		expect(left.filter((name) => old.includes(name))).toHaveLength(3);
		expect(left).not.toContain(killed);
		expect(left).toContain(writing);
	});

	it.runIf(canMountTmpfs())("on a full disk leave no file, and the call runs as it does without a cache", async () => {
		const copy = freshCopy();
		mkdirSync(cacheDir(copy), { mode: 0o700 });
		const disk = mountFullDisk({ fill: false });
		try {
			execFileSync("mount", ["--bind", disk.dir, cacheDir(copy)], { stdio: "pipe" });
			try {
				disk.fill();
				const first = await call(copy);
				expect(new Set(Object.values(first.codeCache))).toEqual(new Set(["absent"]));
				expect(readdirSync(cacheDir(copy))).toEqual([".filler"]);
			} finally {
				execFileSync("umount", [cacheDir(copy)], { stdio: "pipe" });
			}
		} finally {
			disk.unmount();
		}
	});
});
