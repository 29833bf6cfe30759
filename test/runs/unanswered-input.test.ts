/**
 * Input a harness never answers (docs/background-jobs.md §Talking to running children): the real run layer, channel and
 * job registry with the scripted pi stand-in (test/support/fault-cli/pi-script.mjs), which reads and
 * discards every stdin line, so it acknowledges no RPC command — a fault the real pi cannot produce.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ChildInputChannel } from "../../src/core/child-input.ts";
import type { ChildRun } from "../../src/core/child-run.ts";
import type { RunResult } from "../../src/core/run-result.ts";
import { createPiAdapter } from "../../src/harness/pi/adapter.ts";
import { JobRegistry } from "../../src/runs/jobs.ts";
import { runChild } from "../../src/runs/run-child.ts";
import { launchSpec, SCRIPTED_LIMITS } from "../support/launch-spec.ts";
import { PI_SCRIPT, session } from "../support/pi-script.ts";
import { groupMembers, waitUntil } from "../support/processes.ts";
import { releaseDirectories } from "../support/teardown.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const scratch = makeTempDir("unanswered-input-");
afterAll(() => releaseDirectories([scratch]));

/** Runs the stand-in: it reports a session and then hangs, answering nothing on stdin. */
function runSilentChild(options: { signal: AbortSignal; onInput: (channel: ChildInputChannel) => void }) {
	const adapter = createPiAdapter({
		invocation: () => ({ file: process.execPath, args: [PI_SCRIPT, JSON.stringify([session, { hang: true }])] }),
		sessionDir: join(scratch, "sessions"),
		agentDir: scratch,
	});
	const spec = launchSpec({
		harness: "pi",
		task: "hold on",
		cwd: scratch,
		projectTrusted: true,
		limits: SCRIPTED_LIMITS,
	});
	return runChild(spec, adapter, {
		env: { ...(process.env as Record<string, string>) },
		signal: options.signal,
		onInput: options.onInput,
		ackTimeoutMs: 200,
	});
}

describe("input the harness never acknowledges", () => {
	it("answers a send that is never acknowledged with an unacknowledged receipt while the child still runs", async () => {
		const controller = new AbortController();
		let channel: ChildInputChannel | undefined;
		let settled = false;
		const running = runSilentChild({ signal: controller.signal, onInput: (c) => (channel = c) }).finally(() => {
			settled = true;
		});
		await waitUntil(() => channel !== undefined, "the child's input channel");
		const receipt = await channel?.send("are you there?", "steer");
		expect(receipt).toEqual({
			status: "refused",
			reason: "unacknowledged",
			message: "pi did not acknowledge it within 0.2 s; it was written and may still arrive",
		});
		// The receipt came while the child was still running: the send did not wait for its exit.
		expect(settled).toBe(false);
		controller.abort();
		const result = await running;
		expect(result.status).toBe("aborted");
		expect(result.inputs ?? []).toEqual([]);
	});

	it("kills a child that never answers a stop once the grace period runs out, and the job says so", async () => {
		const jobs = new JobRegistry({ error: () => {} });
		let live: RunResult | undefined;
		let hasChannel = false;
		const childOf = (result: RunResult | undefined, phase: ChildRun["phase"]): ChildRun => ({
			index: 0,
			harness: "pi",
			task: "hold on",
			phase,
			result,
		});
		const job = jobs.start(
			"single",
			"silent",
			async (signal, update, onInput) => {
				update([childOf(undefined, "running")]);
				const result = await runSilentChild({
					signal,
					onInput: (channel) => {
						onInput(0, channel);
						hasChannel = true;
					},
				});
				live = result;
				return [childOf(result, result.status)];
			},
			() => "reported",
		);
		await waitUntil(() => hasChannel, "the child's input channel");
		const outcome = await jobs.stop(job.id, 300);
		expect(outcome).toEqual({
			receipts: [
				{ index: 0, receipt: { status: "requested", ack: "pi: the run ended before it acknowledged the stop" } },
			],
			killed: true,
		});
		expect(job.status).toBe("stopped");
		const result = live as RunResult;
		expect(result.status).toBe("aborted");
		expect(result.signal).not.toBeNull();
		expect(result.error).toContain("stopped on request (pi: the run ended before it acknowledged the stop)");
		expect(result.error).toContain("the child's process group was killed");
		expect(groupMembers(result.pid as number)).toEqual([]);
	});
});
