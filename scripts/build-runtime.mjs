/**
 * Builds the bundle of the whole extension, `dist/runtime/` (gitignored), from `src/index.ts`: one CommonJS entry
 * and a chunk per deferred part, which the package entry (index.ts) loads with src/core/bundle-loader.ts instead of the sources
 * through Pi's loader when it is fresh (src/core/native-bundle.ts, docs/design-notes.md §Start-up cost). The peer
 * packages become modules that read Pi's instances from the global the entry fills (`PEERS_KEY`); every other
 * package stays an import resolved from the package;
 * `import.meta.url` and `import.meta.dirname` of each module name its source file, so paths relative to it hold.
 * Usage: node scripts/build-runtime.mjs [--if-stale: only when there is no fresh, undamaged bundle]   (exit 0, also without rolldown; 1 with the build's error)
 * Runs from `prepare` (npm ci, git installs) and the test setup (test/support/build-runtime.ts).
 */
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import {
	BUNDLE_DIR,
	BUNDLE_MANIFEST,
	checkBundle,
	PEER_PACKAGES,
	PEERS_KEY,
	sourceStamp,
} from "../src/core/native-bundle.ts";
import { DATA_MODULES, dataModule } from "./data-modules.mjs";
import { carryOverChunks, removeLeftovers, swapIn } from "./swap-bundle.mjs";

const ROOT = join(import.meta.dirname, "..");
const SRC = join(ROOT, "src");
const PEERS = [...PEER_PACKAGES];
const PEER_PREFIX = "\0pi-native-subagents-peer:";
const OUT = join(ROOT, BUNDLE_DIR);
/** The data modules (scripts/data-modules.mjs), absolute: the bundle holds their values. */
const DATA = new Set(DATA_MODULES.map((path) => join(ROOT, path)));
/**
 * The bundle's entry: every peer module first, then src/index.ts. Each peer module reads the global once, when the
 * bundle is evaluated (a missing peer throws then, and the sources run instead); a deferred chunk that holds one
 * does not read the global again at its first use, when another load may have replaced it.
 */
const ENTRY_ID = "\0pi-native-subagents-entry";
const entryModule = () =>
	[
		...PEERS.map((peer) => `import ${JSON.stringify(PEER_PREFIX + peer)};`),
		`export { default } from ${JSON.stringify(join(SRC, "index.ts"))};`,
	].join("\n");

