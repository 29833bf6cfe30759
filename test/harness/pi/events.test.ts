import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../../src/core/run-event.ts";
import { PiEventParser } from "../../../src/harness/pi/events.ts";

describe("pi events", () => {
	const parse = (records: unknown[]): RunEvent[] => {
		const parser = new PiEventParser();
		return records.flatMap((record) => parser.parse(record));
	};
	const assistant = (stopReason: string, extra: Record<string, unknown> = {}) => ({
		type: "message_end",
		message: {
			role: "assistant",
			content: [{ type: "text", text: "hi" }],
			provider: "p",
			model: "m",
			stopReason,
			...extra,
		},
	});

	it("takes the session id from the header", () => {
		expect(parse([{ type: "session", id: "s-1", version: 3 }])).toEqual([{ type: "session", nativeSessionId: "s-1" }]);
	});

	it("reports usage with cost and the model as provider/id", () => {
		const events = parse([
			assistant("stop", {
				usage: { input: 3, output: 4, cacheRead: 1, cacheWrite: 2, totalTokens: 10, cost: { total: 0.5 } },
			}),
		]);
		expect(events).toContainEqual({ type: "assistant_text", text: "hi", final: true, model: "p/m" });
		expect(events).toContainEqual({
			type: "usage",
			model: "p/m",
			usage: {
				inputTokens: 3,
				outputTokens: 4,
				cacheReadTokens: 1,
				cacheWriteTokens: 2,
				costUsd: 0.5,
				contextTokens: 10,
				turns: 1,
			},
		});
	});

	it("ends failed when the last assistant message stopped with an error, and completed after a retry succeeded", () => {
		const failed = parse([assistant("error", { errorMessage: "boom" }), { type: "agent_settled", aborted: false }]);
		expect(failed.at(-1)).toEqual({ type: "done", status: "failed", error: "boom" });
		const retried = parse([assistant("error", { errorMessage: "boom" }), assistant("stop"), { type: "agent_settled" }]);
		expect(retried.at(-1)).toEqual({ type: "done", status: "completed" });
	});

	it("ends aborted when pi settles an aborted run", () => {
		expect(parse([{ type: "agent_settled", aborted: true }]).at(-1)).toMatchObject({ type: "done", status: "aborted" });
	});

	it("maps tool execution start and end, joining text output", () => {
		const events = parse([
			{ type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: { command: "ls" } },
			{
				type: "tool_execution_end",
				toolCallId: "t1",
				toolName: "bash",
				result: { content: [{ type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }] },
				isError: true,
			},
		]);
		expect(events).toEqual([
			{ type: "tool_start", toolCallId: "t1", toolName: "bash", args: { command: "ls" } },
			{ type: "tool_end", toolCallId: "t1", toolName: "bash", output: "a[image]b", isError: true },
		]);
	});

	it("streams text and thinking deltas", () => {
		expect(
			parse([
				{ type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "he" } },
				{ type: "message_update", assistantMessageEvent: { type: "thinking_delta", delta: "hmm" } },
			]),
		).toEqual([
			{ type: "assistant_text", text: "he", final: false },
			{ type: "thinking", text: "hmm" },
		]);
	});

	it("reports a successful submit_result call's value as the structured result, and no failed one", () => {
		const end = (isError: boolean, toolName = "submit_result") => ({
			type: "tool_execution_end",
			toolCallId: "c1",
			toolName,
			result: { content: [{ type: "text", text: "Result received." }], details: { value: { ok: true } } },
			isError,
		});
		expect(parse([end(false)]).filter((event) => event.type === "structured_output")).toEqual([
			{ type: "structured_output", value: { ok: true } },
		]);
		expect(parse([end(true), end(false, "read")]).some((event) => event.type === "structured_output")).toBe(false);
	});
});
