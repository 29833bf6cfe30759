/**
 * Loads the bundle's CommonJS chunks (`dist/runtime/*.cjs`, scripts/build-runtime.mjs) with a V8 code cache of
 * their own (docs/design-notes.md §Start-up cost). Node's compile cache, which Pi turns on, is written when a
 * module is compiled, so it keeps only the code V8 compiled eagerly: every function a call runs is compiled again in
 * each Pi process. A `vm.Script`'s code cache made after the script ran (`script.createCachedData()`) holds the
 * functions compiled by then too, so the next process starts with the call's whole path compiled.
 *
 * - Where: `<bundle dir>/.code-cache/<chunk>.<sha1 of its text>.<V8 version>`, read only from a directory this
 *   user owns that no group or other user can write (src/core/owned-directory.mjs); the bundle's own trust
 *   applies (SECURITY.md "This package's own code").
 * - When written: at the exit of a process that loaded the `runtime-` chunk (it ran a call or a command), for each
 *   chunk it loaded whose cache was missing or refused by V8; atomically (a file beside, renamed), 0600; any
 *   error (a read-only install, a full disk) leaves no file and changes nothing else.
 * - A cache V8 refuses (another V8, a damaged file) is ignored and replaced; a chunk of other text has another
 *   file name, so a cache never serves text it was not made from.
 * Imports Node built-ins and owned-directory.mjs only: the package entry imports it before it knows whether the
 * sources or the bundle run.
 */
import { hash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";
import { ownedDirectory } from "./owned-directory.mjs";

/** The code cache's directory under the bundle's. */
export const CODE_CACHE_DIR = ".code-cache";

/** A chunk's module object, as CommonJS has it. */
interface ChunkModule {
	exports: unknown;
}

/** What this process loaded, kept across `/reload`s (a chunk is evaluated once per process, as Node's `require` does). */
interface LoaderState {
	modules: Map<string, ChunkModule>;
	/** Chunk path → its script and cache file, for the chunks whose cache is to be written at exit. */
	unsaved: Map<string, { script: Script; cacheFile: string }>;
	/** Chunk path → what became of its code cache in this process (for the tests and a curious user). */
	cacheUse: Map<string, CodeCacheUse>;
	exitHook: boolean;
}

/** What a chunk's load made of its code cache: used, none there (or not trusted), or refused by V8. */
export type CodeCacheUse = "used" | "absent" | "refused";

const STATE_KEY = Symbol.for("pi-native-subagents.bundle-loader");

function state(): LoaderState {
	const store = globalThis as Record<symbol, LoaderState | undefined>;
	store[STATE_KEY] ??= { modules: new Map(), unsaved: new Map(), cacheUse: new Map(), exitHook: false };
	return store[STATE_KEY];
}

/** `file`'s cache file: named after its text and V8's version. */
function cacheFileOf(file: string, text: string): string {
	return join(dirname(file), CODE_CACHE_DIR, `${basename(file)}.${hash("sha1", text)}.${process.versions.v8}`);
}

/** The cache in `cacheFile` when its directory is this user's and private, else `undefined`. Never throws. */
function readCache(cacheFile: string): Buffer | undefined {
	if (!ownedDirectory(dirname(cacheFile), true)) return undefined;
	try {
		return readFileSync(cacheFile);
	} catch {
		return undefined;
	}
}

/**
 * Loads chunk `file` (absolute) as CommonJS: evaluated once per process, its `require` of `./<chunk>` loading that
 * chunk the same way and of anything else resolving from the chunk's directory (Node built-ins, the package's
 * dependencies).
 * @returns the chunk's `module.exports`.
 * @throws what reading, compiling or evaluating the chunk throws; a chunk that threw is not kept.
 */
export function loadChunk(file: string): unknown {
	const loader = state();
	const done = loader.modules.get(file);
	if (done) return done.exports;
	const text = readFileSync(file, "utf8");
	const cacheFile = cacheFileOf(file, text);
	const cachedData = readCache(cacheFile);
	// Node's own CommonJS wrapper: the chunk's first line shifts, its line numbers do not.
	const script = new Script(`(function (exports, require, module, __filename, __dirname) {${text}\n})`, {
		filename: file,
		cachedData,
	});
	const use: CodeCacheUse = !cachedData ? "absent" : script.cachedDataRejected ? "refused" : "used";
	loader.cacheUse.set(file, use);
	if (use !== "used") saveAtExit(loader, file, script, cacheFile);
	const module: ChunkModule = { exports: {} };
	loader.modules.set(file, module);
	const nodeRequire = createRequire(file);
	const chunkRequire = (specifier: string) =>
		specifier.startsWith("./") ? loadChunk(join(dirname(file), specifier)) : nodeRequire(specifier);
	try {
		(script.runInThisContext() as (...args: unknown[]) => void)(
			module.exports,
			chunkRequire,
			module,
			file,
			dirname(file),
		);
	} catch (error) {
		loader.modules.delete(file);
		loader.unsaved.delete(file);
		throw error;
	}
	return module.exports;
}

function saveAtExit(loader: LoaderState, file: string, script: Script, cacheFile: string): void {
	loader.unsaved.set(file, { script, cacheFile });
	if (loader.exitHook) return;
	loader.exitHook = true;
	process.once("exit", () => saveCodeCache(loader));
}

/**
 * Writes the cache of each chunk in `loader.unsaved` when this process loaded a `runtime-` chunk; else nothing (a
 * process that made no call would cache less than the next one runs). Never throws.
 */
function saveCodeCache(loader: LoaderState): void {
	if (![...loader.modules.keys()].some((file) => basename(file).startsWith("runtime-"))) return;
	for (const { script, cacheFile } of loader.unsaved.values()) {
		const dir = dirname(cacheFile);
		const partial = `${cacheFile}.${process.pid}.partial`;
		try {
			mkdirSync(dir, { mode: 0o700 });
		} catch {
			// There already, or not possible: ownedDirectory decides.
		}
		if (!ownedDirectory(dir, true)) return;
		try {
			writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
			renameSync(partial, cacheFile);
		} catch {
			try {
				rmSync(partial, { force: true });
			} catch {
				// Nothing more to do: the next process writes it again.
			}
		}
	}
	loader.unsaved.clear();
}
