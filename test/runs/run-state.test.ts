import { describe, expect, it } from "vitest";
import { MAX_TOOL_ARGS_CHARS, MAX_TOOLS, RunState } from "../../src/runs/run-state.ts";
import { launchSpec } from "../support/launch-spec.ts";

const state = () => new RunState(launchSpec({ harness: "pi", cwd: "/w" }), "pi");

describe("run state", () => {
	it("keeps the newest tool calls only, counting the dropped ones", () => {
		const run = state();
		for (let i = 0; i < MAX_TOOLS + 5; i++) {
			run.apply({ type: "tool_start", toolCallId: `t${i}`, toolName: "bash", args: { command: `echo ${i}` } });
		}
		expect(run.live.tools).toHaveLength(MAX_TOOLS);
		expect(run.live.tools[0].toolCallId).toBe("t5");
		expect(run.live.toolsDropped).toBe(5);
	});

	it("keeps large tool arguments as a bounded preview", () => {
		const run = state();
		const content = "x".repeat(100_000);
		run.apply({ type: "tool_start", toolCallId: "w", toolName: "write", args: { path: "/f", content } });
		const args = run.live.tools[0].args as string;
		expect(typeof args).toBe("string");
		expect(args.length).toBeLessThan(MAX_TOOL_ARGS_CHARS + 100);
		expect(args).toMatch(/^\{"path":"\/f","content":"x+… \[\d+ more characters\]$/);
	});

	it("records texts and tool calls in order, tool calls by id", () => {
		const run = state();
		run.apply({ type: "assistant_text", text: "Looking.", final: true });
		run.apply({ type: "tool_start", toolCallId: "a", toolName: "read", args: { path: "x" } });
		run.apply({ type: "tool_end", toolCallId: "a", toolName: "read", output: "data", isError: false });
		run.apply({ type: "assistant_text", text: "Done.", final: true });
		expect(run.live.transcript).toEqual([
			{ kind: "text", text: "Looking." },
			{ kind: "tool", toolCallId: "a" },
			{ kind: "text", text: "Done." },
		]);
		expect(run.live.tools[0]).toMatchObject({ toolCallId: "a", output: "data", pending: false });
		expect(run.live.finalAnswer).toBe("Done.");
	});

	it("falls back to the partial text of an unfinished message, with a warning", () => {
		const run = state();
		run.apply({ type: "assistant_text", text: "half ", final: false });
		run.apply({ type: "assistant_text", text: "done", final: false });
		run.settleAnswer();
		expect(run.live.finalAnswer).toBe("half done");
		expect(run.live.finalAnswerWarning).toContain("did not finish");
	});

	it("keeps a reported failure when the harness later says completed", () => {
		const run = state();
		run.apply({ type: "done", status: "failed", error: "codex started a new thread" });
		run.apply({ type: "done", status: "completed" });
		expect(run.terminal).toEqual({ status: "failed", error: "codex started a new thread" });
	});
});
