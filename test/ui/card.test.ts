/**
 * The one card renderer (src/ui/card.ts) and what draws with it: the outcome headline, live status with
 * elapsed time and last activity, previews cut to the width, the names a status line uses, the task a
 * chain step received, interrupted tool calls, interactive children, costs and the call line.
 */
import type { AgentToolResult, Theme } from "@earendil-works/pi-coding-agent";
import { initTheme } from "@earendil-works/pi-coding-agent";
import { visibleWidth } from "@earendil-works/pi-tui";
import { beforeAll, describe, expect, it } from "vitest";
import type { ChildPhase, ChildRun } from "../../src/core/child-run.ts";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { RunResult } from "../../src/core/run-result.ts";
import { childStatus, headlineText, renderCards } from "../../src/ui/card.ts";
import { formatCost, formatUsageTotals } from "../../src/ui/format.ts";
import { renderJobMessage, renderJobsResult } from "../../src/ui/job-render.ts";
import { renderSubagentCall, renderSubagentResult } from "../../src/ui/render.ts";
import { runResult } from "../support/run-result.ts";

/** Tags colours instead of emitting escapes, so assertions read text and colour. */
const theme = {
	fg: (color: string, text: string) => `<${color}>${text}</>`,
	bold: (text: string) => text,
} as unknown as Theme;
/** No markup at all: for widths. */
const plain = { fg: (_c: string, text: string) => text, bold: (text: string) => text } as unknown as Theme;

function child(
	index: number,
	phase: ChildPhase,
	fields: Partial<ChildRun> = {},
	result?: Partial<RunResult>,
): ChildRun {
	const status = phase === "completed" || phase === "failed" || phase === "aborted" || phase === "timed_out";
	return {
		index,
		harness: "pi",
		agent: "scout",
		task: `task ${index}`,
		phase,
		...(status || phase === "running" || result
			? { result: runResult({ status: status ? phase : "completed", durationMs: 1500, ...result }) }
			: {}),
		...fields,
	};
}

const draw = (children: ChildRun[], expanded = false, width = 120, now = Date.now()) =>
	renderCards(children, { expanded, now }, theme).render(width).join("\n");

beforeAll(() => initTheme("dark", false));

describe("the headline", () => {
	it("counts a chain's failed step as failed and the rest as skipped, never as done", () => {
		const chain = [child(0, "completed"), child(1, "failed"), child(2, "skipped")];
		expect(headlineText(chain)).toBe("1 ✓ · 1 ✗ · 1 skipped");
		expect(draw(chain)).not.toContain("done");
	});

	it("counts aborted, running and queued children by outcome", () => {
		const phases: ChildPhase[] = ["completed", "completed", "aborted", "running", "pending", "timed_out"];
		expect(headlineText(phases.map((phase, i) => child(i, phase)))).toBe(
			"2 ✓ · 1 ✗ · 1 aborted · 1 running · 1 queued",
		);
	});
});

