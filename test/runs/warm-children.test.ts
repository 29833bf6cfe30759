/**
 * The launch key of warm children (src/runs/warm-children.ts, docs/settings.md §Warm pi children): two runs are one
 * launch when their command, environment, cwd, run files' contents and kill grace are the same, whatever their
 * run directories are called; what is never warmed has no key.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HarnessAdapter, HarnessCommand } from "../../src/core/harness-adapter.ts";
import type { LaunchSpec } from "../../src/core/launch-spec.ts";
import type { ChildCommand } from "../../src/process/types.ts";
import { runChild } from "../../src/runs/run-child.ts";
import { MAX_FINGERPRINT_ENTRIES } from "../../src/runs/startup-fingerprint.ts";
import { WarmChildren, type WarmLaunch } from "../../src/runs/warm-children.ts";
import { fixture } from "../process/run-fixture.ts";
import { launchSpec, NATIVE_LIMITS, SCRIPTED_LIMITS } from "../support/launch-spec.ts";
import { isAlive, waitUntil } from "../support/processes.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const dirs: string[] = [];
afterEach(() => {
	startupInputs = [];
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The start-up inputs the fake harness declares (a test sets them). */
let startupInputs: string[] = [];
const adapter = {
	warmProbe: { line: "probe", isAnswer: () => true },
	startupInputs: () => startupInputs,
} as unknown as HarnessAdapter;
const conversation = { startLines: () => [] } as unknown as HarnessCommand["conversation"];
const spec = (fields: Partial<LaunchSpec> = {}) =>
	launchSpec({ harness: "pi", cwd: "/work", limits: NATIVE_LIMITS, ...fields });

/** A run directory holding `files`, and the command that names its system-prompt file and schema file. */
function run(files: Record<string, string>, env: Record<string, string> = {}) {
	const runDir = makeTempDir("warm-key-");
	dirs.push(runDir);
	for (const [name, text] of Object.entries(files)) writeFileSync(join(runDir, name), text);
	const command: ChildCommand = {
		file: "/bin/pi",
		args: ["--mode", "rpc", "--append-system-prompt", join(runDir, "append-system-prompt.md")],
		cwd: "/work",
		env: { SCHEMA: join(runDir, "output-schema.json"), ...env },
	};
	return { runDir, command, harness: { file: command.file, args: command.args, env: {}, conversation } };
}

function keyOf(launch: ReturnType<typeof run>, fields: Partial<LaunchSpec> = {}, using = adapter) {
	const pool = new WarmChildren({ idleTimeoutMs: 1000, max: 1 });
	return pool.launchOf(spec(fields), using, launch.harness, launch.command, launch.runDir)?.key;
}

describe("the launch key of warm children", () => {
	it("is the same for two runs whose run files have the same contents in different run directories", () => {
		const files = { "append-system-prompt.md": "You answer plainly." };
		expect(keyOf(run(files))).toBeDefined();
		expect(keyOf(run(files))).toBe(keyOf(run(files)));
	});

	it("differs when a run file's contents, an environment variable or the kill grace differ", () => {
		const files = { "append-system-prompt.md": "You answer plainly." };
		const base = keyOf(run(files));
		expect(keyOf(run({ "append-system-prompt.md": "You answer otherwise." }))).not.toBe(base);
		expect(keyOf(run(files, { EXTRA: "1" }))).not.toBe(base);
		expect(keyOf(run(files), { limits: { ...NATIVE_LIMITS, killGraceMs: 1 } })).not.toBe(base);
	});

	it("is absent for a resume, a fork, a harness without a warm probe and a command without a conversation", () => {
		const launch = run({});
		expect(keyOf(launch, { session: { kind: "resume", nativeSessionId: "abc" } })).toBeUndefined();
		expect(keyOf(launch, { forkSessionFile: "/parent/session.jsonl" })).toBeUndefined();
		expect(keyOf(launch, {}, {} as HarnessAdapter)).toBeUndefined();
		const pool = new WarmChildren({ idleTimeoutMs: 1000, max: 1 });
		const noConversation = { ...launch.harness, conversation: undefined };
		expect(pool.launchOf(spec(), adapter, noConversation, launch.command, launch.runDir)).toBeUndefined();
	});

	it("differs once a start-up input of the harness was created, written, replaced or removed, and is absent for a tree too large to fingerprint", () => {
		const files = { "append-system-prompt.md": "You answer plainly." };
		const home = makeTempDir("warm-inputs-");
		dirs.push(home);
		const extensions = join(home, "extensions");
		startupInputs = [join(home, "AGENTS.md"), extensions];
		const keys = [keyOf(run(files))];
		writeFileSync(join(home, "AGENTS.md"), "Be careful.");
		keys.push(keyOf(run(files)));
		mkdirSync(extensions);
		writeFileSync(join(extensions, "tool.ts"), "export default () => {};");
		keys.push(keyOf(run(files)));
		writeFileSync(join(extensions, "tool.ts"), "export default () => {}; // edited");
		keys.push(keyOf(run(files)));
		rmSync(join(extensions, "tool.ts"));
		keys.push(keyOf(run(files)));
		expect(new Set(keys).size).toBe(keys.length);
		expect(keyOf(run(files))).toBe(keys.at(-1));
		for (let index = 0; index <= MAX_FINGERPRINT_ENTRIES; index++) writeFileSync(join(extensions, `${index}.ts`), "");
		expect(keyOf(run(files))).toBeUndefined();
	});
});

