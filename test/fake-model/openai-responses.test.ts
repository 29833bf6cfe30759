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

/** A Responses request shaped like codex's (docs/harness-support.md §How each CLI is driven). */
function codexBody(userText: string, extra: Record<string, unknown> = {}) {
	return {
		model: "gpt-5.5",
		instructions: "base instructions",
		stream: true,
		reasoning: { effort: "high" },
		input: [
			{ type: "message", role: "developer", content: [{ type: "input_text", text: "developer note" }] },
			{ type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context/>" }] },
			{ type: "message", role: "user", content: [{ type: "input_text", text: userText }] },
		],
		tools: [
			{ type: "function", name: "exec_command", parameters: {} },
			{ type: "custom", name: "apply_patch", format: {} },
			{ type: "namespace", name: "mcp__fake", tools: [{ type: "function", name: "ping" }] },
			{ type: "web_search" },
		],
		...extra,
	};
}

describe("fake model server: OpenAI Responses (codex)", () => {
	it("logs model, effort, instructions, user texts and flattened tool names", async () => {
		await postSse(`${server.baseUrl}/responses`, codexBody("say hi"));
		const [request] = server.requests;
		expect(request).toMatchObject({
			protocol: "openai-responses",
			path: "/v1/responses",
			model: "gpt-5.5",
			effort: "high",
			stream: true,
			roles: ["developer", "user", "user"],
			userTexts: ["<environment_context/>", "say hi"],
			lastUserText: "say hi",
			lastToolOutput: undefined,
			toolNames: ["exec_command", "apply_patch", "mcp__fake.ping", "web_search"],
		});
		expect(request?.systemPrompt).toBe("base instructions\n\ndeveloper note");
	});

	it("streams reasoning and text as complete output items, then response.completed with usage", async () => {
		server.script({
			text: "a streamed answer that spans chunks",
			thinking: "pondering",
			usage: { input: 100, output: 20, cacheRead: 30, reasoning: 5 },
		});
		const frames = await postSse(`${server.baseUrl}/responses`, codexBody("hi"));
		expect(frames[0]?.event).toBe("response.created");
		expect(frames.every((frame) => frame.data.type === frame.event)).toBe(true);
		const deltas = frames.filter((frame) => frame.event === "response.output_text.delta");
		expect(deltas.length).toBeGreaterThan(1);
		expect(deltas.map((frame) => frame.data.delta).join("")).toBe("a streamed answer that spans chunks");
		const done = frames.filter((frame) => frame.event === "response.output_item.done").map((f) => f.data.item);
		expect(done).toEqual([
			{ type: "reasoning", id: "rs_fake_1", summary: [{ type: "summary_text", text: "pondering" }] },
			expect.objectContaining({
				type: "message",
				role: "assistant",
				content: [{ type: "output_text", text: "a streamed answer that spans chunks", annotations: [] }],
			}),
		]);
		expect(frames.at(-1)).toMatchObject({
			event: "response.completed",
			data: {
				response: {
					status: "completed",
					usage: {
						input_tokens: 130,
						input_tokens_details: { cached_tokens: 30 },
						output_tokens: 20,
						output_tokens_details: { reasoning_tokens: 5 },
						total_tokens: 150,
					},
				},
			},
		});
	});

	it("answers a function tool with JSON arguments and a custom tool with freeform input", async () => {
		server.script({
			toolCalls: [
				{ name: "exec_command", arguments: { cmd: "ls" } },
				{ name: "apply_patch", arguments: { input: "*** Begin Patch" } },
			],
		});
		const frames = await postSse(`${server.baseUrl}/responses`, codexBody("list"));
		const items = frames.filter((frame) => frame.event === "response.output_item.done").map((f) => f.data.item);
		expect(items).toEqual([
			expect.objectContaining({
				type: "function_call",
				call_id: "call_fake_1_0",
				name: "exec_command",
				arguments: '{"cmd":"ls"}',
			}),
			expect.objectContaining({
				type: "custom_tool_call",
				call_id: "call_fake_1_1",
				name: "apply_patch",
				input: "*** Begin Patch",
			}),
		]);
	});

	it("logs the trailing tool output of a follow-up request", async () => {
		const body = codexBody("list");
		body.input.push(
			{ type: "function_call", call_id: "c1", name: "exec_command", arguments: "{}" } as never,
			{ type: "function_call_output", call_id: "c1", output: "Output:\nhi\n" } as never,
		);
		await postSse(`${server.baseUrl}/responses`, body);
		expect(server.requests[0]).toMatchObject({
			roles: ["developer", "user", "user", "function_call", "function_call_output"],
			lastToolOutput: "Output:\nhi\n",
			lastUserText: "list",
		});
	});

	it("returns an HTTP error with an OpenAI-shaped body", async () => {
		server.script({ error: { status: 400, message: "bad request (fake)" } });
		const response = await fetch(`${server.baseUrl}/responses`, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify(codexBody("x")),
		});
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({
			error: { message: "bad request (fake)", type: "invalid_request_error", param: null, code: null },
		});
	});

	it("answers a non-stream request with one response object", async () => {
		server.script({ text: "whole", usage: { input: 3, output: 4 } });
		const response = await fetch(`${server.baseUrl}/responses`, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify(codexBody("x", { stream: false })),
		});
		expect(await response.json()).toMatchObject({
			object: "response",
			status: "completed",
			output: [{ type: "message", content: [{ type: "output_text", text: "whole" }] }],
			usage: { input_tokens: 3, output_tokens: 4 },
		});
	});
});
