/**
 * Building the bundle (scripts/build-runtime.mjs, scripts/swap-bundle.mjs; docs/development.md §The bundle): a
 * failed or killed build leaves nothing behind, and chunks a running Pi may still import outlive the build they
 * belonged to by a day.
 */
import { execFile, spawnSync } from "node:child_process";
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain JavaScript script of the package, without types
import { carryOverChunks, RETAIN_MS, RETIRED_FILE } from "../../scripts/swap-bundle.mjs";
import { checkBundle } from "../../src/core/native-bundle.ts";
import { canMountTmpfs, mountFullDisk } from "../support/full-disk.ts";
import { packageCopy, removePackageCopies } from "../support/package-copy.ts";
import { makeTempDir } from "../support/temp-dir.ts";

afterAll(() => removePackageCopies());

/** Runs the build script of package `root` (with `env` added, and `args`): its exit code and stderr. */
async function buildIn(
	root: string,
	env: Record<string, string> = {},
	args: string[] = [],
): Promise<{ code: number; stderr: string }> {
	try {
		const { stderr } = await promisify(execFile)(
			process.execPath,
			[join(root, "scripts", "build-runtime.mjs"), ...args],
			{
				env: { ...process.env, ...env },
			},
		);
		return { code: 0, stderr };
	} catch (error) {
		const failed = error as { code: number; stderr: string };
		return { code: failed.code, stderr: failed.stderr };
	}
}

/** The pid of a process that has exited. */
function goneProcessId(): number {
	const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
	return Number(child.stdout);
}

describe("a build that does not finish", () => {
	it("removes what builds that are gone left beside the bundle (a killed build's directory)", async () => {
		const copy = packageCopy(false);
		const pid = goneProcessId();
		for (const name of [`runtime.build-${pid}`, `runtime.old-${pid}`]) {
			mkdirSync(join(copy, "dist", name), { recursive: true });
			writeFileSync(join(copy, "dist", name, "extension.cjs"), "export {};\n");
		}
		expect((await buildIn(copy)).code).toBe(0);
		expect(readdirSync(join(copy, "dist"))).toEqual(["runtime"]);
	});

	it.runIf(canMountTmpfs())("fails on a full disk, leaving no partial build and no bundle in use", async () => {
		const copy = packageCopy(false);
		const disk = mountFullDisk({ fill: false });
		try {
			// The package's dist/ on a disk too small for the bundle.
			symlinkSync(disk.dir, join(copy, "dist"));
			const build = await buildIn(copy);
			expect(build.code).toBe(1);
			expect(build.stderr).toContain("No space left on device");
			expect(readdirSync(disk.dir)).toEqual([]);
		} finally {
			disk.unmount();
		}
	});
});

describe("a build for the tests (--if-stale)", () => {
	it("rebuilds a fresh bundle a file of which is damaged, and leaves a sound one alone", async () => {
		const copy = packageCopy(true);
		const manifest = join(copy, "dist", "runtime", "manifest.json");
		const sound = readFileSync(manifest, "utf8");
		expect((await buildIn(copy, {}, ["--if-stale"])).code).toBe(0);
		expect(readFileSync(manifest, "utf8")).toBe(sound);
		const chunk = Object.keys(JSON.parse(sound).output).find((name: string) => name.startsWith("runtime-"));
		writeFileSync(join(copy, "dist", "runtime", chunk as string), "export {};\n");
		expect(checkBundle(copy)?.damaged).toBeDefined();
		expect((await buildIn(copy, {}, ["--if-stale"])).code).toBe(0);
		expect(checkBundle(copy)).toEqual({ entry: join(copy, "dist", "runtime", "extension.cjs") });
	});
});

