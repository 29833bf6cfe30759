/**
 * The runtime bundle (docs/design-notes.md §Start-up cost, src/core/native-bundle.ts): a real pi run loads the
 * runtime from `dist/runtime/` natively, each load phase's chunk and the rest at their first use; a bundle older
 * than the sources, or none, leaves the sources in use.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkBundle, damagedFile, freshBundleEntry, sourceStamp } from "../../src/core/native-bundle.ts";
import { runPiCli } from "../fake-model/run-pi.ts";
import { withBundledSources } from "../support/bundle-modules.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { packageCopy, removePackageCopies } from "../support/package-copy.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";
import { probeSubagentCall } from "../support/probe-call.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/** A package root under `dir` with `src/a.ts` and, with `bundle`, a bundle whose manifest records `stamp`. */
function fakePackage(dir: string, bundle: boolean) {
	mkdirSync(join(dir, "src"), { recursive: true });
	writeFileSync(join(dir, "src", "a.ts"), "export {};\n");
	if (bundle) {
		mkdirSync(join(dir, "dist", "runtime"), { recursive: true });
		writeFileSync(join(dir, "dist", "runtime", "extension.cjs"), "export {};\n");
		const manifest = { ...sourceStamp(join(dir, "src")), output: { "extension.cjs": 11 } };
		writeFileSync(join(dir, "dist", "runtime", "manifest.json"), JSON.stringify(manifest));
	}
	return dir;
}

