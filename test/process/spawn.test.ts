import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { startProcess } from "../../src/process/start-process.ts";
import { SCRIPTED_LIMITS } from "../support/launch-spec.ts";
import { fixture, ofType, run } from "./run-fixture.ts";

const noop = () => {};

describe("startProcess: start, stdin, environment", () => {
	it("delivers a 300 KB stdin byte for byte", async () => {
		// Starts with "-@" (never argv-safe), holds multi-byte characters and no trailing newline.
		const task = `-@task ${"Ünïcødé € 😀 line\n".repeat(12_000)}end`;
		expect(Buffer.byteLength(task)).toBeGreaterThan(300_000);
		const { records, done } = run(fixture("echo", [], { stdin: task }));
		const outcome = await done;
		expect(outcome.end).toBe("exited");
		const echo = records.find(ofType("echo"));
		expect(echo?.stdinBytes).toBe(Buffer.byteLength(task));
		expect(echo?.sha256).toBe(createHash("sha256").update(task).digest("hex"));
	});

	it("ignores stdin when no text is given", async () => {
		const { records, done } = run(fixture("echo"));
		await done;
		expect(records.find(ofType("echo"))?.stdinBytes).toBe(0);
	});

	it("passes exactly the given environment, argv and cwd", async () => {
		const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ONLY_THIS: "yes" };
		const cwd = tmpdir();
		const { records, done } = run(fixture("echo", ["--flag", "@file", "two words"], { env, cwd }));
		await done;
		const echo = records.find(ofType("echo"));
		// Plus the run marker, the one variable the process layer adds (SECURITY.md, "Processes").
		expect(echo?.env).toEqual({ ...env, PI_NATIVE_SUBAGENTS_RUN: expect.stringMatching(/^\d+-[0-9a-f]{8}\/\d+\/$/) });
		expect(echo?.args).toEqual(["--flag", "@file", "two words"]);
		expect(echo?.cwd).toBe(cwd);
	});

	it("reports the exit code of a failing child", async () => {
		const outcome = await startProcess(
			{ file: process.execPath, args: ["-e", "process.exit(3)"], cwd: tmpdir(), env: {} },
			{ limits: SCRIPTED_LIMITS, onRecord: noop, onDiagnostic: noop },
		).done;
		expect(outcome).toMatchObject({ end: "exited", exitCode: 3, signal: null, protocolFaults: [] });
		expect(outcome.pid).toBeTypeOf("number");
	});

	it("ends as a plain exit with the records seen when exit 0 comes without a terminal record", async () => {
		// The process layer reports facts; deciding that this is a failure is the runner's job (docs/rules.md §Child processes).
		const { records, done } = run(fixture("no-terminal"));
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "exited", exitCode: 0 });
		expect(records.map((record) => record.type)).toEqual(["session", "message_update"]);
	});

	it("keeps a bounded stderr tail", async () => {
		const { done } = run(fixture("echo", ["stderr:512"]), { limits: { stderrTailBytes: 1000 } });
		const outcome = await done;
		expect(Buffer.byteLength(outcome.stderrTail)).toBeLessThanOrEqual(1000);
		expect(outcome.stderrTail.endsWith("eeee\nEND-OF-STDERR\n")).toBe(true);
	});

	it("reports a missing binary as spawn_failed naming the command and cwd", async () => {
		const cwd = tmpdir();
		const running = startProcess(
			{ file: "no-such-harness-binary", args: [], cwd, env: { PATH: "/nonexistent" } },
			{ limits: SCRIPTED_LIMITS, onRecord: noop, onDiagnostic: noop },
		);
		expect(running.pid).toBeUndefined();
		const outcome = await running.done;
		expect(outcome.end).toBe("spawn_failed");
		expect(outcome.spawnError).toContain("no-such-harness-binary");
		expect(outcome.spawnError).toContain(cwd);
		expect(outcome.spawnError).toContain("ENOENT");
	});

	it("reports a nonexistent cwd as spawn_failed naming the command and cwd", async () => {
		const outcome = await startProcess(
			{ file: process.execPath, args: ["-e", ""], cwd: "/nonexistent/work/dir", env: {} },
			{ limits: SCRIPTED_LIMITS, onRecord: noop, onDiagnostic: noop },
		).done;
		expect(outcome.end).toBe("spawn_failed");
		expect(outcome.spawnError).toContain(process.execPath);
		expect(outcome.spawnError).toContain('"cwd" option is invalid: /nonexistent/work/dir');
	});

	it("does not spawn when the signal is already aborted", async () => {
		const controller = new AbortController();
		controller.abort();
		const { running, records, done } = run(fixture("echo"), { signal: controller.signal });
		expect(running.pid).toBeUndefined();
		expect(await done).toMatchObject({ end: "aborted", exitCode: null, durationMs: 0 });
		expect(records).toEqual([]);
	});
});