describe("a warm child whose start-up inputs changed while it waited", () => {
	it("is not taken by the next run of its launch, which a run of the inputs as they are now is", async () => {
		const home = makeTempDir("warm-inputs-");
		dirs.push(home);
		const extension = join(home, "extension.ts");
		writeFileSync(extension, "export default () => {};");
		startupInputs = [extension];
		const lines = fixture("lines");
		const launchNow = (pool: WarmChildren) => {
			const launch = run({});
			const command = { ...lines, env: { ...lines.env, RUN: launch.runDir } };
			return pool.launchOf(spec(), adapter, launch.harness, command, launch.runDir) as WarmLaunch;
		};
		const pool = new WarmChildren({ idleTimeoutMs: 600_000, max: 1 });
		try {
			pool.prepare(launchNow(pool));
			const [stale] = pool.idleChildren();
			expect(await stale.ready).toBe(true);
			rmSync(extension);
			expect(pool.take(launchNow(pool))).toBeUndefined();
			pool.prepare(launchNow(pool));
			const [fresh] = pool.idleChildren();
			expect(fresh.pid).not.toBe(stale.pid);
			const taken = pool.take(launchNow(pool));
			expect(taken?.adopted.pid).toBe(fresh.pid);
			taken?.adopted.terminator.terminate();
			taken?.release();
			await waitUntil(() => !isAlive(fresh.pid as number), "the taken child to end");
		} finally {
			await pool.close();
		}
	});
});

describe("a warm child whose working directory was removed and made again while it waited", () => {
	it("is not taken: it would run in the removed directory", async () => {
		const cwd = makeTempDir("warm-cwd-");
		dirs.push(cwd);
		const lines = fixture("lines");
		const launchNow = (pool: WarmChildren) => {
			const launch = run({});
			const command = { ...lines, cwd };
			return pool.launchOf(spec({ cwd }), adapter, launch.harness, command, launch.runDir) as WarmLaunch;
		};
		const pool = new WarmChildren({ idleTimeoutMs: 600_000, max: 1 });
		try {
			pool.prepare(launchNow(pool));
			const [stale] = pool.idleChildren();
			expect(await stale.ready).toBe(true);
			rmSync(cwd, { recursive: true });
			mkdirSync(cwd);
			expect(pool.take(launchNow(pool))).toBeUndefined();
			await waitUntil(() => !isAlive(stale.pid as number), "the stale warm child to end");
			expect(pool.idleChildren()).toEqual([]);
		} finally {
			await pool.close();
		}
	});
});

describe("the settings of a pool of warm children", () => {
	it("a lower max of a later call ends the oldest idle children over it at once", async () => {
		const lines = fixture("lines");
		const launchWith = (pool: WarmChildren, variant: string) => {
			const launch = run({});
			const command = { ...lines, env: { ...lines.env, VARIANT: variant } };
			return pool.launchOf(spec(), adapter, launch.harness, command, launch.runDir) as WarmLaunch;
		};
		const pool = new WarmChildren({ idleTimeoutMs: 600_000, max: 3 });
		try {
			for (const variant of ["a", "b", "c"]) pool.prepare(launchWith(pool, variant));
			const [oldest, middle, newest] = pool.idleChildren();
			pool.configure({ idleTimeoutMs: 600_000, max: 1 });
			expect(pool.idleChildren().map((child) => child.pid)).toEqual([newest.pid]);
			await waitUntil(
				() => !isAlive(oldest.pid as number) && !isAlive(middle.pid as number),
				"the two oldest idle children to end",
			);
			expect(isAlive(newest.pid as number)).toBe(true);
		} finally {
			await pool.close();
		}
	});

	it("an idle timeout beyond setTimeout's range (2^31 ms) keeps the warm child instead of ending it at once", async () => {
		const launch = run({});
		const lines = fixture("lines");
		const pool = new WarmChildren({ idleTimeoutMs: 2 ** 31 + 1000, max: 1 });
		try {
			pool.prepare(pool.launchOf(spec(), adapter, launch.harness, lines, launch.runDir) as WarmLaunch);
			const [child] = pool.idleChildren();
			expect(await child.ready).toBe(true);
			expect(pool.idleChildren().map((idle) => idle.pid)).toEqual([child.pid]);
		} finally {
			await pool.close();
		}
	});
});

describe("a run aborted before it starts", () => {
	it("leaves the warm child of its launch waiting for the next run instead of taking it to end it", async () => {
		const lines = fixture("lines");
		const probe = { line: "probe", isAnswer: (record: unknown) => (record as { text?: string }).text === "probe" };
		const harness = { file: lines.file, args: lines.args, env: {}, conversation };
		const linesAdapter = {
			...adapter,
			harness: "pi",
			warmProbe: probe,
			buildCommand: () => harness,
			createParser: () => ({ parse: () => [] }),
		} as unknown as HarnessAdapter;
		const launchSpecOf = spec({ cwd: lines.cwd, limits: SCRIPTED_LIMITS });
		const pool = new WarmChildren({ idleTimeoutMs: 600_000, max: 1 });
		try {
			const runDir = run({}).runDir;
			const command = { ...lines, cwd: lines.cwd };
			pool.prepare(pool.launchOf(launchSpecOf, linesAdapter, harness, command, runDir) as WarmLaunch);
			const [warm] = pool.idleChildren();
			expect(await warm.ready).toBe(true);
			const result = await runChild(launchSpecOf, linesAdapter, {
				env: lines.env,
				signal: AbortSignal.abort(),
				warm: pool,
			});
			expect(result.status).toBe("aborted");
			expect(pool.idleChildren().map((idle) => idle.pid)).toEqual([warm.pid]);
			expect(isAlive(warm.pid as number)).toBe(true);
		} finally {
			await pool.close();
		}
	});
});
