/**
 * The prebuilt bundle of the whole extension (`dist/runtime/`, built from src/index.ts by
 * `scripts/build-runtime.mjs`): used only when it is fresh, that is when the sources have as many files and bytes
 * as at the build and none is newer than the newest one then (an npm tarball gives every file one old mtime, which
 * passes; an edit or a checkout makes it stale, and so does a file of another size restored with an old mtime). An
 * installed copy (inside `node_modules`) is not checked against its sources. Its CommonJS chunks are loaded by
 * src/core/bundle-loader.ts with a V8 code cache of their own, so Pi's loader (jiti) compiles none of it
 * (docs/design-notes.md §Start-up cost). Imports nothing but Node built-ins and the loader: the package entry
 * (index.ts) imports it before it knows whether the sources or the bundle run.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { loadChunk } from "./bundle-loader.ts";

/** The bundle's directory and files under the package root. */
export const BUNDLE_DIR = join("dist", "runtime");
export const BUNDLE_ENTRY = "extension.cjs";
export const BUNDLE_MANIFEST = "manifest.json";

/** What the build records of `src/`: its file count, their total size in bytes, the newest file's mtime (ms since the epoch). */
export interface SourceStamp {
	files: number;
	bytes: number;
	newestMtimeMs: number;
}

/**
 * The stamp of every file under `srcDir` (recursive). Throws what `readdirSync`/`statSync` throw. A walk of
 * its own: `readdirSync`'s `recursive` option costs about four times as much CPU here (the check runs in every
 * Pi process that loads the package).
 */
export function sourceStamp(
	srcDir: string,
	stamp: SourceStamp = { files: 0, bytes: 0, newestMtimeMs: 0 },
): SourceStamp {
	for (const entry of readdirSync(srcDir, { withFileTypes: true })) {
		const path = join(srcDir, entry.name);
		if (entry.isDirectory()) sourceStamp(path, stamp);
		else if (entry.isFile()) {
			stamp.files++;
			const stats = statSync(path);
			stamp.bytes += stats.size;
			stamp.newestMtimeMs = Math.max(stamp.newestMtimeMs, stats.mtimeMs);
		}
	}
	return stamp;
}

/** The manifest a build writes: the stamp of the sources and the size of each file it wrote, in bytes. */
export interface BundleManifest extends SourceStamp {
	output: Record<string, number>;
}

/**
 * The bundle's directory and manifest under package `root` when a bundle exists and is fresh for `root/src`, else
 * `undefined` (missing, unreadable or malformed manifest, stale sources, or a `dist/` that is a link to another
 * checkout's: its modules would name that checkout's files, and its manifest stamps that checkout's sources).
 * Never throws.
 */