/** The module standing in for peer `specifier`: each of its export names read from the handed-over instance. */
async function peerModule(specifier) {
	const names = Object.keys(await import(specifier)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
	const lines = [
		`const instance = globalThis[Symbol.for(${JSON.stringify(PEERS_KEY.description)})]?.[${JSON.stringify(specifier)}];`,
		`if (!instance) throw new Error(${JSON.stringify(`pi-native-subagents: bundle: peer package ${specifier} was not handed over`)});`,
	];
	// One pure call a name: a name no module uses is dropped with its read, each a property read through the
	// module proxy of Pi's loader (about 2.5 ms for the 337 names the extension's load does not use).
	lines.push("const read = (name) => instance[name];");
	names.forEach((name, index) => {
		lines.push(`const e${index} = /* @__PURE__ */ read(${JSON.stringify(name)});`);
		lines.push(`export { e${index} as ${name} };`);
	});
	return lines.join("\n");
}

/** `import.meta.url`/`dirname` of source file `id`, rewritten relative to the chunk (every chunk sits in OUT). */
function rewriteImportMeta(code, id) {
	const rel = relative(OUT, id).split(sep).join("/");
	const relDir = relative(OUT, dirname(id)).split(sep).join("/");
	return code
		.replaceAll("import.meta.url", `new URL(${JSON.stringify(rel)}, import.meta.url).href`)
		.replaceAll("import.meta.dirname", `(import.meta.dirname + ${JSON.stringify(`/${relDir}`)})`);
}

/**
 * The load phases, each one chunk (docs/design-notes.md §Start-up cost): every module on Node's path costs its
 * own resolve, read, link and evaluation, so a phase in one file loads faster than the same code in the dozens
 * of shared chunks automatic splitting makes of it. A phase holds what its roots reach through static imports,
 * less what an earlier phase holds:
 * - `extension`: what the entry loads (src/index.ts, the peer modules, the tool definitions);
 * - `session`: the parsers a session start imports when there are agent files to report
 *   (src/tools/agent-start-report.ts);
 * - `upkeep`: the hourly sweep at session start (src/runs/session-start-sweep.ts);
 * - `runtime`: what the first call or command loads, the modules `loadModules` of src/index.ts imports (each
 *   `import("./…")` in its body) with the pi adapter they make.
 * Everything else (graphs, the other tools and commands, the codex and claude adapters, the TUI hosting) keeps
 * rolldown's automatic chunks and imports what it shares from these.
 */
function phaseRoots() {
	const index = readFileSync(join(SRC, "index.ts"), "utf8");
	const start = index.indexOf("async function loadModules(");
	const body = index.slice(start, index.indexOf("\n}\n", start));
	const runtime = [...body.matchAll(/import\("(\.\/[^"]+)"\)/g)].map((match) => join(SRC, match[1]));
	if (start < 0 || runtime.length === 0) throw new Error("build-runtime: no loadModules imports found in src/index.ts");
	const source = (...path) => join(SRC, ...path);
	return [
		["extension", [ENTRY_ID]],
		// What a session start imports when there are agent files to report: the parsers.
		["session", [source("tools", "agent-catalogue.ts")]],
		["upkeep", [source("runs", "session-start-sweep.ts")]],
		["runtime", runtime],
	];
}

const PHASES = ["extension", "session", "upkeep", "runtime"];

/**
 * Dependencies bundled into the chunks rather than required: ESM-only packages the sources import by default. A
 * CommonJS chunk requires a dependency and takes its `module.exports` as the default export (Node's rule for
 * CommonJS), which for an ES module is its namespace, not its default; `checkInterop` fails the build when
 * another one appears.
 */
const INLINED = ["p-limit", "yocto-queue"];

/**
 * Throws when chunk `code` (`name`) takes the default export of a required ES module: rolldown's `__toESM(x, 1)`
 * over a `require("<package>")` that resolves to an ES module (see INLINED).
 */
function checkInterop(name, code) {
	const required = new Map([...code.matchAll(/let (\w+) = require\("([^".][^"]*)"\);/g)].map((m) => [m[1], m[2]]));
	const resolve = createRequire(join(ROOT, "package.json")).resolve;
	for (const [, variable] of code.matchAll(/__toESM\((\w+), 1\)/g)) {
		const specifier = required.get(variable);
		if (!specifier || specifier.startsWith("node:")) continue;
		const file = resolve(specifier);
		if (file.endsWith(".mjs") || (file.endsWith(".js") && nearestType(dirname(file)) === "module"))
			throw new Error(`build-runtime: ${name} imports the default export of ES module ${specifier}: add it to INLINED`);
	}
}

/** The `type` of the package.json nearest to `dir`, or `undefined`. */
function nearestType(dir) {
	for (let at = dir; ; at = dirname(at)) {
		try {
			return JSON.parse(readFileSync(join(at, "package.json"), "utf8")).type;
		} catch {
			if (dirname(at) === at) return undefined;
		}
	}
}

/** Module id → its phase's name (see phaseRoots), computed from the module graph at the first call. */
let phases;
function phaseOf(id, ctx) {
	if (!phases) {
		phases = new Map();
		for (const [name, roots] of phaseRoots()) {
			const queue = [...roots];
			while (queue.length > 0) {
				const next = queue.pop();
				const info = ctx.getModuleInfo(next);
				if (!info || info.isExternal || phases.has(next)) continue;
				phases.set(next, name);
				queue.push(...info.importedIds);
			}
		}
	}
	return phases.get(id) ?? null;
}

const plugin = {
	name: "pi-native-subagents-runtime",
	resolveId(source) {
		if (source === ENTRY_ID || source.startsWith(PEER_PREFIX)) return source;
		return PEERS.includes(source) ? PEER_PREFIX + source : undefined;
	},
	load(id) {
		if (id === ENTRY_ID) return entryModule();
		if (DATA.has(id)) return dataModule(id);
		return id.startsWith(PEER_PREFIX) ? peerModule(id.slice(PEER_PREFIX.length)) : undefined;
	},
	transform(code, id) {
		if (!id.startsWith(SRC + sep) || !code.includes("import.meta.")) return undefined;
		return { code: rewriteImportMeta(code, id) };
	},
};

// --if-stale: a fresh bundle is rebuilt only when a file of it is damaged.
const current = checkBundle(ROOT);
if (process.argv.includes("--if-stale") && current && !current.damaged) process.exit(0);
/** rolldown comes with the dev dependencies (through vitest's vite); an install without them keeps the sources. */
let build;
try {
	({ build } = await import("rolldown"));
} catch {
	process.stderr.write("pi-native-subagents: rolldown is not installed: no bundle built, the sources are used\n");
	process.exit(0);
}
const stamp = sourceStamp(SRC);
// Built beside the old bundle, then swapped in (scripts/swap-bundle.mjs); a failed build leaves nothing behind.
const temporary = `${OUT}.build-${process.pid}`;
removeLeftovers(OUT);
rmSync(temporary, { recursive: true, force: true });
try {
	await buildInto(temporary);
} catch (error) {
	rmSync(temporary, { recursive: true, force: true });
	throw error;
}
swapIn(temporary, OUT);

/** Builds the bundle into directory `dir`, with its manifest, `chunks.json` and the chunks kept from `OUT`. */
async function buildInto(dir) {
	const result = await build({
		input: { extension: ENTRY_ID },
		platform: "node",
		// Node built-ins and the dependencies stay imports, resolved from the package's node_modules, but those of
		// INLINED.
		external: (id) =>
			!PEERS.includes(id) &&
			!INLINED.includes(id) &&
			!id.startsWith(PEER_PREFIX) &&
			!id.startsWith(".") &&
			!id.startsWith("/") &&
			!id.startsWith("\0"),
		plugins: [plugin],
		logLevel: "warn",
		// The peer modules import the real packages for their export names: slow, and expected.
		checks: { pluginTimings: false },
		output: {
			dir,
			format: "cjs",
			// What runs, without the docstrings (the sources ship beside it) and with non-ASCII escaped: the loader
			// reads, hashes and compiles each chunk's text in every process (src/core/bundle-loader.ts), and V8 keeps an
			// ASCII text in half the memory.
			charset: "ascii",
			comments: { legal: true, annotation: true, jsdoc: false },
			exports: "named",
			entryFileNames: "[name].cjs",
			chunkFileNames: "[name]-[hash].cjs",
			// One group per phase, earlier phases first (a module a higher-priority group took leaves the others;
			// a group also takes its modules' dependencies, which must not pull an earlier phase's into it).
			codeSplitting: {
				groups: PHASES.map((phase, index) => ({
					name: (id, ctx) => (phaseOf(id, ctx) === phase ? phase : null),
					priority: PHASES.length - index,
				})),
			},
		},
	});
	for (const item of result.output) if (item.type === "chunk") checkInterop(item.fileName, item.code);
	// Which source modules each chunk holds, as paths relative to the package root (`chunks.json`, for the tests).
	const chunks = Object.fromEntries(
		result.output
			.filter((item) => item.type === "chunk")
			.map((chunk) => [
				chunk.fileName,
				chunk.moduleIds.filter((id) => id.startsWith(ROOT + sep)).map((id) => relative(ROOT, id).split(sep).join("/")),
			]),
	);
	// A build for the npm package (npm pack, npm publish run `prepare`) ships its own chunks only.
	if (!["pack", "publish"].includes(process.env.npm_command ?? ""))
		carryOverChunks(OUT, dir, new Set(Object.keys(chunks)));
	writeFileSync(join(dir, "chunks.json"), `${JSON.stringify(chunks, null, "\t")}\n`);
	// The size of each file it wrote: a file truncated or lost later makes the package entry run the sources.
	const output = Object.fromEntries(Object.keys(chunks).map((name) => [name, statSync(join(dir, name)).size]));
	writeFileSync(join(dir, BUNDLE_MANIFEST), `${JSON.stringify({ ...stamp, output })}\n`);
}
