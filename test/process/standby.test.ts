/**
 * A child started ahead of its run (src/process/standby.ts, warm children: docs/settings.md §Warm pi children):
 * its output is held until a run adopts it and then handed over in order, without its readiness answer; one
 * that died while idle is not adopted; an idle one ends on `end()`.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_HELD_BYTES, StandbyProcess } from "../../src/process/standby.ts";
import { startProcess } from "../../src/process/start-process.ts";
import { SCRIPTED_LIMITS } from "../support/launch-spec.ts";
import { waitUntil } from "../support/processes.ts";
import { makeTempDir } from "../support/temp-dir.ts";
import { fixture, isAlive } from "./run-fixture.ts";

// lines.mjs echoes each stdin line as {"type":"line","text":…}: the probe's middle line is its answer.
const probe = {
	line: "held before\nprobe\nheld after",
	isAnswer: (record: unknown) => (record as { text?: string }).text === "probe",
};

describe("StandbyProcess", () => {
	it("hands its held output to the run that adopts it, in order and without the probe's answer", async () => {
		const standby = new StandbyProcess(fixture("lines"), probe, SCRIPTED_LIMITS.killGraceMs);
		expect(await standby.ready).toBe(true);
		const adopted = standby.adopt();
		expect(adopted?.pid).toBe(standby.pid);
		expect(standby.adopt()).toBeUndefined();
		const texts: unknown[] = [];
		const running = startProcess(fixture("lines"), {
			limits: SCRIPTED_LIMITS,
			adopt: adopted,
			onRecord: (record) => texts.push((record as { text: string }).text),
			onDiagnostic: () => {},
		});
		expect(running.pid).toBe(standby.pid);
		running.input?.writeLine("the task");
		running.input?.end();
		const outcome = await running.done;
		expect(outcome).toMatchObject({ end: "exited", exitCode: 0, pid: standby.pid });
		expect(texts).toEqual(["held before", "held after", "the task"]);
	});

	it("is not adopted once it died while idle, and its readiness resolves false", async () => {
		const standby = new StandbyProcess(fixture("lines"), { ...probe, isAnswer: () => false }, 300);
		process.kill(standby.pid as number, "SIGKILL");
		await standby.gone;
		expect(await standby.ready).toBe(false);
		expect(standby.idle).toBe(false);
		expect(standby.adopt()).toBeUndefined();
	});

	it("ends its process group on end() while idle", async () => {
		const standby = new StandbyProcess(fixture("never-exits"), probe, 300);
		expect(isAlive(standby.pid as number)).toBe(true);
		await standby.end();
		expect(isAlive(standby.pid as number)).toBe(false);
	});

	it("is gone at once when its command cannot start", async () => {
		const standby = new StandbyProcess(fixture("lines", [], { file: "/nonexistent/binary" }), probe, 300);
		await standby.gone;
		expect(standby.pid).toBeUndefined();
		expect(await standby.ready).toBe(false);
		expect(standby.adopt()).toBeUndefined();
	});

	it("holds no more than its limit of an idle child that floods and ignores SIGTERM, and is not adopted while it is being ended", async () => {
		const dir = makeTempDir("standby-flood-");
		const done = join(dir, "done");
		// A long grace: the child outlives its SIGTERM while it floods on; the test ends it with SIGKILL.
		const standby = new StandbyProcess(fixture("idle-flood", ["8", done]), probe, 600_000);
		try {
			await waitUntil(() => existsSync(done), "the idle child to have written 8 MiB");
			expect(isAlive(standby.pid as number)).toBe(true);
			expect(standby.heldBytes).toBeLessThanOrEqual(MAX_HELD_BYTES);
			expect(standby.idle).toBe(false);
			expect(standby.adopt()).toBeUndefined();
		} finally {
			process.kill(-(standby.pid as number), "SIGKILL");
			await standby.gone;
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