function freshBundle(root: string): { dir: string; manifest: BundleManifest } | undefined {
	const dir = join(root, BUNDLE_DIR);
	try {
		const realRoot = realpathSync(root);
		if (!existsSync(join(dir, BUNDLE_ENTRY)) || realpathSync(dir) !== join(realRoot, BUNDLE_DIR)) return undefined;
		const built = JSON.parse(readFileSync(join(dir, BUNDLE_MANIFEST), "utf8")) as Partial<BundleManifest>;
		const matches = (now: SourceStamp) =>
			built.files === now.files &&
			built.bytes === now.bytes &&
			typeof built.newestMtimeMs === "number" &&
			now.newestMtimeMs <= built.newestMtimeMs;
		const fresh =
			(installedCopy(realRoot) || matches(sourceStamp(join(root, "src")))) &&
			typeof built.output === "object" &&
			built.output !== null;
		return fresh ? { dir, manifest: built as BundleManifest } : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Whether the package at real path `realRoot` is an installed copy: one inside a `node_modules` directory, where
 * npm (and so `pi install npm:…`) unpacks the package with the bundle it was published with and nothing edits the
 * sources. Its sources are not walked (the walk costs a few ms of every Pi start); a checkout's always are.
 */
function installedCopy(realRoot: string): boolean {
	return realRoot.split(sep).includes("node_modules");
}

/** The bundle entry's path under package `root` when the bundle is fresh (`freshBundle`), else `undefined`. */
export function freshBundleEntry(root: string): string | undefined {
	return checkBundle(root)?.entry;
}

/**
 * The fresh bundle under package `root`: its entry's path, and `damaged` when a file of it is damaged
 * ({@link damagedFile}); `undefined` when there is no fresh bundle. Never throws.
 */
export function checkBundle(root: string): { entry: string; damaged?: string } | undefined {
	const fresh = freshBundle(root);
	if (!fresh) return undefined;
	const damaged = damagedFile(fresh.dir, fresh.manifest.output);
	return { entry: join(fresh.dir, BUNDLE_ENTRY), ...(damaged ? { damaged } : {}) };
}

/**
 * What is wrong with the files of bundle directory `dir` against the sizes its build wrote (`output`): the first
 * one missing or of another size (a truncated copy, a full disk), as a phrase naming it; else `undefined`.
 */
export function damagedFile(dir: string, output: Record<string, number>): string | undefined {
	for (const [name, size] of Object.entries(output)) {
		const file = join(dir, name);
		let actual: number;
		try {
			actual = statSync(file).size;
		} catch {
			return `${file} is missing`;
		}
		if (actual !== size) return `${file} has ${actual} bytes where its build wrote ${size}`;
	}
	return undefined;
}

/**
 * Where the bundle reads the peer packages from: the bundle never imports `PEER_PACKAGES` itself (an installed
 * pi package may not resolve them, and it must use Pi's own instances); each is a module of the bundle that
 * reads its exports from this global, which the package entry fills before it loads the bundle.
 */
export const PEERS_KEY = Symbol.for("pi-native-subagents.peers");
/** The peer packages, as the sources import them (package.json `peerDependencies`). */
export const PEER_PACKAGES = [
	"@earendil-works/pi-coding-agent",
	"@earendil-works/pi-tui",
	"@earendil-works/pi-ai",
	"typebox",
] as const;

/** Module specifier of each of {@link PEER_PACKAGES} → its namespace object, as Pi's loader resolved it. */
export type Peers = Readonly<Record<(typeof PEER_PACKAGES)[number], object>>;

/** What {@link loadFreshBundle} found: the bundle's entry module, or why the sources run instead. */
export type BundleLoad<T> = { module: T; problem?: undefined } | { module?: undefined; problem?: string };

/**
 * The fresh bundle's entry module under `root`, loaded by src/core/bundle-loader.ts with `peers` handed over; `{}` when there is no
 * fresh bundle ({@link freshBundleEntry}); `{ problem }` when a file of it is damaged ({@link damagedFile}) or
 * loading it throws (a corrupt file, a bundle that expects other peers): a line naming the file or the entry and
 * the error, and the caller runs the sources. Never throws.
 */
export function loadFreshBundle<T>(root: string, peers: Peers): BundleLoad<T> {
	const bundle = checkBundle(root);
	if (!bundle) return {};
	const { entry, damaged } = bundle;
	if (damaged) return { problem: `pi-native-subagents: the bundle is damaged (${damaged}); running from the sources` };
	(globalThis as Record<symbol, unknown>)[PEERS_KEY] = peers;
	try {
		return { module: loadChunk(entry) as T };
	} catch (error) {
		const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
		return { problem: `pi-native-subagents: the bundle ${entry} failed to load (${reason}); running from the sources` };
	}
}

/** The bundle problems reported so far in this process, kept across `/reload`s (each load tries the bundle again). */
const REPORTED_KEY = Symbol.for("pi-native-subagents.bundle-problems-reported");

/** Whether `problem` ({@link loadFreshBundle}) is reported for the first time in this process; records it. */
export function firstReport(problem: string): boolean {
	const store = globalThis as Record<symbol, Set<string> | undefined>;
	store[REPORTED_KEY] ??= new Set();
	const reported = store[REPORTED_KEY];
	if (reported.has(problem)) return false;
	reported.add(problem);
	return true;
}