describe("a child's card", () => {
	it("ticks: the same running child drawn 2 s later shows 2 s more and how long it has been quiet", () => {
		const startedAt = 1_000_000;
		const running = child(0, "running", { startedAt }, { activity: "waiting", lastEventAt: startedAt + 300 });
		expect(childStatus(running, startedAt + 400)).toBe("waiting for the model · 0.4s");
		expect(childStatus(running, startedAt + 2_400)).toBe("waiting for the model · 2.4s · last activity 2s ago");
	});

	it("names a waiting child queued, in its row as in the headline", () => {
		const text = draw([child(0, "running"), child(1, "pending")]);
		expect(text).toContain("1 queued");
		expect(text).toContain("<muted>queued</>");
		expect(text).not.toContain("pending");
	});

	it("cuts previews to the width it is drawn at, not to a fixed length", () => {
		const long = "word ".repeat(200);
		const done = [child(0, "completed", { task: long }, { finalAnswer: long, task: long })];
		for (const width of [40, 200]) {
			const lines = renderCards(done, { expanded: false, now: 0 }, plain).render(width);
			expect(lines.every((line) => visibleWidth(line) <= width)).toBe(true);
			// The answer preview uses the room there is.
			expect(lines.some((line) => visibleWidth(line) > width - 5)).toBe(true);
		}
	});

	it("shows a chain step's task as it received it, not its {previous} template", () => {
		const step = child(1, "completed", { task: "review {previous}" }, { task: "review the plan text" });
		expect(draw([step], true)).toContain("task: review the plan text");
		expect(draw([step], true)).not.toContain("{previous}");
	});

	it("marks a tool call an aborted child left unfinished as interrupted, not running", () => {
		const tool = { toolCallId: "t1", toolName: "bash", args: { command: "sleep 9" }, pending: true };
		const aborted = child(0, "aborted", {}, { tools: [tool], transcript: [{ kind: "tool", toolCallId: "t1" }] });
		expect(draw([aborted])).toContain("<muted>⊘</> <toolOutput>$ sleep 9</>");
		expect(draw([aborted])).not.toContain("…");
		const running = child(0, "running", {}, { tools: [tool] });
		expect(draw([running])).toContain("<warning>…</> <toolOutput>$ sleep 9</>");
	});

	it("shows the session line once in the expanded view", () => {
		const done = child(0, "completed", {}, { nativeSessionId: "abc-123", finalAnswer: "ok" });
		expect(draw([done], true).match(/session: abc-123/g)).toHaveLength(1);
	});

	it("an unnamed child shows a preview of its task; a named one its name", () => {
		const task = "find the auth module";
		expect(draw([child(0, "completed", { task }, { task })])).toContain(`— ${task}`);
		expect(draw([child(0, "completed", { taskName: "auth" })])).toContain('"auth"');
	});

	it("badges a running interactive child and gives its attach command, and drops it once the session is gone", () => {
		const interactive = {
			socket: "/tmp/s/sock",
			session: "pi-1a2b3c4d",
			attachCommand: "tmux -S /tmp/s/sock attach -t pi-1a2b3c4d",
			keptOpen: false,
		};
		const running = draw([child(0, "running", {}, { interactive })]);
		expect(running).toContain("<accent>interactive</>");
		expect(running).toContain("/subagent-attach pi-1a2b3c4d");
		expect(running).toContain(interactive.attachCommand);
		const ended = draw([child(0, "completed", {}, { interactive })]);
		expect(ended).toContain("<accent>interactive</>");
		expect(ended).not.toContain("attach");
		const kept = draw([child(0, "completed", {}, { interactive: { ...interactive, keptOpen: true } })]);
		expect(kept).toContain("/subagent-attach pi-1a2b3c4d");
	});
});

describe("costs and context", () => {
	it("shows tiny costs as <$0.0001 and nothing as $0, and says what the context count is", () => {
		expect(formatCost(0.00001)).toBe("<$0.0001");
		expect(formatCost(0)).toBe("$0");
		expect(formatCost(0.0123)).toBe("$0.0123");
		expect(formatCost(2.5)).toBe("$2.50");
		const usage = { inputTokens: 5, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, turns: 1 };
		expect(formatUsageTotals({ ...usage, costUsd: 0.00002, contextTokens: 18 })).toBe(
			"1 turn ↑5 ↓2 <$0.0001 18 in context",
		);
	});
});

describe("the call line", () => {
	it("says 1 task, not 1 tasks, and names a resume by its session", () => {
		const one = renderSubagentCall({ tasks: [{ agent: "scout", task: "a" }] }, plain)
			.render(120)
			.join("\n");
		expect(one).toContain("parallel (1 task)");
		const resume = renderSubagentCall({ resume_session_id: "0199-abcd", task: "continue" }, plain)
			.render(120)
			.join("\n");
		expect(resume).toContain("subagent resume 0199-abcd continue");
		expect(resume).not.toContain("?");
	});
});

