import { describe, expect, it, vi } from "vitest";
import type { ChildRun } from "../../src/core/child-run.ts";
import { jobMessage, shutdownReason } from "../../src/runs/job-messages.ts";
import { type Job, JobRegistry, MAX_FINISHED_JOBS } from "../../src/runs/jobs.ts";

/** A logger that keeps what it was given. */
function logger() {
	const errors: string[] = [];
	return { errors, error: (message: string) => void errors.push(message) };
}

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

/** Starts `count` jobs that complete at once. */
function startQuickJobs(jobs: JobRegistry, count: number): void {
	for (let i = 0; i < count; i++)
		jobs.start(
			"single",
			`j${i}`,
			async () => [child("completed")],
			() => "done",
		);
}

describe("job registry", () => {
	it("reports completion through finish, once, with the final children", async () => {
		const jobs = new JobRegistry(logger());
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
		const jobs = new JobRegistry(logger());
		const finish = vi.fn();
		jobs.start("single", "x", async () => Promise.reject(new Error("boom")), finish);
		await vi.waitFor(() => expect(finish).toHaveBeenCalled());
		expect(finish.mock.calls[0][0].status).toBe("failed");
		expect(finish.mock.calls[0][2]).toBe("boom");
	});

	it("reports a finish callback that throws to its logger, not to the global console", async () => {
		const log = logger();
		const jobs = new JobRegistry(log);
		const consoleError = vi.spyOn(console, "error");
		const { run, end } = controllable();
		const job = jobs.start("single", "x", run, () => {
			throw new Error("delivery failed");
		});
		end("completed");
		await vi.waitFor(() => expect(log.errors).toHaveLength(1));
		expect(log.errors[0]).toContain(`could not deliver background job ${job.id}: delivery failed`);
		expect(consoleError).not.toHaveBeenCalled();
		expect(await jobs.cancel(job.id)).toBe(false);
		consoleError.mockRestore();
	});

	it("cancels a running job and settles before resolving; a finished job cannot be cancelled", async () => {
		const jobs = new JobRegistry(logger());
		const finish = vi.fn();
		const { run } = controllable();
		const job = jobs.start("single", "x", run, finish);
		expect(await jobs.cancel(job.id)).toBe(true);
		expect(job.status).toBe("cancelled");
		expect(finish).toHaveBeenCalledTimes(1);
		expect(await jobs.cancel(job.id)).toBe(false);
		expect(await jobs.cancel("nope")).toBe(false);
	});

	it("cancels every running job on close, still reports each once with the reason, and starts none after", async () => {
		const jobs = new JobRegistry(logger());
		const finish = vi.fn((job: Job) => `${job.id} ${job.status}: ${job.cancelReason}`);
		const a = controllable();
		const b = controllable();
		const jobA = jobs.start("single", "a", a.run, finish);
		const jobB = jobs.start("single", "b", b.run, finish);
		await jobs.close("the session was replaced (/new)");
		expect([jobA.status, jobB.status]).toEqual(["cancelled", "cancelled"]);
		expect(finish).toHaveBeenCalledTimes(2);
		expect(jobA.resultText).toBe(`${jobA.id} cancelled: the session was replaced (/new)`);
		expect(jobMessage(jobA, "r", "u")).toContain(
			"cancelled (the session was replaced (/new); its children were stopped)",
		);
		expect(jobs.closed).toBe(true);
	});

	it("names why a session shutdown cancelled its jobs, for each of Pi's reasons", () => {
		expect(shutdownReason("quit")).toBe("the session ended");
		expect(shutdownReason("reload")).toBe("the extensions were reloaded (/reload)");
		for (const reason of ["new", "resume", "fork"] as const) {
			expect(shutdownReason(reason)).toBe(`the session was replaced (/${reason})`);
		}
	});

	it("waits for a job without cancelling it, and gives up after the timeout", async () => {
		const jobs = new JobRegistry(logger());
		const { run, end } = controllable();
		const job = jobs.start("single", "x", run, () => "the result");
		const early = await jobs.wait(job.id, 20);
		expect(early?.status).toBe("running");
		end("completed");
		const waited = await jobs.wait(job.id, 5_000);
		expect(waited?.status).toBe("completed");
		expect(waited?.resultText).toBe("the result");
		expect(await jobs.wait("nope", 10)).toBeUndefined();
	});

	it("stops waiting when the wait is aborted, leaving the job running", async () => {
		const jobs = new JobRegistry(logger());
		const { run, end } = controllable();
		const job = jobs.start("single", "x", run, () => "done");
		const controller = new AbortController();
		const waiting = jobs.wait(job.id, 600_000, controller.signal);
		controller.abort();
		expect((await waiting)?.status).toBe("running");
		end("completed");
		expect((await jobs.wait(job.id, 5_000))?.status).toBe("completed");
	});

	it("counts running jobs and keeps a finished job's result readable after listing", async () => {
		const jobs = new JobRegistry(logger());
		const a = controllable();
		const job = jobs.start("single", "a", a.run, () => "text of a");
		jobs.start("single", "b", controllable().run, () => "text of b");
		expect(jobs.running).toBe(2);
		a.end("completed");
		await jobs.wait(job.id, 5_000);
		expect(jobs.running).toBe(1);
		jobs.list();
		jobs.list();
		expect(jobs.get(job.id)?.resultText).toBe("text of a");
		await jobs.close("the session ended");
	});

	it("keeps a bounded number of finished jobs", async () => {
		const jobs = new JobRegistry(logger());
		startQuickJobs(jobs, MAX_FINISHED_JOBS + 5);
		await vi.waitFor(() => expect(jobs.list().every((job) => job.status === "completed")).toBe(true));
		expect(jobs.list()).toHaveLength(MAX_FINISHED_JOBS);
	});

	it("prunes finished jobs by finish time: a long job that ends after 20 newer ones stays retrievable", async () => {
		const jobs = new JobRegistry(logger());
		const long = controllable();
		const job = jobs.start("single", "long", long.run, () => "long result");
		startQuickJobs(jobs, MAX_FINISHED_JOBS + 1);
		await vi.waitFor(() => expect(jobs.list().filter((j) => j.status === "completed")).toHaveLength(MAX_FINISHED_JOBS));
		long.end("completed");
		const waited = await jobs.wait(job.id, 5_000);
		expect(waited?.status).toBe("completed");
		expect(jobs.readResult(job.id)?.resultText).toBe("long result");
		expect(jobs.list()).toHaveLength(MAX_FINISHED_JOBS);
	});

	it("keeps a job whose result a wait promised until the result is read", async () => {
		const jobs = new JobRegistry(logger());
		const job = jobs.start(
			"single",
			"promised",
			async () => [child("completed")],
			() => "promised result",
		);
		expect((await jobs.wait(job.id, 5_000))?.status).toBe("completed");
		startQuickJobs(jobs, MAX_FINISHED_JOBS + 3);
		await vi.waitFor(() => expect(jobs.list().every((j) => j.status === "completed")).toBe(true));
		expect(jobs.readResult(job.id)?.resultText).toBe("promised result");
		startQuickJobs(jobs, 1);
		await vi.waitFor(() => expect(jobs.get(job.id)).toBeUndefined());
	});
});
