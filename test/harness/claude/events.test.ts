import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../../src/core/run-event.ts";
import { ClaudeEventParser } from "../../../src/harness/claude/events.ts";

function parseAll(records: unknown[]): RunEvent[] {
	const parser = new ClaudeEventParser();
	return records.flatMap((record) => parser.parse(record));
}

const SESSION = "af6fe0d8-0000-4000-8000-000000000000";
const assistant = (id: string, block: unknown, extra: Record<string, unknown> = {}) => ({
	type: "assistant",
	message: {
		id,
		model: "claude-opus-5-5",
		content: [block],
		usage: { input_tokens: 900, cache_read_input_tokens: 50, cache_creation_input_tokens: 0, output_tokens: 1 },
	},
	parent_tool_use_id: null,
	session_id: SESSION,
	...extra,
});
const result = (extra: Record<string, unknown>) => ({
	type: "result",
	subtype: "success",
	is_error: false,
	num_turns: 2,
	session_id: SESSION,
	total_cost_usd: 0.0107,
	usage: { input_tokens: 1809, cache_read_input_tokens: 50, cache_creation_input_tokens: 7, output_tokens: 66 },
	permission_denials: [],
	...extra,
});

describe("claude events", () => {
	it("assembles per-block assistant records into messages, with tool activity, usage and cost from result", () => {
		const events = parseAll([
			{ type: "system", subtype: "init", session_id: SESSION, tools: ["Bash"], model: "claude-opus-5-5" },
			assistant("msg_1", { type: "thinking", thinking: "plan" }),
			assistant("msg_1", { type: "text", text: "I will call " }),
			assistant("msg_1", { type: "text", text: "Bash." }),
			assistant("msg_1", { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "echo hi" } }),
			{
				type: "user",
				message: {
					role: "user",
					content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "hi", is_error: false }],
				},
				parent_tool_use_id: null,
				session_id: SESSION,
			},
			assistant("msg_2", { type: "text", text: "The command printed: hi." }),
			result({ result: "The command printed: hi." }),
		]);
		const model = "claude-opus-5-5";
		expect(events).toEqual([
			{ type: "session", nativeSessionId: SESSION },
			{ type: "thinking", text: "plan" },
			{ type: "assistant_text", text: "I will call ", final: false, model },
			{ type: "assistant_text", text: "Bash.", final: false, model },
			{ type: "tool_start", toolCallId: "toolu_1", toolName: "Bash", args: { command: "echo hi" } },
			{ type: "assistant_text", text: "I will call Bash.", final: true, model },
			{ type: "tool_end", toolCallId: "toolu_1", toolName: "Bash", output: "hi", isError: false },
			{ type: "assistant_text", text: "The command printed: hi.", final: false, model },
			{ type: "assistant_text", text: "The command printed: hi.", final: true, model },
			{
				type: "usage",
				model,
				usage: {
					inputTokens: 1809,
					outputTokens: 66,
					cacheReadTokens: 50,
					cacheWriteTokens: 7,
					costUsd: 0.0107,
					contextTokens: 950,
					turns: 2,
				},
			},
			{ type: "done", status: "completed" },
		]);
	});

	it("takes the answer from result when no assistant text came before it, and never twice", () => {
		const only = parseAll([result({ result: "from result" })]).filter((e) => e.type === "assistant_text");
		expect(only).toEqual([{ type: "assistant_text", text: "from result", final: true }]);
		const both = parseAll([
			assistant("m1", { type: "text", text: "streamed answer" }),
			result({ result: "streamed answer" }),
		]).filter((e) => e.type === "assistant_text" && e.final);
		expect(both).toEqual([{ type: "assistant_text", text: "streamed answer", final: true, model: "claude-opus-5-5" }]);
	});

	it("fails on is_error even when the subtype says success, with claude's API error text", () => {
		const events = parseAll([
			{
				type: "assistant",
				message: {
					id: "x",
					model: "<synthetic>",
					content: [{ type: "text", text: "API Error: 400 Fake 400 from test server" }],
				},
				error: "unknown",
				session_id: SESSION,
			},
			result({ is_error: true, api_error_status: 400, result: "API Error: 400 Fake 400 from test server" }),
		]);
		expect(events.filter((e) => e.type === "assistant_text")).toEqual([]);
		expect(events.at(-1)).toEqual({
			type: "done",
			status: "failed",
			error: "API Error: 400 Fake 400 from test server",
		});
	});

	it("fails an error subtype with its errors", () => {
		const events = parseAll([
			result({
				subtype: "error_during_execution",
				is_error: true,
				errors: ["No conversation found with session ID: 0000"],
			}),
		]);
		expect(events.at(-1)).toEqual({
			type: "done",
			status: "failed",
			error: "No conversation found with session ID: 0000",
		});
	});

	it("reports permission denials", () => {
		const events = parseAll([
			result({
				permission_denials: [{ tool_name: "Bash", tool_use_id: "toolu_9", tool_input: { command: "touch x" } }],
			}),
		]);
		expect(events.filter((e) => e.type === "permission_denied")).toEqual([
			{ type: "permission_denied", denial: { toolName: "Bash", toolCallId: "toolu_9", input: { command: "touch x" } } },
		]);
		expect(events.at(-1)).toEqual({ type: "done", status: "completed" });
	});

	it("skips sub-agent records and reports API retries as diagnostics", () => {
		const events = parseAll([
			assistant("sub", { type: "text", text: "inner" }, { parent_tool_use_id: "toolu_task" }),
			{ type: "system", subtype: "api_retry", attempt: 1, max_retries: 10, error: "unknown", session_id: SESSION },
		]);
		expect(events).toEqual([
			{ type: "session", nativeSessionId: SESSION },
			{ type: "diagnostic", message: "claude: API retry 1/10 (unknown)" },
		]);
	});

	it("reports result.structured_output as the structured result before the terminal event", () => {
		const events = parseAll([result({ result: '{"ok":true}', structured_output: { ok: true } })]);
		expect(events.slice(-3)).toEqual([
			{ type: "assistant_text", text: '{"ok":true}', final: true },
			{ type: "structured_output", value: { ok: true } },
			{ type: "done", status: "completed" },
		]);
	});
});
