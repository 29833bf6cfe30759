import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";

let server: FakeModelServer;

beforeEach(async () => {
	server = await startFakeModelServer();
});
afterEach(async () => {
	await server.close();
});

/** The parts of an OpenAI `chat.completion` (or error) body these tests read. */
interface Completion {
	choices: Array<{ finish_reason: string; message: { content: string | null; tool_calls?: unknown[] } }>;
	usage: Record<string, unknown>;
	error?: Record<string, unknown>;
}

/** The parts of a `chat.completion.chunk` these tests read. */
interface Chunk {
	choices: Array<{ delta?: { content?: string }; finish_reason: string | null }>;
	usage?: Record<string, unknown>;
}

/** POST a chat-completions body; `stream` defaults to false so the answer is one JSON object. */
async function chat(userText: string, extra: Record<string, unknown> = {}, signal?: AbortSignal) {
	const response = await fetch(`${server.baseUrl}/chat/completions`, {
		method: "POST",
		headers: { "content-type": "application/json" },
		body: JSON.stringify({ model: "fake-model", messages: [{ role: "user", content: userText }], ...extra }),
		signal,
	});
	return { status: response.status, body: (await response.json()) as Completion };
}

/** POST a streamed request and return the parsed `data:` payloads (the `[DONE]` marker as a string). */
async function chatStream(userText: string): Promise<unknown[]> {
	const response = await fetch(`${server.baseUrl}/chat/completions`, {
		method: "POST",
		headers: { "content-type": "application/json" },
		body: JSON.stringify({
			model: "fake-model",
			stream: true,
			stream_options: { include_usage: true },
			messages: [{ role: "user", content: userText }],
		}),
	});
	const text = await response.text();
	return text
		.split("\n\n")
		.filter((frame) => frame.startsWith("data: "))
		.map((frame) => frame.slice(6))
		.map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
}

describe("fake model server (HTTP only)", () => {
	it("answers queued steps in order, then falls back to echoing the last user text", async () => {
		server.script({ text: "first" }, { text: "second" });
		expect((await chat("a")).body.choices[0]?.message.content).toBe("first");
		expect((await chat("b")).body.choices[0].message.content).toBe("second");
		expect((await chat("c")).body.choices[0].message.content).toBe("echo: c");
		expect(server.pendingSteps()).toBe(0);
	});

	it("gives each marker's conversation its own queue ahead of the shared queue", async () => {
		server.script({ text: "shared" });
		server.scriptFor("alpha", { text: "for alpha" });
		server.scriptFor("beta", { text: "for beta" });
		expect((await chat("task beta")).body.choices[0].message.content).toBe("for beta");
		expect((await chat("task gamma")).body.choices[0].message.content).toBe("shared");
		expect((await chat("task alpha")).body.choices[0].message.content).toBe("for alpha");
	});

	it("computes a reply from the request with step functions and route rules", async () => {
		server.route((request) => (request.lastUserText.startsWith("route:") ? { text: "routed" } : undefined));
		server.script((request) => ({ text: `upper ${request.lastUserText.toUpperCase()}` }));
		expect((await chat("route: me")).body.choices[0].message.content).toBe("routed");
		expect((await chat("shout")).body.choices[0].message.content).toBe("upper SHOUT");
	});

	it("answers a non-stream tool call with deterministic ids and scripted usage", async () => {
		server.script({
			toolCalls: [{ name: "bash", arguments: { command: "ls" } }],
			usage: { input: 100, output: 20, cacheRead: 30 },
		});
		const { body } = await chat("list");
		expect(body.choices[0].finish_reason).toBe("tool_calls");
		expect(body.choices[0].message.tool_calls).toEqual([
			{ id: "call_fake_1_0", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
		]);
		expect(body.usage).toMatchObject({ prompt_tokens: 130, completion_tokens: 20 });
	});

	it("streams text deltas, a finish chunk, a usage chunk and [DONE]", async () => {
		server.script({ text: "a streamed answer that spans chunks", usage: { input: 7, output: 5 } });
		const payloads = await chatStream("hi");
		expect(payloads.at(-1)).toBe("[DONE]");
		const chunks = payloads.slice(0, -1) as Chunk[];
		const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("");
		expect(text).toBe("a streamed answer that spans chunks");
		expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === "stop")).toBe(true);
		expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 5 } });
	});

	it("returns an HTTP error with an OpenAI-shaped body", async () => {
		server.script({ error: { status: 429, message: "slow down" } });
		const { status, body } = await chat("x");
		expect(status).toBe(429);
		expect(body.error).toMatchObject({ message: "slow down", type: "invalid_request_error" });
		expect(server.requests[0]?.outcome).toBe("error");
	});

	it("keeps a hanging request open until the client disconnects and logs it as disconnected", async () => {
		server.script({ hang: true });
		const controller = new AbortController();
		const pending = chat("wait", {}, controller.signal).catch((error: unknown) => error);
		await server.waitForRequests(1);
		expect(server.inFlight()).toBe(1);
		controller.abort();
		const [request] = await server.waitFor((log) => log[0]?.endedAt !== undefined);
		expect(request?.outcome).toBe("disconnected");
		expect(server.inFlight()).toBe(0);
		expect(await pending).toBeInstanceOf(Error);
	});

	it("resolves a wait on what a hanging request says once its body has been read", async () => {
		server.script({ hang: true });
		const controller = new AbortController();
		const pending = chat("say this while hanging", {}, controller.signal).catch((error: unknown) => error);
		const log = await server.waitFor((requests) => requests.some((r) => r.lastUserText === "say this while hanging"));
		expect(log[0]?.endedAt).toBeUndefined();
		controller.abort();
		await pending;
	});

	it("closes promptly while a request hangs", async () => {
		server.script({ hang: true });
		const pending = chat("wait").catch((error: unknown) => error);
		await server.waitForRequests(1);
		await server.close();
		expect(await pending).toBeInstanceOf(Error);
		expect(server.requests[0]?.outcome).toBe("server-closed");
	});

	it("lists the configured models on GET /v1/models", async () => {
		const response = await fetch(`${server.baseUrl}/models`);
		const body = (await response.json()) as { data: Array<{ id: string }> };
		expect(body.data.map((model) => model.id)).toEqual(["fake-model", "fake-reasoner"]);
	});
});
