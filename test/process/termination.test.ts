import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { fixture, isAlive, ofType, run, waitUntilGone } from "./run-fixture.ts";

/** Pids a test leaves behind on purpose (outside the group); killed after each test. */
const strays: number[] = [];
afterEach(() => {
	for (const pid of strays.splice(0)) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {}
	}
});

describe("startProcess: ending the process group", () => {
	it("kills grandchildren on abort", async () => {
		const controller = new AbortController();
		const { running, waitForRecord, done } = run(fixture("grandchild", ["stay"]), { signal: controller.signal });
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		expect(isAlive(grandchild)).toBe(true);
		controller.abort();
		const outcome = await done;
		expect(outcome.end).toBe("aborted");
		expect(outcome.signal).toBe("SIGTERM");
		await waitUntilGone(grandchild);
		await waitUntilGone(running.pid as number);
	});

	it("kills descendants that moved to their own process group on abort", async () => {
		const controller = new AbortController();
		const { waitForRecord, done } = run(fixture("grandchild", ["stay", "own-group"]), { signal: controller.signal });
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		expect(isAlive(grandchild)).toBe(true);
		controller.abort();
		expect((await done).end).toBe("aborted");
		await waitUntilGone(grandchild);
	});

	it("kills descendants that moved to their own process group on timeout", async () => {
		const { waitForRecord, done } = run(fixture("grandchild", ["stay", "own-group"]), { limits: { timeoutMs: 500 } });
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		expect((await done).end).toBe("timed_out");
		await waitUntilGone(grandchild);
	});

	it("kills grandchildren on timeout", async () => {
		const { waitForRecord, done } = run(fixture("grandchild", ["stay"]), { limits: { timeoutMs: 500 } });
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		const outcome = await done;
		expect(outcome.end).toBe("timed_out");
		await waitUntilGone(grandchild);
	});

	it("times out a child that hangs", async () => {
		const { records, done } = run(fixture("never-exits"), { limits: { timeoutMs: 300 } });
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "timed_out", signal: "SIGTERM", exitCode: null });
		expect(outcome.durationMs).toBeGreaterThanOrEqual(300);
		expect(records.some(ofType("agent_settled"))).toBe(true);
	});

	it("sends SIGKILL after the grace when the child ignores SIGTERM", async () => {
		const controller = new AbortController();
		const { waitForRecord, done } = run(fixture("ignores-sigterm"), {
			signal: controller.signal,
			limits: { killGraceMs: 300 },
		});
		await waitForRecord(ofType("ready"));
		const abortedAt = performance.now();
		controller.abort();
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "aborted", signal: "SIGKILL" });
		expect(performance.now() - abortedAt).toBeGreaterThanOrEqual(290);
		expect(outcome.stderrTail).toContain("ignoring SIGTERM");
	});

	it("ends a child that never exits after its terminal event", async () => {
		const { running, records, done } = run(fixture("never-exits"), {
			limits: { terminalGraceMs: 200 },
			onRecord: (record) => {
				if ((record as { type?: string }).type === "agent_settled") running.terminalSeen();
			},
		});
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "killed_after_terminal", signal: "SIGTERM" });
		expect(records.map((record) => record.type)).toEqual(["session", "agent_settled"]);
		await waitUntilGone(running.pid as number);
	});

	it("lets a child that exits within the terminal grace end as a plain exit", async () => {
		const { running, done } = run(fixture("echo"), {
			limits: { terminalGraceMs: 5000 },
			onRecord: (record) => {
				if ((record as { type?: string }).type === "agent_settled") running.terminalSeen();
			},
		});
		expect(await done).toMatchObject({ end: "exited", exitCode: 0 });
	});

	it("kills a grandchild that holds stdout open after the child exits", async () => {
		const { waitForRecord, done } = run(fixture("grandchild", ["exit"]), { limits: { drainMs: 10_000 } });
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "exited", exitCode: 0 });
		// Killing the rest of the group at the leader's exit closes the pipe: no need to wait out the drain.
		expect(outcome.durationMs).toBeLessThan(5000);
		await waitUntilGone(grandchild);
	});

	it("kills a setsid grandchild that holds stdout open after the child exits 0 by itself", async () => {
		const { waitForRecord, done } = run(fixture("grandchild", ["exit", "own-group"]), { limits: { drainMs: 10_000 } });
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		strays.push(grandchild);
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "exited", exitCode: 0 });
		// The leader-exit sweep found it by its run marker and closed the pipe: the drain was not waited out.
		expect(outcome.durationMs).toBeLessThan(5000);
		await waitUntilGone(grandchild);
	});

	it("ends the run after the drain when an unmarked process outside the group holds stdout open", async () => {
		const { records, waitForRecord, done } = run(fixture("grandchild", ["exit", "own-group-clean-env"]), {
			limits: { drainMs: 300 },
		});
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		strays.push(grandchild);
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "exited", exitCode: 0 });
		expect(records.some(ofType("agent_settled"))).toBe(true);
		// The escaped grandchild is still running and still holds the pipe: the run ended on the drain.
		expect(isAlive(grandchild)).toBe(true);
	});

	it("removes the abort listener after the end", async () => {
		const controller = new AbortController();
		const { done } = run(fixture("echo"), { signal: controller.signal });
		expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
		await done;
		expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
	});
});
