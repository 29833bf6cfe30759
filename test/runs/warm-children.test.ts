/**
 * The launch key of warm children (src/runs/warm-children.ts, docs/settings.md §Warm pi children): two runs are one
 * launch when their command, environment, cwd, run files' contents and kill grace are the same, whatever their
 * run directories are called; what is never warmed has no key.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HarnessAdapter, HarnessCommand } from "../../src/core/harness-adapter.ts";
import type { LaunchSpec } from "../../src/core/launch-spec.ts";
import type { ChildCommand } from "../../src/process/types.ts";
import { WarmChildren } from "../../src/runs/warm-children.ts";
import { launchSpec, NATIVE_LIMITS } from "../support/launch-spec.ts";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const adapter = { warmProbe: { line: "probe", isAnswer: () => true } } as unknown as HarnessAdapter;
const conversation = { startLines: () => [] } as unknown as HarnessCommand["conversation"];
const spec = (fields: Partial<LaunchSpec> = {}) =>
	launchSpec({ harness: "pi", cwd: "/work", limits: NATIVE_LIMITS, ...fields });

/** A run directory holding `files`, and the command that names its system-prompt file and schema file. */
function run(files: Record<string, string>, env: Record<string, string> = {}) {
	const runDir = mkdtempSync(join(tmpdir(), "warm-key-"));
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
});
