import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../../src/core/run-event.ts";
import { CodexEventParser, readableError } from "../../../src/harness/codex/events.ts";

function parseAll(parser: CodexEventParser, records: unknown[]): RunEvent[] {
	return records.flatMap((record) => parser.parse(record));
}

describe("codex events", () => {
	it("maps a tool turn: thread id, command start and end, answer, usage and the terminal event", () => {
		const events = parseAll(new CodexEventParser(), [
			{ type: "thread.started", thread_id: "01a2-thread" },
			{ type: "turn.started" },
			{ type: "item.completed", item: { id: "item_0", type: "reasoning", text: "**Deciding**" } },
			{
				type: "item.started",
				item: {
					id: "item_1",
					type: "command_execution",
					command: "/bin/bash -lc 'echo hi'",
					aggregated_output: "",
					exit_code: null,
					status: "in_progress",
				},
			},
			{
				type: "item.completed",
				item: {
					id: "item_1",
					type: "command_execution",
					command: "/bin/bash -lc 'echo hi'",
					aggregated_output: "hi\n",
					exit_code: 0,
					status: "completed",
				},
			},
			{ type: "item.completed", item: { id: "item_2", type: "agent_message", text: "The command printed: hi" } },
			{
				type: "turn.completed",
				usage: { input_tokens: 2003, cached_input_tokens: 200, cache_write_input_tokens: 0, output_tokens: 84 },
			},
		]);
		expect(events).toEqual([
			{ type: "session", nativeSessionId: "01a2-thread" },
			{ type: "thinking", text: "**Deciding**" },
			{
				type: "tool_start",
				toolCallId: "item_1",
				toolName: "command_execution",
				args: { command: "/bin/bash -lc 'echo hi'" },
			},
			{ type: "tool_end", toolCallId: "item_1", toolName: "command_execution", output: "hi\n", isError: false },
			{ type: "assistant_text", text: "The command printed: hi", final: true },
			{
				type: "usage",
				usage: { inputTokens: 1803, cacheReadTokens: 200, cacheWriteTokens: 0, outputTokens: 84, turns: 1 },
			},
			{ type: "done", status: "completed" },
		]);
	});

	it("reports no cost: codex does not say what a turn cost", () => {
		const [usage] = parseAll(new CodexEventParser(), [{ type: "turn.completed", usage: { input_tokens: 5 } }]);
		expect(usage?.type === "usage" && usage.usage.costUsd).toBeUndefined();
	});

	it("turns the thread's cumulative usage into this run's delta on resume", () => {
		const parser = new CodexEventParser({
			threadId: "t",
			baseline: { input_tokens: 1003, cached_input_tokens: 3, output_tokens: 42 },
		});
		const [session, usage] = parseAll(parser, [
			{ type: "thread.started", thread_id: "t" },
			{ type: "turn.completed", usage: { input_tokens: 2007, cached_input_tokens: 7, output_tokens: 84 } },
		]);
		expect(session).toEqual({ type: "session", nativeSessionId: "t" });
		expect(usage).toMatchObject({ usage: { inputTokens: 1000, cacheReadTokens: 4, outputTokens: 42, turns: 1 } });
	});

	it("fails a resume that silently started a new thread", () => {
		const events = parseAll(new CodexEventParser({ threadId: "old", baseline: undefined }), [
			{ type: "thread.started", thread_id: "new" },
		]);
		expect(events.at(-1)).toEqual({
			type: "done",
			status: "failed",
			error: "codex started a new thread new instead of resuming old",
		});
	});

	it("maps turn.failed to a failure with the provider's message out of the JSON body", () => {
		const body = JSON.stringify({ error: { message: "Fake 400", type: "invalid_request_error", code: null } });
		const events = parseAll(new CodexEventParser(), [
			{ type: "error", message: body },
			{ type: "turn.failed", error: { message: body } },
		]);
		expect(events).toEqual([
			{ type: "error", message: "Fake 400 (invalid_request_error)" },
			{ type: "error", message: "Fake 400 (invalid_request_error)" },
			{ type: "done", status: "failed", error: "Fake 400 (invalid_request_error)" },
		]);
	});

	it("keeps reconnect errors non-terminal and error items as diagnostics", () => {
		const events = parseAll(new CodexEventParser(), [
			{ type: "error", message: "Reconnecting... waiting for network" },
			{ type: "item.completed", item: { id: "item_0", type: "error", message: "Model metadata not found" } },
		]);
		expect(events).toEqual([
			{ type: "error", message: "Reconnecting... waiting for network" },
			{ type: "diagnostic", message: "codex: Model metadata not found" },
		]);
	});

	it("maps file changes, MCP calls, web searches and todo lists to tool activity", () => {
		const events = parseAll(new CodexEventParser(), [
			{
				type: "item.completed",
				item: { id: "a", type: "file_change", changes: [{ path: "/w/x.txt", kind: "add" }], status: "completed" },
			},
			{
				type: "item.completed",
				item: {
					id: "b",
					type: "mcp_tool_call",
					server: "fake",
					tool: "ping",
					arguments: { text: "hi" },
					result: null,
					error: { message: "MCP tool call requires approval" },
					status: "failed",
				},
			},
			{ type: "item.completed", item: { id: "c", type: "web_search", query: "vitest" } },
			{
				type: "item.completed",
				item: { id: "d", type: "todo_list", items: [{ text: "Write", completed: true }] },
			},
		]);
		const ends = events.filter((event) => event.type === "tool_end");
		expect(ends).toEqual([
			{ type: "tool_end", toolCallId: "a", toolName: "file_change", output: "add /w/x.txt", isError: false },
			{
				type: "tool_end",
				toolCallId: "b",
				toolName: "mcp:fake/ping",
				output: "MCP tool call requires approval",
				isError: true,
			},
			{ type: "tool_end", toolCallId: "c", toolName: "web_search", output: "", isError: false },
			{ type: "tool_end", toolCallId: "d", toolName: "todo_list", output: "[x] Write", isError: false },
		]);
		expect(events.filter((event) => event.type === "tool_start")).toHaveLength(4);
	});

	it("marks a failing command as an error", () => {
		const [, end] = parseAll(new CodexEventParser(), [
			{
				type: "item.completed",
				item: {
					id: "x",
					type: "command_execution",
					command: "false",
					aggregated_output: "",
					exit_code: 2,
					status: "failed",
				},
			},
		]);
		expect(end).toMatchObject({ type: "tool_end", isError: true });
	});
});

describe("codex error text", () => {
	it("leaves plain messages alone", () => {
		expect(readableError("stream disconnected before completion")).toBe("stream disconnected before completion");
		expect(readableError("status 400: {not json")).toBe("status 400: {not json");
	});
});
