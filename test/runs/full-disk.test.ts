/**
 * A full disk while this package writes its files (SECURITY.md "Data", docs/rules.md §Results): files stay
 * whole, no temp file or directory is left, and the error names the file. A real full disk: a filled tmpfs
 * (test/support/full-disk.ts; needs root, as CI runs), the real run layer and pi adapter with the scripted pi
 * stand-in, the real tmux host.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { saveRosterEnabled, settingsFilePath } from "../../src/config/settings.ts";
import { writeFileAtomic } from "../../src/core/atomic-write.ts";
import type { HarnessAdapter, HarnessCommand } from "../../src/core/harness-adapter.ts";
import { createPiAdapter } from "../../src/harness/pi/adapter.ts";
import { SessionHold } from "../../src/harness/pi/session-retention.ts";
import { findTmux, TmuxHost } from "../../src/interactive/tmux-host.ts";
import { pruneArtifactsWhenDue, writeArtifact } from "../../src/runs/artifacts.ts";
import { makeOwnedTempDir, RUN_DIR_PREFIX } from "../../src/runs/leftovers.ts";
import { runChild } from "../../src/runs/run-child.ts";
import { WarmChildren, type WarmLaunch } from "../../src/runs/warm-children.ts";
import { canMountTmpfs, type FullDisk, mountFullDisk } from "../support/full-disk.ts";
import { launchSpec, SCRIPTED_LIMITS } from "../support/launch-spec.ts";
import { answer, PI_SCRIPT, session, settled } from "../support/pi-script.ts";

const mountable = canMountTmpfs();
let disk: FullDisk | undefined;
const savedTmpdir = process.env.TMPDIR;

afterEach(() => {
	if (savedTmpdir === undefined) delete process.env.TMPDIR;
	else process.env.TMPDIR = savedTmpdir;
	disk?.unmount();
	disk = undefined;
});

/** A full disk whose `prepare` ran before it was filled. */
function fullDisk(prepare: (dir: string) => void = () => {}): string {
	disk = mountFullDisk({ fill: false });
	prepare(disk.dir);
	disk.fill();
	return disk.dir;
}