describe("npm's prepare", () => {
	it("builds nothing on a Node that cannot read TypeScript, says so in one line, and lets the install go on", async () => {
		const copy = packageCopy(false);
		const { stdout, stderr } = await promisify(execFile)(process.execPath, [
			"--no-experimental-strip-types",
			join(copy, "scripts", "prepare.mjs"),
		]);
		expect(stdout).toBe("");
		expect(stderr).toBe(
			`pi-native-subagents: no bundle built (Node ${process.version} cannot read the TypeScript the build imports); the sources are used\n`,
		);
		expect(existsSync(join(copy, "dist"))).toBe(false);
	});

	it("says in one line, without a stack, which export of a data module is not data, and builds nothing", async () => {
		const copy = packageCopy(false);
		const file = join(copy, "src", "tools", "jobs-schema.ts");
		appendFileSync(file, "export const isJobsAction = (action: string) => action.length > 0;\n");
		const { stderr } = await promisify(execFile)(process.execPath, [join(copy, "scripts", "prepare.mjs")]);
		expect(stderr.trim().split("\n")).toHaveLength(1);
		expect(stderr).toContain(
			`${file} is a data module (scripts/data-modules.mjs) but its export isJobsAction is of type function`,
		);
		expect(stderr).not.toMatch(/ at \S+ \(file:/);
		expect(existsSync(join(copy, "dist"))).toBe(false);
	});

	it.runIf(canMountTmpfs())(
		"says in one line why a build failed (a full disk), and lets the install go on",
		async () => {
			const copy = packageCopy(false);
			const disk = mountFullDisk({ fill: false });
			try {
				symlinkSync(disk.dir, join(copy, "dist"));
				const { stderr } = await promisify(execFile)(process.execPath, [join(copy, "scripts", "prepare.mjs")]);
				expect(stderr.trim().split("\n")).toHaveLength(1);
				expect(stderr).toMatch(
					/^pi-native-subagents: no bundle built \(Build failed.*No space left on device.*\); the sources are used\n$/,
				);
				expect(readdirSync(disk.dir)).toEqual([]);
			} finally {
				disk.unmount();
			}
		},
	);
});

describe("the chunks of an earlier build", () => {
	const dir = makeTempDir("bundle-carry-");
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it("are kept a day after they left a build, and no longer", () => {
		const now = Date.UTC(2026, 0, 2);
		const previous = join(dir, "previous");
		const next = join(dir, "next");
		mkdirSync(previous);
		mkdirSync(next);
		for (const name of ["extension.js", "a-1.js", "b-1.js", "recent-0.js", "old-0.js"])
			writeFileSync(join(previous, name), `// ${name}\n`);
		writeFileSync(join(previous, "chunks.json"), JSON.stringify({ "extension.js": [], "a-1.js": [], "b-1.js": [] }));
		writeFileSync(
			join(previous, RETIRED_FILE),
			JSON.stringify({ "recent-0.js": now - RETAIN_MS + 1, "old-0.js": now - RETAIN_MS - 1 }),
		);
		carryOverChunks(previous, next, new Set(["extension.js", "a-1.js", "c-2.js"]), now);
		expect(readdirSync(next).sort()).toEqual(["b-1.js", "recent-0.js", RETIRED_FILE]);
		expect(readFileSync(join(next, "b-1.js"), "utf8")).toBe("// b-1.js\n");
		expect(JSON.parse(readFileSync(join(next, RETIRED_FILE), "utf8"))).toEqual({
			"b-1.js": now,
			"recent-0.js": now - RETAIN_MS + 1,
		});
	});

	it("are left out of a build for the npm package (npm pack), with any code cache, and kept by any other", async () => {
		const copy = packageCopy(true);
		const bundle = join(copy, "dist", "runtime");
		const before = new Set(readdirSync(bundle));
		appendFileSync(join(copy, "src", "index.ts"), '\nglobalThis[Symbol.for("bundle-test-edit")] = 1;\n');
		expect((await buildIn(copy)).code).toBe(0);
		const retired = Object.keys(JSON.parse(readFileSync(join(bundle, RETIRED_FILE), "utf8")));
		expect(retired.length).toBeGreaterThan(0);
		for (const name of retired) expect(before.has(name) && existsSync(join(bundle, name))).toBe(true);
		// A code cache (src/core/bundle-loader.ts) that runs wrote is not shipped either: a rebuild starts without one.
		mkdirSync(join(bundle, ".code-cache"), { mode: 0o700 });
		writeFileSync(join(bundle, ".code-cache", "extension.cjs.0.0"), "cache");
		expect((await buildIn(copy, { npm_command: "pack" })).code).toBe(0);
		expect(existsSync(join(bundle, ".code-cache"))).toBe(false);
		const chunks = Object.keys(JSON.parse(readFileSync(join(bundle, "chunks.json"), "utf8")));
		expect(
			readdirSync(bundle)
				.filter((name) => name.endsWith(".cjs"))
				.sort(),
		).toEqual(chunks.sort());
	});

	it("are none when there was no earlier build", () => {
		const next = join(dir, "first");
		mkdirSync(next);
		carryOverChunks(join(dir, "missing"), next, new Set(["extension.js"]));
		expect(existsSync(join(next, RETIRED_FILE))).toBe(true);
		expect(readdirSync(next)).toEqual([RETIRED_FILE]);
	});
});
