/**
 * The runtime bundle when something is wrong with it or around it (docs/development.md §The bundle,
 * src/core/native-bundle.ts): a bundle that fails to load leaves the sources in use and says so once; the peer
 * packages a deferred chunk uses are the ones handed over when the bundle loaded; a rebuild does not pull chunks
 * from under a running Pi; `/reload` runs the bundle's modules again, and calls go on.
 */
import { execFile, spawn } from "node:child_process";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPiCli } from "../fake-model/run-pi.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { packageCopy, removePackageCopies } from "../support/package-copy.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";
import { probeSubagentCall } from "../support/probe-call.ts";

const ROOT = join(import.meta.dirname, "..", "..");

let server: FakeModelServer;
let home: PiHome;
beforeAll(async () => {
	server = await startFakeModelServer({ fallback: "rules" });
	home = createPiHome(server, { agents: { echo: { description: "Answers plainly", body: "You answer plainly." } } });
	server.route((request) => {
		if (!request.userTexts.some((text) => text.includes("FAULT-PROBE"))) return undefined;
		if (request.lastToolOutput !== undefined) return { text: `tool said: ${request.lastToolOutput}` };
		return { toolCalls: [{ name: "subagent", arguments: { agent: "echo", task: "faulty bundle call" } }] };
	});
});
afterAll(async () => {
	await home?.cleanup();
	await server?.close();
	removePackageCopies();
});

/** A real `pi -p` parent with package `root` that delegates one call: its exit code, stdout and stderr. */
async function delegateThroughPi(root: string) {
	const run = await runPiCli(home, ["-e", root, "--no-session", "-p", "FAULT-PROBE delegate"]);
	expect(run.code, run.stderr).toBe(0);
	expect(run.stdout).toContain("tool said: echo:");
	return run;
}

/** Writes `text` as bundle file `name` of package `root`, its size recorded in the manifest as a build would. */
function rewriteBundleFile(root: string, name: string, text: string): void {
	const dir = join(root, "dist", "runtime");
	writeFileSync(join(dir, name), text);
	const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { output: Record<string, number> };
	manifest.output[name] = Buffer.byteLength(text);
	writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest));
}

/** The current file of bundle chunk `prefix` (e.g. `runtime-`, the chunk the first call loads) in package `root`. */
function chunkFile(root: string, prefix: string): string {
	const chunks = JSON.parse(readFileSync(join(root, "dist", "runtime", "chunks.json"), "utf8")) as Record<
		string,
		string[]
	>;
	const name = Object.keys(chunks).find((file) => file.startsWith(prefix));
	if (!name) throw new Error(`no chunk ${prefix}* in ${root}`);
	return name;
}

/** The lines of `stderr` that report a bundle problem. */
const bundleLines = (stderr: string) => stderr.split("\n").filter((line) => line.includes("the bundle "));

describe("a bundle that fails to load", () => {
	it("runs the call from the sources and says once which file is damaged, when a deferred chunk is truncated", async () => {
		const copy = packageCopy(true);
		const chunk = join(copy, "dist", "runtime", chunkFile(copy, "runtime-"));
		const text = readFileSync(chunk, "utf8");
		writeFileSync(chunk, text.slice(0, Math.floor(text.length / 2)));
		const run = await delegateThroughPi(copy);
		const lines = bundleLines(run.stderr);
		expect(lines).toHaveLength(1);
		expect(lines[0]).toBe(
			`pi-native-subagents: the bundle is damaged (${chunk} has ${Buffer.byteLength(text.slice(0, Math.floor(text.length / 2)))} bytes where its build wrote ${Buffer.byteLength(text)}); running from the sources`,
		);
	});

	it("notifies the damaged bundle through the UI of a session that has one", async () => {
		const copy = packageCopy(true);
		const chunk = join(copy, "dist", "runtime", chunkFile(copy, "runtime-"));
		writeFileSync(chunk, "export {};\n");
		const work = join(home.dir, "work");
		mkdirSync(work, { recursive: true });
		const { stdout, stderr } = await promisify(execFile)(
			join(ROOT, "node_modules", ".bin", "node"),
			[join(ROOT, "test", "support", "load-probe.mjs"), join(copy, "index.ts"), "--session-start", work],
			{ env: { PATH: process.env.PATH, ...home.env, TMPDIR: home.dir } },
		);
		const { notes } = JSON.parse(stdout) as { notes: string[] };
		expect(notes.filter((note) => note.includes("the bundle is damaged"))).toEqual([
			expect.stringContaining(`(${chunk} has 11 bytes where its build wrote `),
		]);
		expect(bundleLines(stderr)).toEqual([]);
	});

	it("runs the call from the sources and says once which bundle failed and why, when its entry does not parse", async () => {
		const copy = packageCopy(true);
		const entry = join(copy, "dist", "runtime", "extension.cjs");
		const text = readFileSync(entry, "utf8");
		// Broken at its build, its manifest agreeing.
		rewriteBundleFile(copy, "extension.cjs", text.slice(0, text.indexOf("{") + 1));
		const run = await delegateThroughPi(copy);
		const lines = bundleLines(run.stderr);
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain(`pi-native-subagents: the bundle ${entry} failed to load (SyntaxError`);
		expect(lines[0]).toContain("running from the sources");
	});

	it("runs the call from the sources when the bundle, built by another version, expects other peer packages", async () => {
		const copy = packageCopy(true);
		const dir = join(copy, "dist", "runtime");
		// An older build read the terminal package under another name, which this entry does not hand over.
		for (const file of readdirSync(dir).filter((name) => name.endsWith(".cjs"))) {
			const text = readFileSync(join(dir, file), "utf8");
			rewriteBundleFile(copy, file, text.replaceAll('?.["@earendil-works/pi-tui"]', '?.["@mariozechner/pi-tui"]'));
		}
		const run = await delegateThroughPi(copy);
		const lines = bundleLines(run.stderr);
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain("peer package @earendil-works/pi-tui was not handed over");
	});
});

