/**
 * Package copies for the code cache tests (test/package/code-cache*.test.ts): a copy with its bundle and no code
 * cache yet, its cache directory and files, and one real call through the load probe (src/core/bundle-loader.ts)
 * against a fake model server the test file shares.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { CODE_CACHE_DIR } from "../../src/core/bundle-loader.ts";
import { BUNDLE_DIR } from "../../src/core/native-bundle.ts";
import { type FakeModelServer, startFakeModelServer } from "./fake-model/index.ts";
import { packageCopy, removePackageCopies } from "./package-copy.ts";
import { createPiHome, type PiHome } from "./pi-home.ts";
import { type ProbeCall, probeSubagentCall } from "./probe-call.ts";

/** The code cache directory of package copy `root`. */
export const cacheDir = (root: string): string => join(root, BUNDLE_DIR, CODE_CACHE_DIR);

/** A copy of the package with its bundle and no code cache yet (this checkout's runs may have written one). */
export function freshCopy(): string {
	const copy = packageCopy(true);
	rmSync(cacheDir(copy), { recursive: true, force: true });
	return copy;
}

/** The cache files of `root`, name → size in bytes. */
export function cacheFiles(root: string): Record<string, number> {
	const dir = cacheDir(root);
	return Object.fromEntries(readdirSync(dir).map((name) => [name, statSync(join(dir, name)).size]));
}

/** The cache file of chunk `prefix` (`extension.cjs`, `runtime-`) in `root`'s cache directory. */
export function cacheFileOf(root: string, prefix: string): string {
	const name = readdirSync(cacheDir(root)).find((file) => file.startsWith(prefix) && !file.endsWith(".partial"));
	if (!name) throw new Error(`no cache file of ${prefix} in ${cacheDir(root)}`);
	return join(cacheDir(root), name);
}

/** One call through the probe of package `root` with pi home `home` (and `env` over it); it answered through its child. */
export async function cachedCall(root: string, home: PiHome, env: Record<string, string> = {}): Promise<ProbeCall> {
	const probe = await probeSubagentCall(join(root, "index.ts"), home, { agent: "echo", task: "cached" }, env);
	expect(probe.result).toContain("echo: cached");
	return probe;
}

/** What {@link codeCacheHooks} made for a test file: valid in its tests, after its `beforeAll`. */
export interface CodeCacheFixture {
	server: FakeModelServer;
	/** A pi home with agent `echo`. */
	home: PiHome;
	/** {@link cachedCall} with that home. */
	call(root: string, env?: Record<string, string>): Promise<ProbeCall>;
}

/**
 * Registers the test file's hooks: a fake model server and a pi home before its tests; after them, its package
 * copies, the home and the server removed (every probe has exited by then: each call awaited it).
 */
export function codeCacheHooks(): CodeCacheFixture {
	const fixture = {
		call: (root: string, env?: Record<string, string>) => cachedCall(root, fixture.home, env),
	} as CodeCacheFixture;
	beforeAll(async () => {
		fixture.server = await startFakeModelServer({ fallback: "rules" });
		fixture.home = createPiHome(fixture.server, {
			agents: { echo: { description: "Answers plainly", body: "You answer plainly." } },
		});
	});
	afterAll(async () => {
		removePackageCopies();
		await fixture.home.cleanup();
		await fixture.server.close();
	});
	return fixture;
}
