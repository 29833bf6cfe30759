/** The background jobs widget (docs/background-jobs.md §Background jobs): oldest three running jobs, `+N more`, elapsed time, off when silent. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { JOBS_WIDGET_KEY, JobsWidget, type JobView, jobsWidgetLines } from "../../src/ui/jobs-widget.ts";

const job = (id: string, startedAt: number, status = "running"): JobView => ({
	id,
	label: `agent ${id}`,
	status,
	startedAt,
});

afterEach(() => vi.useRealTimers());

describe("background jobs widget", () => {
	it("names the oldest three running jobs with their elapsed time and counts the rest", () => {
		const jobs = [job("j5", 5_000), job("j1", 1_000), job("done", 0, "completed"), job("j3", 3_000), job("j4", 4_000)];
		expect(jobsWidgetLines(jobs, 65_000)).toEqual([
			"⏳ background: j1 agent j1 · 1m04s · j3 agent j3 · 1m02s · j4 agent j4 · 1m01s · +1 more",
		]);
		expect(jobsWidgetLines([job("done", 0, "completed")], 1)).toBeUndefined();
	});

	it("shows while a job runs, refreshes every second, and goes away when none runs or the setting is silent", () => {
		vi.useFakeTimers({ now: 10_000 });
		const jobs = [job("a", 10_000)];
		let silent = false;
		const calls: Array<[string, string[] | undefined]> = [];
		const widget = new JobsWidget(
			() => jobs,
			() => silent,
		);
		widget.attach((key, lines) => calls.push([key, lines]));
		expect(calls).toEqual([[JOBS_WIDGET_KEY, ["⏳ background: a agent a · 0.0s"]]]);
		vi.advanceTimersByTime(2_000);
		expect(calls.at(-1)).toEqual([JOBS_WIDGET_KEY, ["⏳ background: a agent a · 2.0s"]]);
		jobs[0] = { ...jobs[0], status: "completed" };
		widget.refresh();
		expect(calls.at(-1)).toEqual([JOBS_WIDGET_KEY, undefined]);
		const count = calls.length;
		vi.advanceTimersByTime(5_000);
		expect(calls).toHaveLength(count);
		jobs.push(job("b", 15_000));
		silent = true;
		widget.refresh();
		expect(calls).toHaveLength(count);
	});
});