describe("the peer packages of the bundle", () => {
	it("are read when the bundle loads: a call after the hand-over global was replaced still runs", async () => {
		const probe = await probeSubagentCall(
			join(ROOT, "index.ts"),
			{ ...home, env: { ...home.env, PROBE_REPLACE_PEERS: "1" } },
			{ agent: "echo", task: "probe" },
		);
		expect(probe.result).toContain("echo:");
		expect(probe.modules.some((url) => url.endsWith("/dist/runtime/extension.cjs"))).toBe(true);
	});
});

describe("a rebuild while Pi runs from the bundle", () => {
	it("leaves the chunks the running process has yet to import: its first call after the rebuild still runs", async () => {
		const copy = packageCopy(true);
		const work = join(home.dir, "work");
		mkdirSync(work, { recursive: true });
		const probe = spawn(
			join(ROOT, "node_modules", ".bin", "node"),
			[
				join(ROOT, "test", "support", "load-probe.mjs"),
				join(copy, "index.ts"),
				"--call",
				work,
				'{"agent":"echo","task":"after rebuild"}',
			],
			{ env: { PATH: process.env.PATH, ...home.env, TMPDIR: home.dir, PROBE_WAIT: "1" } },
		);
		let stdout = "";
		let stderr = "";
		probe.stdout.on("data", (chunk) => (stdout += chunk));
		const exited = new Promise<number | null>((resolve) => probe.on("close", resolve));
		await new Promise<void>((resolve) =>
			probe.stderr.on("data", (chunk) => {
				stderr += chunk;
				if (stderr.includes("probe: loaded")) resolve();
			}),
		);
		// An edit of the call's own module, then a rebuild: that module's chunk gets a new name.
		appendFileSync(
			join(copy, "src", "tools", "subagent-tool.ts"),
			'\nglobalThis[Symbol.for("bundle-test-edit")] = 1;\n',
		);
		await promisify(execFile)(process.execPath, [join(copy, "scripts", "build-runtime.mjs")]);
		probe.stdin.end("call\n");
		expect(await exited, stderr).toBe(0);
		expect((JSON.parse(stdout) as { result: string }).result).toContain("echo:");
	});
});

/**
 * A real `pi -p` parent with package `root` that delegates a call, runs Pi's own reload (what `/reload` does:
 * through a second extension's command, as print mode has no `/reload`), and delegates again: the run, the reasons of
 * the session starts, the tasks the children got, every module URL Node resolved and, at each session start, the
 * bundle chunks its loader held (`chunkModules`: `<reason> <count> [each chunk evaluated again]`).
 */