describe("a running tool row", () => {
	it("redraws itself every second while a child runs, and stops once none does", async () => {
		const state = {};
		let redraws = 0;
		let wake: () => void = () => {};
		const context = {
			state,
			invalidate: () => {
				redraws++;
				wake();
			},
		};
		const details = (phase: ChildPhase): SubagentDetails => ({ mode: "single", children: [child(0, phase)] });
		const result = (phase: ChildPhase) =>
			({ content: [], details: details(phase) }) as AgentToolResult<SubagentDetails>;
		const row = renderSubagentResult(result("running"), { expanded: false, isPartial: true }, theme, context);
		// Two ticks with no event in between: the row is drawn after each, as the TUI would.
		for (let tick = 0; tick < 2; tick++) {
			await new Promise<void>((resolve) => {
				wake = resolve;
			});
			row.render(120);
		}
		expect(redraws).toBe(2);
		renderSubagentResult(result("completed"), { expanded: false, isPartial: false }, theme, context);
		expect((state as { ticker: { ticking: boolean } }).ticker.ticking).toBe(false);
	});
});

describe("a background job's report", () => {
	it("renders as the same cards as a foreground result, under the job's headline", () => {
		const children = [child(0, "completed", { taskName: "a" }), child(1, "failed", { taskName: "b" })];
		const message = {
			content: "Background job 1a2b3c4d …",
			details: {
				mode: "parallel",
				children,
				jobId: "1a2b3c4d",
				status: "failed",
				label: 'parallel: scout "a", scout "b"',
			},
		};
		const text = renderJobMessage(message, { expanded: false, outputPad: 0 }, theme).render(160).join("\n");
		expect(text).toContain("<accent>1a2b3c4d</>");
		expect(text).toContain("1 ✓ · 1 ✗");
		expect(text).toContain('<dim>"a"</>');
		expect(text).toContain("<error>✗</>");
		expect(text).not.toContain("Background job 1a2b3c4d …");
	});
});

describe("a background call's own result", () => {
	it("announces its job in muted text, not as an error", () => {
		const started = {
			content: [{ type: "text", text: "Started background job 1a2b3c4d: pi: x." }],
			details: { mode: "single", children: [], jobId: "1a2b3c4d" },
		} as unknown as AgentToolResult<SubagentDetails>;
		const text = renderSubagentResult(started, { expanded: false, isPartial: false }, theme).render(120).join("\n");
		expect(text).toContain("<muted>Started background job 1a2b3c4d");
		const refused = {
			content: [{ type: "text", text: "nothing was started" }],
			details: { mode: "invalid", children: [], error: "x" },
		};
		expect(
			renderSubagentResult(refused as AgentToolResult<SubagentDetails>, { expanded: false, isPartial: false }, theme)
				.render(120)
				.join(""),
		).toContain("<error>nothing was started");
	});
});

describe("a subagent_jobs result", () => {
	it("draws each job's headline over its children's cards, collapsed and expanded", () => {
		const job = {
			id: "1a2b3c4d",
			mode: "parallel",
			label: 'parallel: scout "a", scout: say hi',
			startedAt: 0,
			endedAt: 2_000,
			status: "completed",
			children: [
				child(0, "completed", { taskName: "a" }),
				child(1, "completed", { task: "say hi" }, { task: "say hi" }),
			],
		};
		const result = { content: [{ type: "text", text: "- 1a2b3c4d …" }], details: { jobs: [job] } };
		const draw = (expanded: boolean) =>
			renderJobsResult(result as never, { expanded, isPartial: false }, theme)
				.render(160)
				.join("\n");
		expect(draw(false)).toContain('<accent>1a2b3c4d</> parallel: scout "a", scout: say hi <muted>completed · 2.0s</>');
		expect(draw(false)).toContain("2 ✓");
		expect(draw(false)).toContain("— say hi");
		expect(draw(true)).toContain("task: say hi");
	});
});

describe("a subagent_jobs send", () => {
	it("shows its receipt in words, without the tool's codes", () => {
		const result = {
			content: [{ type: "text", text: "queued (input-1): pi: steer queued" }],
			details: { jobs: [], receipt: { status: "queued", inputId: "input-1", ack: "pi: steer queued" } },
		};
		const text = renderJobsResult(result as never, { expanded: false, isPartial: false }, theme)
			.render(120)
			.join("");
		expect(text).toContain("queued: pi: steer queued");
		expect(text).not.toContain("input-1");
	});
});