describe("the freshness of the bundle", () => {
	const dir = makeTempDir("bundle-fresh-");
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it("uses a bundle built from the sources as they are", () => {
		const root = fakePackage(join(dir, "fresh"), true);
		expect(freshBundleEntry(root)).toBe(join(root, "dist", "runtime", "extension.cjs"));
	});

	it("takes the bundle of an installed copy (inside node_modules) without checking its sources", () => {
		const root = fakePackage(join(dir, "node_modules", "pi-native-subagents"), true);
		const later = new Date(Date.now() + 60_000);
		utimesSync(join(root, "src", "a.ts"), later, later);
		writeFileSync(join(root, "src", "b.ts"), "export {};\n");
		expect(freshBundleEntry(root)).toBe(join(root, "dist", "runtime", "extension.cjs"));
		// A file of the bundle itself is still checked.
		writeFileSync(join(root, "dist", "runtime", "extension.cjs"), "export");
		expect(checkBundle(root)?.damaged).toMatch(/extension\.cjs has 6 bytes where its build wrote 11$/);
	});

	it("does not use a bundle older than a source file", () => {
		const root = fakePackage(join(dir, "edited"), true);
		const later = new Date(Date.now() + 60_000);
		utimesSync(join(root, "src", "a.ts"), later, later);
		expect(freshBundleEntry(root)).toBeUndefined();
	});

	it("does not use a bundle built from another set of source files", () => {
		const root = fakePackage(join(dir, "added"), true);
		writeFileSync(join(root, "src", "b.ts"), "export {};\n");
		const past = new Date(0);
		utimesSync(join(root, "src", "b.ts"), past, past);
		expect(freshBundleEntry(root)).toBeUndefined();
	});

	it("does not use a bundle when a source file of another size came back with an old mtime (a restored backup)", () => {
		const root = fakePackage(join(dir, "restored"), true);
		writeFileSync(join(root, "src", "a.ts"), "export const restored = 1;\n");
		const past = new Date(0);
		utimesSync(join(root, "src", "a.ts"), past, past);
		expect(freshBundleEntry(root)).toBeUndefined();
	});

	it("takes sources that all carry one old mtime, as an npm tarball unpacks them", () => {
		const root = fakePackage(join(dir, "tarball"), true);
		const packed = new Date("1985-10-26T08:15:00Z");
		utimesSync(join(root, "src", "a.ts"), packed, packed);
		expect(freshBundleEntry(root)).toBe(join(root, "dist", "runtime", "extension.cjs"));
	});

	it("does not use the bundle of another checkout that the package's dist/ links to", () => {
		const other = fakePackage(join(dir, "other"), true);
		const root = fakePackage(join(dir, "linked"), false);
		const past = new Date(0);
		utimesSync(join(root, "src", "a.ts"), past, past);
		symlinkSync(join(other, "dist"), join(root, "dist"));
		expect(freshBundleEntry(root)).toBeUndefined();
		// The package itself, reached through a link, still uses its own bundle.
		symlinkSync(other, join(dir, "link-to-other"));
		expect(freshBundleEntry(join(dir, "link-to-other"))).toBe(
			join(dir, "link-to-other", "dist", "runtime", "extension.cjs"),
		);
	});

	it("names a file of the bundle that is missing or of another size than its build wrote", () => {
		const root = fakePackage(join(dir, "damaged"), true);
		const bundle = join(root, "dist", "runtime");
		expect(damagedFile(bundle, { "extension.cjs": 11 })).toBeUndefined();
		expect(damagedFile(bundle, { "extension.cjs": 12 })).toBe(
			`${join(bundle, "extension.cjs")} has 11 bytes where its build wrote 12`,
		);
		expect(damagedFile(bundle, { "extension.cjs": 11, "lost-1.cjs": 5 })).toBe(
			`${join(bundle, "lost-1.cjs")} is missing`,
		);
	});

	it("falls back when there is no bundle or its manifest is malformed", () => {
		expect(freshBundleEntry(fakePackage(join(dir, "none"), false))).toBeUndefined();
		const root = fakePackage(join(dir, "malformed"), true);
		writeFileSync(join(root, "dist", "runtime", "manifest.json"), "{");
		expect(freshBundleEntry(root)).toBeUndefined();
	});

	it("runs a graph call and refuses a codex call from the bundle's chunks, each chunk loaded at its first use", async () => {
		const outputs: string[] = [];
		server.route((request) => {
			if (!request.userTexts.some((text) => text.includes("PHASES-PROBE"))) return undefined;
			if (request.lastToolOutput !== undefined) outputs.push(request.lastToolOutput);
			const next = CALLS[request.roles.filter((role) => role === "tool").length];
			return next ? { toolCalls: [next] } : { text: "probe done" };
		});
		const record = join(home.dir, "modules.txt");
		const recorder = pathToFileURL(join(ROOT, "test", "support", "module-recorder.mjs")).href;
		const run = await runPiCli(
			{ ...home, env: { ...home.env, NODE_OPTIONS: `--import=${recorder}`, MODULE_RECORD_FILE: record } },
			["-e", ROOT, "--no-session", "-p", "PHASES-PROBE run the calls"],
		);
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toContain("probe done");
		// Nothing of the bundle failed to load (the sources would run, and say so on stderr).
		expect(run.stderr).not.toContain("the bundle ");
		expect(outputs).toHaveLength(2);
		expect(outputs[0]).toContain("1/1 nodes completed");
		expect(outputs[1]).toContain("codex harness: allowed_tools cannot be enforced");
		const paths = withBundledSources(
			ROOT,
			readFileSync(record, "utf8")
				.split("\n")
				.filter((url) => url.startsWith("file:"))
				.map((url) => relative(ROOT, new URL(url).pathname)),
		);
		expect(paths).toEqual(
			expect.arrayContaining(["dist/runtime/extension.cjs", "src/tools/graph-tool.ts", "src/graph/engine.ts"]),
		);
	});
});

let server: FakeModelServer;
let home: PiHome;
beforeAll(async () => {
	server = await startFakeModelServer({ fallback: "rules" });
	home = createPiHome(server, { agents: { echo: { description: "Answers plainly", body: "You answer plainly." } } });
});
afterAll(async () => {
	await home?.cleanup();
	await server?.close();
	removePackageCopies();
});

/** One `subagent` call through the load probe of package `root`: the loaded paths, relative to `root`. */
async function probeCall(root: string): Promise<string[]> {
	const probe = await probeSubagentCall(join(root, "index.ts"), home, { agent: "echo", task: "probe" });
	expect(probe.result).toContain("echo:");
	return probe.modules.filter((url) => url.startsWith("file:")).map((url) => relative(root, new URL(url).pathname));
}