describe.skipIf(!mountable)("a full disk", () => {
	it("keeps a file whole and leaves no temp file when an atomic write runs out of space", () => {
		const dir = fullDisk((d) => writeFileSync(join(d, "file.json"), "old"));
		expect(() => writeFileAtomic(join(dir, "file.json"), "x".repeat(100_000))).toThrow(/ENOSPC/);
		expect(readFileSync(join(dir, "file.json"), "utf8")).toBe("old");
		expect(readdirSync(dir).sort()).toEqual([".filler", "file.json"]);
	});

	it("keeps the settings file whole and names it when the roster toggle cannot write it", () => {
		const agentDir = fullDisk((d) => {
			mkdirSync(join(d, "extensions"));
			writeFileSync(settingsFilePath(d), '{"roster":{"enabled":false}}\n');
		});
		expect(() => saveRosterEnabled(agentDir, true)).toThrow(
			`${settingsFilePath(agentDir)}: cannot write settings file (ENOSPC)`,
		);
		expect(readFileSync(settingsFilePath(agentDir), "utf8")).toBe('{"roster":{"enabled":false}}\n');
		expect(readdirSync(join(agentDir, "extensions"))).toEqual(["agentshell.json"]);
	});

	it("keeps the last hold file whole when a new hold cannot be written", () => {
		let hold: SessionHold | undefined;
		const holds = fullDisk((d) => {
			hold = new SessionHold(d);
			hold.write(["kept-session"]);
		});
		hold?.write(["kept-session", "x".repeat(300_000)]);
		const names = readdirSync(holds).filter((name) => name !== ".filler");
		expect(names).toHaveLength(1);
		expect(JSON.parse(readFileSync(join(holds, names[0] as string), "utf8"))).toEqual({ sessions: ["kept-session"] });
	});

	it("reports an artifact that cannot be written, naming it, and leaves no temp file", () => {
		const dir = fullDisk((d) => mkdirSync(join(d, "session"), { mode: 0o700 }));
		const written = writeArtifact(join(dir, "session"), "call-1", "y".repeat(100_000));
		expect(written).toEqual({
			error: `could not write the full answer to ${join(dir, "session", "call-1.md")}: ENOSPC: no space left on device, write`,
		});
		expect(readdirSync(join(dir, "session"))).toEqual([]);
	});

	it("prunes at a session start when its stamp cannot be written, losing and throwing nothing, and prunes again next time", () => {
		const dir = fullDisk((d) => {
			mkdirSync(join(d, "root", "recent"), { recursive: true, mode: 0o700 });
			writeFileSync(join(d, "root", "recent", "a.md"), "answer");
		});
		const root = join(dir, "root");
		expect(pruneArtifactsWhenDue(root)).toEqual([]);
		expect(readdirSync(root)).toEqual(["recent"]);
		expect(readFileSync(join(root, "recent", "a.md"), "utf8")).toBe("answer");
		// No stamp: the next session start prunes again rather than skipping.
		expect(pruneArtifactsWhenDue(root)).toEqual([]);
	});

	it("fails a child whose agent body cannot be written, naming the run file, and leaves no run directory", async () => {
		process.env.TMPDIR = fullDisk();
		const adapter = createPiAdapter({
			invocation: () => ({
				file: process.execPath,
				args: [PI_SCRIPT, JSON.stringify([session, answer("hi"), settled])],
			}),
			sessionDir: join(process.env.TMPDIR, "sessions"),
			agentDir: process.env.TMPDIR,
		});
		const spec = launchSpec({
			harness: "pi",
			task: "t",
			cwd: process.env.TMPDIR,
			projectTrusted: true,
			systemPromptAddition: "z".repeat(300_000),
			limits: SCRIPTED_LIMITS,
		});
		const env = { ...(process.env as Record<string, string>) };
		await expect(runChild(spec, adapter, { env })).rejects.toThrow(
			new RegExp(
				`^could not write the run file ${process.env.TMPDIR}/${RUN_DIR_PREFIX}${process.pid}-\\w{6}/append-system-prompt\\.md: ENOSPC`,
			),
		);
		expect(readdirSync(process.env.TMPDIR)).toEqual([".filler"]);
	});

	it("starts no warm child when its copy of the run files cannot be written, and leaves no directory", () => {
		const runDir = makeOwnedTempDir(RUN_DIR_PREFIX, undefined, { "append-system-prompt.md": "z".repeat(300_000) });
		try {
			const pool = new WarmChildren({ idleTimeoutMs: 600_000, max: 1 });
			const adapter = { warmProbe: { line: "probe", isAnswer: () => true }, startupInputs: () => [] };
			const command = { file: process.execPath, args: ["-e", "setInterval(() => {}, 1e6)"], cwd: runDir, env: {} };
			const harness = { ...command, conversation: {} } as unknown as HarnessCommand;
			const spec = launchSpec({ harness: "pi", cwd: runDir, limits: SCRIPTED_LIMITS });
			const launch = pool.launchOf(spec, adapter as unknown as HarnessAdapter, harness, command, runDir);
			expect(launch).toBeDefined();
			process.env.TMPDIR = fullDisk();
			pool.prepare(launch as WarmLaunch);
			expect(pool.idleChildren()).toEqual([]);
			expect(readdirSync(process.env.TMPDIR)).toEqual([".filler"]);
		} finally {
			rmSync(runDir, { recursive: true, force: true });
		}
	});

	it("names the temp directory when a child's run directory cannot be created", () => {
		disk = mountFullDisk({ inodes: 1 });
		expect(() => makeOwnedTempDir(RUN_DIR_PREFIX, disk?.dir)).toThrow(
			new RegExp(`^could not create a private directory in ${disk.dir}: ENOSPC`),
		);
	});

	it.skipIf(!findTmux())("fails a tmux host whose config cannot be written, naming it, and leaves no directory", () => {
		const dir = fullDisk();
		expect(() => new TmuxHost(findTmux() as string, dir)).toThrow(
			/^could not write the run file .*\/tmux\.conf: ENOSPC/,
		);
		expect(readdirSync(dir)).toEqual([".filler"]);
	});
});
