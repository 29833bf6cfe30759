import { describe, expect, it, vi } from "vitest";
import type { ChildRun } from "../../src/core/child-run.ts";
import { JobRegistry, MAX_FINISHED_JOBS } from "../../src/runs/jobs.ts";

const child = (phase: ChildRun["phase"]): ChildRun => ({ index: 0, harness: "pi", task: "t", phase });

/** A run that ends when `end` is called, or as aborted when its signal fires. */
function controllable() {
	let end: (phase: ChildRun["phase"]) => void = () => {};
	const run = (signal: AbortSignal) =>
		new Promise<ChildRun[]>((resolve) => {
			end = (phase) => resolve([child(phase)]);
			signal.addEventListener("abort", () => resolve([child("aborted")]), { once: true });
		});
	return { run, end: (phase: ChildRun["phase"]) => end(phase) };
}

describe("job registry", () => {
	it("reports completion through finish, once, with the final children", async () => {
		const jobs = new JobRegistry();
		const finish = vi.fn();
		const { run, end } = controllable();
		const job = jobs.start("single", "echo", run, finish);
		expect(jobs.get(job.id)?.status).toBe("running");
		end("completed");
		await vi.waitFor(() => expect(finish).toHaveBeenCalledTimes(1));
		expect(finish.mock.calls[0][0].status).toBe("completed");
		expect(finish.mock.calls[0][1]).toEqual([child("completed")]);
	});

	it("marks a job whose run threw as failed and passes the error", async () => {
		const jobs = new JobRegistry();
		const finish = vi.fn();
		jobs.start("single", "x", async () => Promise.reject(new Error("boom")), finish);
		await vi.waitFor(() => expect(finish).toHaveBeenCalled());
		expect(finish.mock.calls[0][0].status).toBe("failed");
		expect(finish.mock.calls[0][2]).toBe("boom");
	});

	it("survives a finish callback that throws", async () => {
		const jobs = new JobRegistry();
		const error = vi.spyOn(console, "error").mockImplementation(() => {});
		const { run, end } = controllable();
		const job = jobs.start("single", "x", run, () => {
			throw new Error("delivery failed");
		});
		end("completed");
		await vi.waitFor(() => expect(error).toHaveBeenCalled());
		expect(String(error.mock.calls[0][0])).toContain(`could not deliver background job ${job.id}: delivery failed`);
		expect(await jobs.cancel(job.id)).toBe(false);
		error.mockRestore();
	});

	it("cancels a running job and settles before resolving; a finished job cannot be cancelled", async () => {
		const jobs = new JobRegistry();
		const finish = vi.fn();
		const { run } = controllable();
		const job = jobs.start("single", "x", run, finish);
		expect(await jobs.cancel(job.id)).toBe(true);
		expect(job.status).toBe("cancelled");
		expect(finish).toHaveBeenCalledTimes(1);
		expect(await jobs.cancel(job.id)).toBe(false);
		expect(await jobs.cancel("nope")).toBe(false);
	});

	it("stops every running job on close and delivers nothing after it", async () => {
		const jobs = new JobRegistry();
		const finish = vi.fn();
		const a = controllable();
		const b = controllable();
		const jobA = jobs.start("single", "a", a.run, finish);
		const jobB = jobs.start("single", "b", b.run, finish);
		await jobs.close();
		expect([jobA.status, jobB.status]).toEqual(["cancelled", "cancelled"]);
		expect(finish).not.toHaveBeenCalled();
	});

	it("keeps a bounded number of finished jobs", async () => {
		const jobs = new JobRegistry();
		for (let i = 0; i < MAX_FINISHED_JOBS + 5; i++)
			jobs.start(
				"single",
				`j${i}`,
				async () => [child("completed")],
				() => {},
			);
		await vi.waitFor(() => expect(jobs.list().every((job) => job.status === "completed")).toBe(true));
		expect(jobs.list()).toHaveLength(MAX_FINISHED_JOBS);
	});
});