/** The tool calls the parent's model makes, one per turn, in order. */
const CALLS = [
	{
		name: "agent_graph",
		arguments: { graph: { name: "bundled", nodes: { only: { agent: "echo", task: "bundled graph node" } } } },
	},
	{ name: "subagent", arguments: { agent_type: "codex", task: "never sent", allowed_tools: ["read"] } },
];

describe("loading the runtime", () => {
	it("runs a call from the sources when the package has no bundle", async () => {
		const paths = await probeCall(packageCopy(false));
		expect(paths).toContain("src/tools/subagent-tool.ts");
		expect(paths.filter((path) => path.startsWith("dist/"))).toEqual([]);
	});

	it("runs a call from the sources when the bundle is older than them", async () => {
		const copy = packageCopy(true);
		const later = new Date(Date.now() + 60_000);
		utimesSync(join(copy, "src", "tools", "subagent-tool.ts"), later, later);
		const paths = await probeCall(copy);
		expect(paths).toContain("src/tools/subagent-tool.ts");
		expect(paths.filter((path) => path.startsWith("dist/"))).toEqual([]);
	});

	it("loads the runtime from the bundle, natively, in a real `pi -p` parent", async () => {
		const record = join(home.dir, "modules.txt");
		server.route((request) => {
			if (!request.userTexts.some((text) => text.includes("BUNDLE-PROBE"))) return undefined;
			if (request.lastToolOutput !== undefined) return { text: `tool said: ${request.lastToolOutput}` };
			return { toolCalls: [{ name: "subagent", arguments: { agent: "echo", task: "bundled call" } }] };
		});
		const recorder = pathToFileURL(join(ROOT, "test", "support", "module-recorder.mjs")).href;
		const run = await runPiCli(
			{ ...home, env: { ...home.env, NODE_OPTIONS: `--import=${recorder}`, MODULE_RECORD_FILE: record } },
			["-e", ROOT, "--no-session", "-p", "BUNDLE-PROBE delegate"],
		);
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toContain("tool said: echo:");
		const urls = readFileSync(record, "utf8")
			.split("\n")
			.filter((url) => url.startsWith("file:"));
		const paths = withBundledSources(
			ROOT,
			urls.map((url) => relative(ROOT, new URL(url).pathname)),
		);
		expect(paths).toContain("dist/runtime/extension.cjs");
		// The call's own modules came from the bundle's chunks.
		expect(paths).toEqual(expect.arrayContaining(["src/tools/subagent-tool.ts", "src/harness/pi/adapter.ts"]));
	});

	it("ships chunks of ASCII text without the sources' docstrings (less to read, hash and keep per process)", () => {
		const dir = join(ROOT, "dist", "runtime");
		const chunks = Object.keys(JSON.parse(readFileSync(join(dir, "chunks.json"), "utf8")));
		for (const chunk of chunks) {
			const bytes = readFileSync(join(dir, chunk));
			expect(
				bytes.every((byte) => byte < 0x80),
				chunk,
			).toBe(true);
			expect(bytes.toString("latin1"), chunk).not.toMatch(/^\s*\/\*\*\s*$/m);
		}
		// What the sources say in other scripts is still said: escaped, not lost.
		const runtime = chunks.find((chunk) => chunk.startsWith("runtime-")) ?? "";
		expect(readFileSync(join(dir, runtime), "latin1")).toContain("\\u2026");
	});

	it("reads from Pi's instances of the peer packages only the names the bundle uses", () => {
		// Each read goes through the module proxy of Pi's loader: an unused name's read is a cost at every load.
		const dir = join(ROOT, "dist", "runtime");
		const chunks = Object.keys(JSON.parse(readFileSync(join(dir, "chunks.json"), "utf8")));
		const bareReads = chunks.flatMap((chunk) =>
			readFileSync(join(dir, chunk), "utf8")
				.split("\n")
				.filter((line) => /^instance(\$\d+)?\["[^"]+"\];$/.test(line)),
		);
		expect(bareReads).toEqual([]);
		const entry = readFileSync(join(dir, chunks.find((chunk) => chunk.startsWith("extension-")) ?? ""), "utf8");
		expect(entry).toMatch(/read(\$\d+)? *\("getAgentDir"\)/);
	});
});
