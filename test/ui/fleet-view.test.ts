/**
 * The fleet registry (src/runs/fleet.ts) and the fleet view (src/ui/fleet-view.ts) driven by keys as the
 * TUI hands them: one list of every origin's children, the transcript with tool output, steering, a
 * confirmed stop, the result, and attach only for a child whose tmux session exists.
 */
import type { Theme } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { ChildRun } from "../../src/core/child-run.ts";
import type { FleetActions, FleetEntry } from "../../src/core/fleet.ts";
import { Fleet, MAX_FINISHED_CALLS } from "../../src/runs/fleet.ts";
import { type FleetOutcome, FleetView } from "../../src/ui/fleet-view.ts";
import { runResult } from "../support/run-result.ts";

const plain = { fg: (_c: string, text: string) => text, bold: (text: string) => text } as unknown as Theme;
const ENTER = "\r";
const ESCAPE = "\x1b";
const DOWN = "\x1b[B";

function running(index: number, fields: Partial<ChildRun> = {}): ChildRun {
	const tool = {
		toolCallId: "t1",
		toolName: "bash",
		args: { command: "ls" },
		output: "file-a\nfile-b",
		pending: false,
	};
	return {
		index,
		harness: "pi",
		agent: "scout",
		task: `task ${index}`,
		phase: "running",
		startedAt: Date.now(),
		result: runResult({
			task: `task ${index}`,
			tools: [tool],
			transcript: [
				{ kind: "text", text: "looking" },
				{ kind: "tool", toolCallId: "t1" },
			],
			nativeSessionId: `sess-${index}`,
		}),
		...fields,
	};
}

function setup() {
	const fleet = new Fleet();
	fleet.track({ id: "call-1", origin: "foreground", label: "scout: task 0", children: () => [running(0)] });
	fleet.track({ id: "job1", origin: "background", label: "scout: task 0", children: () => [running(0)] });
	const calls: string[] = [];
	const actions: FleetActions = {
		sessionFile: (entry) => `/sessions/${entry.child.result?.nativeSessionId}.jsonl`,
		steer: async (entry, text) => {
			calls.push(`steer ${entry.key} ${text}`);
			return "delivered: ok";
		},
		stopPrompt: (entry) => `cancel ${entry.callId}`,
		stop: async (entry) => {
			calls.push(`stop ${entry.key}`);
			return "cancelled";
		},
		result: () => "the answer",
	};
	const outcomes: FleetOutcome[] = [];
	const view = new FleetView(
		() => fleet.entries(),
		actions,
		plain,
		{ requestRender: () => {}, rows: () => 40 },
		(o) => outcomes.push(o),
	);
	const keys = (...data: string[]) => {
		for (const key of data) view.handleInput(key);
	};
	const screen = () => view.render(160).join("\n");
	return { view, keys, screen, calls, outcomes };
}

describe("the fleet view", () => {
	it("lists a foreground child and a background job's child at once, with harness, phase and last tool call", () => {
		const { screen, view } = setup();
		const text = screen();
		expect(text).toContain("Sub-agents of this session (2)");
		expect(text).toMatch(/scout: task 0 \[pi\] starting · \d+\.\ds · \$ ls · background job1/);
		expect(text).toMatch(/scout: task 0 \[pi\] starting · \d+\.\ds · \$ ls · foreground/);
		view.dispose();
	});

	it("opens a child's transcript with its tool output and session file on Enter, and goes back on Escape", () => {
		const { keys, screen, view } = setup();
		keys(DOWN, ENTER);
		const text = screen();
		expect(text).toContain("→ $ ls");
		expect(text).toContain("    file-b");
		expect(text).toContain("session file: /sessions/sess-0.jsonl");
		keys(ESCAPE);
		expect(screen()).toContain("Sub-agents of this session");
		view.dispose();
	});

	it("steers the selected child with the typed text, and stops it only once confirmed", async () => {
		const { keys, calls, screen, view } = setup();
		keys("s", ..."go left", ENTER);
		keys("x", "n");
		keys(DOWN, "x");
		expect(screen()).toContain("cancel call-1? (y/n)");
		keys("y");
		await new Promise((resolve) => setImmediate(resolve));
		expect(calls).toEqual(["steer job1/0 go left", "stop call-1/0"]);
		expect(screen()).toContain("cancelled");
		view.dispose();
	});

	it("shows the result on r, and refuses attach for a child without a tmux session", () => {
		const { keys, screen, outcomes } = setup();
		keys("r");
		expect(screen()).toContain("the answer");
		keys(ESCAPE, "a");
		expect(outcomes).toEqual([]);
		expect(screen()).toContain("has no tmux session to attach to");
		keys(ESCAPE);
		expect(outcomes).toEqual([{}]);
	});

	it("keeps a call's children as they ended, and forgets the oldest finished calls first", () => {
		const fleet = new Fleet();
		for (let i = 0; i <= MAX_FINISHED_CALLS; i++) {
			fleet
				.track({ id: `c${i}`, origin: "foreground", label: "x", children: () => [] })
				.end([running(0, { phase: "completed" })]);
		}
		const ids = fleet.entries().map((entry: FleetEntry) => entry.callId);
		expect(ids).toHaveLength(MAX_FINISHED_CALLS);
		expect(ids).not.toContain("c0");
		expect(fleet.entries()[0]).toMatchObject({ callId: `c${MAX_FINISHED_CALLS}`, callRunning: false });
	});
});
