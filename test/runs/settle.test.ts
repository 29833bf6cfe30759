/**
 * One settle for every runner: headless and interactive runs map how they ended × the harness's verdict to
 * the same status and message, naming what held the child; a running child is never described as ended.
 */
import { describe, expect, it } from "vitest";
import { RunState } from "../../src/runs/run-state.ts";
import { type ChildHolder, describeCommand, type RunEnding, settleRun } from "../../src/runs/settle.ts";
import { launchSpec } from "../support/launch-spec.ts";

const state = () => new RunState(launchSpec({ harness: "pi", cwd: "/w" }), "pi");
const settled = (ending: RunEnding, holder: ChildHolder = "process group", before?: (run: RunState) => void) => {
	const run = state();
	before?.(run);
	const result = settleRun(run, ending, { holder });
	return { status: result.status, error: result.error };
};

describe("settling a run", () => {
	it("a running child's live run is running, never completed, until it is settled", () => {
		const run = state();
		expect(run.live.status).toBe("running");
		run.apply({ type: "done", status: "completed" });
		expect(run.live.status).toBe("running");
		expect(settleRun(run, { kind: "turn_ended" }, { holder: "tmux session" }).status).toBe("completed");
		expect(run.live.status).toBe("running");
	});

	it("words an abort and a timeout alike for a process group and a tmux session, naming what was killed", () => {
		for (const holder of ["process group", "tmux session"] as const) {
			expect(settled({ kind: "aborted" }, holder)).toEqual({
				status: "aborted",
				error: `aborted by the caller; the child's ${holder} was killed`,
			});
			expect(settled({ kind: "timed_out", durationMs: 4_012.4, timeoutMs: 4_000 }, holder)).toEqual({
				status: "timed_out",
				error: `timed out after 4012 ms (the limit is 4000 ms, setting limits.timeout_ms); the child's ${holder} was killed`,
			});
		}
	});

	it("words a start this package refused as not started, without the hint to choose another command", () => {
		const refusal = "pi-native-subagents: the parent-death watchdog (w) was started 11 times and is not started again";
		expect(settled({ kind: "spawn_failed", reason: refusal })).toEqual({
			status: "failed",
			error: `the pi child was not started: ${refusal}`,
		});
		expect(settled({ kind: "spawn_failed", reason: "could not start pi", commandEnv: "X_COMMAND" }).error).toBe(
			"the pi harness could not start pi (set X_COMMAND to choose its command)",
		);
	});

	it("takes the harness's verdict once the turn ended, and distrusts a success the process contradicts", () => {
		const failedVerdict = (run: RunState) => run.apply({ type: "done", status: "failed", error: "model said no" });
		expect(settled({ kind: "turn_ended" }, "tmux session", failedVerdict)).toEqual({
			status: "failed",
			error: "model said no",
		});
		const success = (run: RunState) => run.apply({ type: "done", status: "completed" });
		expect(
			settled({ kind: "exited", exitCode: 3, signal: null, protocolFaults: [] }, "process group", success),
		).toEqual({ status: "failed", error: "the child reported success but exited with code 3" });
		expect(settled({ kind: "exited", exitCode: 0, signal: null, protocolFaults: ["cut off"] })).toEqual({
			status: "failed",
			error: "protocol: the child exited with code 0 without a terminal event (cut off)",
		});
	});

	it("turns an unfinished run the caller asked to stop into aborted on request", () => {
		const run = state();
		const result = settleRun(
			run,
			{ kind: "exited", exitCode: 1, signal: null, protocolFaults: [] },
			{
				holder: "process group",
				stopAck: "pi acknowledged abort",
			},
		);
		expect(result).toMatchObject({
			status: "aborted",
			error: "stopped on request (pi acknowledged abort); the child exited with code 1",
		});
	});

	it("describes a command once, eliding a TUI's task", () => {
		expect(describeCommand("pi", ["--model", "a b"])).toBe('pi --model "a b"');
		expect(describeCommand("pi", ["--model", "m", "--", "the task"], true)).toBe("pi --model m -- <task>");
	});
});
