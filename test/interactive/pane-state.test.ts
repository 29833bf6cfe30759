/** When a dead pane's TUI counts as exited: on tmux's report of its process's end, or after a bounded wait. */
import { describe, expect, it } from "vitest";
import { ExitReportWait, type PaneState } from "../../src/interactive/pane-state.ts";

const live: PaneState = { pid: 42, dead: false, reaped: false };
const closed: PaneState = { pid: 42, dead: true, reaped: false };
const reaped: PaneState = { pid: 42, dead: true, reaped: true, exitStatus: 3 };

describe("the wait for a dead pane's exit report", () => {
	it("does not end the run on a dead pane whose exit tmux has not reported, and ends it at the report", () => {
		const wait = new ExitReportWait(5_000);
		expect(wait.over(live, 0)).toBe(false);
		expect(wait.over(closed, 100)).toBe(false);
		expect(wait.over(closed, 5_099)).toBe(false);
		expect(wait.over(reaped, 5_099)).toBe(true);
	});

	it("ends the run once a dead pane went unreported for the whole wait, counted from when it was first seen dead", () => {
		const wait = new ExitReportWait(5_000);
		expect(wait.over(live, 0)).toBe(false);
		expect(wait.over(closed, 1_000)).toBe(false);
		expect(wait.over(closed, 5_999)).toBe(false);
		expect(wait.over(closed, 6_000)).toBe(true);
	});

	it("ends the run when the session is gone", () => {
		expect(new ExitReportWait(5_000).over(undefined, 0)).toBe(true);
	});
});