async function callReloadCall(root: string, tag: string, options: { editBeforeReload?: [string, string] } = {}) {
	server.route((request) => {
		const last = request.lastUserText;
		if (!last.includes(`RELOAD-${tag}`)) return undefined;
		if (request.lastToolOutput !== undefined) return { text: `tool said: ${request.lastToolOutput}` };
		return { toolCalls: [{ name: "subagent", arguments: { agent: "echo", task: `${tag} ${last.split(" ")[1]}` } }] };
	});
	const reloader = join(home.dir, `reloader-${tag}.ts`);
	const starts = join(home.dir, `session-starts-${tag}.txt`);
	const chunkModules = join(home.dir, `chunk-modules-${tag}.txt`);
	writeFileSync(
		reloader,
		[
			"import { appendFileSync } from 'node:fs';",
			`const edit = ${JSON.stringify(options.editBeforeReload ?? null)};`,
			// At each session start, a line to `chunkModules`: its reason, how many chunks the bundle's loader holds
			// (src/core/bundle-loader.ts), and each one whose module is another object than at an earlier start.
			"const seen = (globalThis[Symbol.for('reload-probe.chunk-modules')] ??= new Map());",
			"const chunkLine = (reason) => {",
			"	const modules = globalThis[Symbol.for('pi-native-subagents.bundle-loader')]?.modules ?? new Map();",
			"	const again = [...modules].filter(([file, module]) => seen.has(file) && seen.get(file) !== module);",
			"	for (const [file, module] of modules) if (!seen.has(file)) seen.set(file, module);",
			"	return [reason, modules.size, ...again.map(([file]) => file)].join(' ') + '\\n';",
			"};",
			"export default (pi) => {",
			`	pi.on("session_start", (event) => appendFileSync(${JSON.stringify(starts)}, event.reason + "\\n"));`,
			`	pi.on("session_start", (event) => appendFileSync(${JSON.stringify(chunkModules)}, chunkLine(event.reason)));`,
			'	pi.registerCommand("probe-reload", { description: "reload", handler: async (_a, ctx) => { if (edit) appendFileSync(...edit); await ctx.reload(); } });',
			"};",
		].join("\n"),
	);
	const record = join(home.dir, `reload-modules-${tag}.txt`);
	const recorder = pathToFileURL(join(ROOT, "test", "support", "module-recorder.mjs")).href;
	const run = await runPiCli(
		{ ...home, env: { ...home.env, NODE_OPTIONS: `--import=${recorder}`, MODULE_RECORD_FILE: record } },
		["-e", root, "-e", reloader, "--no-session", "-p", `RELOAD-${tag} one`, "/probe-reload", `RELOAD-${tag} two`],
	);
	expect(run.code, run.stderr).toBe(0);
	expect(run.stdout).toContain(`tool said: echo: ${tag} two`);
	return {
		run,
		starts: readFileSync(starts, "utf8"),
		chunkModules: readFileSync(chunkModules, "utf8").trimEnd().split("\n"),
		tasks: server.requests.map((request) => request.lastUserText),
		loaded: readFileSync(record, "utf8").split("\n"),
	};
}

describe("/reload through the bundle", () => {
	it("runs calls before and after a reload from the bundle's modules, which its loader keeps", async () => {
		const { run, starts, tasks, loaded, chunkModules } = await callReloadCall(ROOT, "fresh");
		expect(starts).toBe("startup\nreload\n");
		// The loader held chunks at both starts, and none was evaluated again at the reload: the same module objects.
		expect(chunkModules).toEqual([
			expect.stringMatching(/^startup [1-9]\d*$/),
			expect.stringMatching(/^reload [1-9]\d*$/),
		]);
		// Both calls reached a child: the one before the reload and the one after.
		expect(tasks).toEqual(expect.arrayContaining(["fresh one", "fresh two"]));
		expect(bundleLines(run.stderr)).toEqual([]);
		expect(loaded).toContain(pathToFileURL(join(ROOT, "dist", "runtime", "extension.cjs")).href);
		// No source module ran but the ownership test the bundle's loader reads its code cache with
		// (src/core/bundle-loader.ts), which loads before the bundle.
		const sources = loaded.filter((url) => url.startsWith(pathToFileURL(join(ROOT, "src")).href));
		expect(new Set(sources)).toEqual(new Set([pathToFileURL(join(ROOT, "src", "core", "owned-directory.mjs")).href]));
	});

	it("runs the sources after an edit and a reload, the bundle's modules having run before", async () => {
		const copy = packageCopy(true);
		const edited = join(copy, "src", "tools", "subagent-tool.ts");
		// The edit prints a line when its module runs: only the sources can.
		const { run, starts, tasks, loaded } = await callReloadCall(copy, "edited", {
			editBeforeReload: [edited, '\nprocess.stderr.write("edited module ran\\n");\n'],
		});
		expect(run.stderr.split("\n").filter((line) => line === "edited module ran")).toHaveLength(1);
		expect(starts).toBe("startup\nreload\n");
		expect(tasks).toEqual(expect.arrayContaining(["edited one", "edited two"]));
		expect(bundleLines(run.stderr)).toEqual([]);
		expect(loaded).toContain(pathToFileURL(join(copy, "dist", "runtime", "extension.cjs")).href);
	});

	it("says once in the process that the bundle is damaged, not again at the reload", async () => {
		const copy = packageCopy(true);
		writeFileSync(join(copy, "dist", "runtime", chunkFile(copy, "runtime-")), "export {};\n");
		const { run, starts, tasks } = await callReloadCall(copy, "damaged");
		expect(starts).toBe("startup\nreload\n");
		expect(tasks).toEqual(expect.arrayContaining(["damaged one", "damaged two"]));
		expect(bundleLines(run.stderr)).toHaveLength(1);
	});
});
