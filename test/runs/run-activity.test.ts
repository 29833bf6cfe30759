/** A running child's phase (docs/tools.md §Results): what its own stream says it is doing. */
import { describe, expect, it } from "vitest";
import { RunState } from "../../src/runs/run-state.ts";
import { launchSpec } from "../support/launch-spec.ts";

describe("child activity", () => {
	it("goes starting → waiting for the model → running a tool → waiting → writing the answer", () => {
		const run = new RunState(launchSpec({ harness: "pi", cwd: "/w" }), "pi");
		expect(run.live.activity).toBe("starting");
		expect(run.live.startedAt).toBeGreaterThan(0);
		run.apply({ type: "session", nativeSessionId: "s1" });
		expect(run.live.activity).toBe("waiting");
		run.apply({ type: "tool_start", toolCallId: "a", toolName: "read", args: { path: "x" } });
		run.apply({ type: "tool_start", toolCallId: "b", toolName: "read", args: { path: "y" } });
		expect(run.live.activity).toBe("tool");
		run.apply({ type: "tool_end", toolCallId: "a", toolName: "read", output: "", isError: false });
		expect(run.live.activity).toBe("tool");
		run.apply({ type: "tool_end", toolCallId: "b", toolName: "read", output: "", isError: false });
		expect(run.live.activity).toBe("waiting");
		// The first delta changes the view; later deltas of the same message do not.
		expect(run.apply({ type: "assistant_text", text: "Hel", final: false })).toBe(true);
		expect(run.live.activity).toBe("writing");
		expect(run.apply({ type: "assistant_text", text: "lo", final: false })).toBe(false);
		run.apply({ type: "assistant_text", text: "Hello", final: true });
		expect(run.live.activity).toBe("waiting");
	});
});
