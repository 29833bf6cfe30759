/**
 * Loads the bundle's CommonJS chunks (`dist/runtime/*.cjs`, scripts/build-runtime.mjs) with a V8 code cache of
 * their own (docs/design-notes.md §Start-up cost). Node's compile cache, which Pi turns on, is written when a
 * module is compiled, so it keeps only the code V8 compiled eagerly: every function a call runs is compiled again in
 * each Pi process. A `vm.Script`'s code cache made after the script ran (`script.createCachedData()`) holds the
 * functions compiled by then too, so the next process starts with the call's whole path compiled.
 *
 * - Where: `<bundle dir>/.code-cache/<chunk>.<sha1 of its text>.<V8 version>.<flags>` ({@link flagsKey}), read
 *   only when the directory and the file are this user's and no group or other user can write them
 *   (src/core/owned-directory.mjs), the file a regular one (opened without following a link or waiting on a FIFO)
 *   no larger than {@link maxCacheBytes}; the bundle's own trust applies (SECURITY.md "This package's own code").
 * - What: the SHA-256 of V8's data (32 bytes), then the data. V8 checks only the data's header (its version, flags
 *   and the source's length): a byte changed past it crashes the process in V8's deserializer or changes what
 *   runs, so a file whose digest does not match is refused before V8 sees it.
 * - When written: at the exit of a process that loaded the `runtime-` chunk (it ran a call or a command), for each
 *   chunk it loaded whose cache was missing, untrusted or refused; atomically (a new file beside, never one that
 *   exists or a link, renamed), 0600; any error (a read-only install, a full disk) leaves no file and changes
 *   nothing else. A writer then removes each chunk's files beyond its few newest and a killed writer's partial file
 *   ({@link pruneCacheDir}).
 * - A cache refused (another V8, a damaged file) is ignored and replaced; a chunk of other text has another
 *   file name, so a cache never serves text it was not made from.
 * Imports Node built-ins and owned-directory.mjs only: the package entry imports it before it knows whether the
 * sources or the bundle run.
 */
