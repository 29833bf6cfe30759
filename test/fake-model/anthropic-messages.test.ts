import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { postSse } from "./sse.ts";

let server: FakeModelServer;

beforeEach(async () => {
	server = await startFakeModelServer();
});
afterEach(async () => {
	await server.close();
});

const REMINDER = "<system-reminder>\nclaude's injected context\n</system-reminder>\n";

/** A Messages request shaped like claude's (docs/harness-support.md §How each CLI is driven). */
function claudeBody(messages: unknown[], extra: Record<string, unknown> = {}) {
	return {
		model: "claude-opus-5-5",
		system: [{ type: "text", text: "You are Claude Code." }],
		messages,
		tools: [
			{ name: "Bash", input_schema: {} },
			{ name: "Read", input_schema: {} },
		],
		max_tokens: 1000,
		thinking: { type: "adaptive" },
		output_config: { effort: "low" },
		stream: true,
		...extra,
	};
}

const userTurn = (text: string) => ({
	role: "user",
	content: [
		{ type: "text", text: REMINDER },
		{ type: "text", text },
	],
});

describe("fake model server: Anthropic Messages (claude)", () => {
	it("logs model, effort, system text and the task without claude's system-reminder blocks", async () => {
		await postSse(
			`${server.url}/v1/messages?beta=true`,
			claudeBody([userTurn("say hi"), { role: "system", content: "Available agent types: …" }]),
		);
		const [request] = server.requests;
		expect(request).toMatchObject({
			protocol: "anthropic-messages",
			path: "/v1/messages",
			model: "claude-opus-5-5",
			effort: "low",
			stream: true,
			roles: ["user", "system"],
			userTexts: ["say hi"],
			lastUserText: "say hi",
			lastToolOutput: undefined,
			toolNames: ["Bash", "Read"],
		});
		expect(request?.systemPrompt).toBe("You are Claude Code.\n\nAvailable agent types: …");
	});

	it("streams thinking and text blocks, then message_delta with usage and message_stop", async () => {
		server.script({
			text: "a streamed answer that spans chunks",
			thinking: "pondering",
			usage: { input: 100, output: 20, cacheRead: 30 },
		});
		const frames = await postSse(`${server.url}/v1/messages`, claudeBody([userTurn("hi")]));
		expect(frames.every((frame) => frame.data.type === frame.event)).toBe(true);
		expect(frames[0]).toMatchObject({
			event: "message_start",
			data: { message: { role: "assistant", usage: { input_tokens: 100, cache_read_input_tokens: 30 } } },
		});
		const starts = frames.filter((frame) => frame.event === "content_block_start").map((f) => f.data.content_block);
		expect(starts).toEqual([
			{ type: "thinking", thinking: "", signature: "" },
			{ type: "text", text: "" },
		]);
		const deltas = frames
			.filter((f) => f.event === "content_block_delta")
			.map((f) => f.data.delta as { text?: string });
		expect(deltas.map((delta) => delta.text ?? "").join("")).toBe("a streamed answer that spans chunks");
		expect(frames.at(-2)).toMatchObject({
			event: "message_delta",
			data: { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 20 } },
		});
		expect(frames.at(-1)?.event).toBe("message_stop");
	});

	it("streams a tool_use block as input_json_delta pieces and stops for tool use", async () => {
		server.script({ toolCalls: [{ name: "Bash", arguments: { command: "echo a long enough command" } }] });
		const frames = await postSse(`${server.url}/v1/messages`, claudeBody([userTurn("run")]));
		expect(frames.find((f) => f.event === "content_block_start")?.data.content_block).toEqual({
			type: "tool_use",
			id: "call_fake_1_0",
			name: "Bash",
			input: {},
		});
		const json = frames
			.filter((f) => f.event === "content_block_delta")
			.map((f) => (f.data.delta as { partial_json: string }).partial_json)
			.join("");
		expect(JSON.parse(json)).toEqual({ command: "echo a long enough command" });
		expect(frames.find((f) => f.event === "message_delta")?.data.delta).toMatchObject({ stop_reason: "tool_use" });
	});

	it("logs the tool result even when claude appends a system message after it", async () => {
		await postSse(
			`${server.url}/v1/messages`,
			claudeBody([
				userTurn("run"),
				{ role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }] },
				{ role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "hi-there" }] },
				{ role: "system", content: "a mid-conversation note" },
			]),
		);
		expect(server.requests[0]).toMatchObject({
			userTexts: ["run"],
			lastUserText: "run",
			lastToolOutput: "hi-there",
		});
	});

	it("returns an HTTP error with an Anthropic-shaped body", async () => {
		server.script({ error: { status: 400, message: "bad request (fake)" } });
		const response = await fetch(`${server.url}/v1/messages`, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify(claudeBody([userTurn("x")])),
		});
		expect(response.status).toBe(400);
		expect(await response.json()).toMatchObject({
			type: "error",
			error: { type: "invalid_request_error", message: "bad request (fake)" },
		});
	});

	it("answers a non-stream request with one message object", async () => {
		server.script({ text: "whole", usage: { input: 3, output: 4 } });
		const response = await fetch(`${server.url}/v1/messages`, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify(claudeBody([userTurn("x")], { stream: false })),
		});
		expect(await response.json()).toMatchObject({
			type: "message",
			content: [{ type: "text", text: "whole" }],
			stop_reason: "end_turn",
			usage: { input_tokens: 3, output_tokens: 4 },
		});
	});
});