import { hash } from "node:crypto";
import {
	closeSync,
	constants,
	fstatSync,
	lstatSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	readSync,
	renameSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";
import { ownedDirectory, ownedStats } from "./owned-directory.mjs";

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

/**
 * What a chunk's load made of its code cache: used; none there (or not trusted); or refused, as damaged (its size,
 * its digest) or by V8 (another V8, other flags).
 */
export type CodeCacheUse = "used" | "absent" | "refused";

const STATE_KEY = Symbol.for("pi-native-subagents.bundle-loader");

function state(): LoaderState {
	const store = globalThis as Record<symbol, LoaderState | undefined>;
	store[STATE_KEY] ??= { modules: new Map(), unsaved: new Map(), cacheUse: new Map(), exitHook: false };
	return store[STATE_KEY];
}

/**
 * The flags this Node runs with, as a cache file's name has them: the first 12 hex digits of the SHA-1 of its
 * command line's (`process.execArgv`) and `NODE_OPTIONS`. V8 refuses a cache made under other flags (a
 * `--max-old-space-size` is enough), so processes of two sets of flags sharing one file would replace it in turn.
 */
const flagsKey = (): string =>
	hash("sha1", [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join("\0")).slice(0, 12);

/** `file`'s cache file: named after its text, V8's version and this Node's flags ({@link flagsKey}). */
function cacheFileOf(file: string, bytes: Buffer): string {
	const name = `${basename(file)}.${hash("sha1", bytes)}.${process.versions.v8}.${flagsKey()}`;
	return join(dirname(file), CODE_CACHE_DIR, name);
}

/** The bytes of a cache file's digest of V8's data, which comes after it. */
const DIGEST_BYTES = 32;

/** The digest a cache file starts with: the SHA-256 of V8's `data`. */
const digestOf = (data: Uint8Array): Buffer => hash("sha256", data, "buffer");

/**
 * The largest cache file read for a chunk of `length` characters, in bytes: 16 bytes a character and 64 KiB
 * (V8's data measured at most 3.7 times the text, for a chunk compiled whole, and under 1 KiB of it fixed).
 */
const maxCacheBytes = (length: number): number => 16 * length + 64 * 1024;

/**
 * V8's data in `cacheFile` for a chunk of `length` characters; `"damaged"` when the file is trusted but too large or
 * small for a cache or its digest does not match; `undefined` when there is none or it is not trusted (its
 * directory or itself not this user's and private, a link, not a regular file). Never throws, never blocks.
 */
function readCache(cacheFile: string, length: number): Buffer | "damaged" | undefined {
	if (!ownedDirectory(dirname(cacheFile), true)) return undefined;
	let fd: number;
	try {
		fd = openSync(cacheFile, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
	} catch {
		return undefined;
	}
	try {
		const stat = fstatSync(fd);
		if (!stat.isFile() || !ownedStats(stat, true)) return undefined;
		if (stat.size <= DIGEST_BYTES || stat.size > maxCacheBytes(length)) return "damaged";
		const file = Buffer.allocUnsafe(stat.size);
		for (let at = 0; at < file.length; ) {
			const read = readSync(fd, file, at, file.length - at, at);
			if (read === 0) return "damaged";
			at += read;
		}
		const data = file.subarray(DIGEST_BYTES);
		return digestOf(data).equals(file.subarray(0, DIGEST_BYTES)) ? data : "damaged";
	} catch {
		return undefined;
	} finally {
		closeSync(fd);
	}
}

/**
 * Node's own CommonJS wrapper, on the chunk's first line so that no line number shifts; the script's `columnOffset`
 * takes its length back, so a stack trace names the chunk's own line and column on that line too.
 */
const WRAPPER = "(function (exports, require, module, __filename, __dirname) {";

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
	// Hashed as read: a string would be encoded to UTF-8 again for the hash.
	const bytes = readFileSync(file);
	const text = bytes.toString("utf8");
	const cacheFile = cacheFileOf(file, bytes);
	const cached = readCache(cacheFile, text.length);
	const cachedData = cached === "damaged" ? undefined : cached;
	const script = new Script(`${WRAPPER}${text}\n})`, { filename: file, columnOffset: -WRAPPER.length, cachedData });
	const use: CodeCacheUse =
		cached === "damaged" || script.cachedDataRejected ? "refused" : cachedData ? "used" : "absent";
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
	const written = new Set<string>();
	for (const { script, cacheFile } of loader.unsaved.values()) {
		const dir = dirname(cacheFile);
		const partial = `${cacheFile}.${process.pid}.partial`;
		try {
			mkdirSync(dir, { mode: 0o700 });
		} catch {
			// There already, or not possible: ownedDirectory decides.
		}
		if (!ownedDirectory(dir, true)) break;
		written.add(dir);
		try {
			const data = script.createCachedData();
			// What a killed writer of this pid left, if anything; then a new file only, never through a link.
			rmSync(partial, { force: true });
			writeFileSync(partial, Buffer.concat([digestOf(data), data]), { mode: 0o600, flag: "wx" });
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
	for (const dir of written) pruneCacheDir(dir);
}

/** The most cache files a chunk keeps (of other V8s, other flags, an earlier text): a writer removes the oldest. */
const FILES_PER_CHUNK = 4;
/** How old a partial file is when its writer is surely gone (a write takes milliseconds), in ms: an hour. */
const PARTIAL_STALE_MS = 60 * 60 * 1000;

/**
 * Removes from cache directory `dir` what no process will read: each partial file older than
 * {@link PARTIAL_STALE_MS} (its writer was killed), and each chunk's cache files beyond the {@link FILES_PER_CHUNK}
 * written last (an installed copy is never rebuilt, which would start a new directory). Never throws.
 */
function pruneCacheDir(dir: string, now = Date.now()): void {
	const byChunk = new Map<string, { path: string; mtimeMs: number }[]>();
	const remove = (path: string) => {
		try {
			rmSync(path, { force: true });
		} catch {
			// Gone meanwhile, or not removable: nothing reads it either way.
		}
	};
	try {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const at = entry.name.indexOf(".cjs.");
			if (entry.isDirectory() || at < 0) continue;
			const path = join(dir, entry.name);
			const { mtimeMs } = lstatSync(path);
			if (entry.name.endsWith(".partial")) {
				if (now - mtimeMs > PARTIAL_STALE_MS) remove(path);
				continue;
			}
			const chunk = entry.name.slice(0, at);
			byChunk.set(chunk, [...(byChunk.get(chunk) ?? []), { path, mtimeMs }]);
		}
	} catch {
		return;
	}
	for (const files of byChunk.values())
		for (const { path } of files.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(FILES_PER_CHUNK)) remove(path);
}
