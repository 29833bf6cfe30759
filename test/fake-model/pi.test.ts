import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";
import { finalAssistant, runPi, textOf } from "./run-pi.ts";

let server: FakeModelServer;
let home: PiHome;

beforeEach(async () => {
	server = await startFakeModelServer();
	home = createPiHome(server);
});
afterEach(async () => {
	await home.cleanup();
	await server.close();
});

describe("real pi against the fake model server", () => {
	it("prints a scripted text answer with scripted usage and a non-zero cost", async () => {
		server.script({ text: "Hello from the script", usage: { input: 1000, output: 500 } });
		const run = await runPi(home, ["hello"]);
		expect(run.code).toBe(0);
		const answer = finalAssistant(run);
		expect(textOf(answer)).toBe("Hello from the script");
		expect(answer.stopReason).toBe("stop");
		// FAKE_MODEL_COST: 1 USD per million input tokens, 2 per million output tokens.
		expect(answer.usage).toMatchObject({ input: 1000, output: 500, totalTokens: 1500 });
		expect(answer.usage.cost.total).toBeCloseTo(0.002, 9);
		const [request] = server.requests;
		expect(request).toMatchObject({ protocol: "openai-chat", model: "fake-model", lastUserText: "hello" });
		expect(request?.roles).toEqual(["system", "user"]);
		expect(request?.systemPrompt).toContain("pi");
		expect(request?.toolNames).toEqual(expect.arrayContaining(["read", "bash", "edit", "write"]));
		expect(request?.effort).toBeUndefined();
	});

	it("runs a scripted bash tool call and answers with the tool's output", async () => {
		server.script({ toolCalls: [{ name: "bash", arguments: { command: "echo fake-tool-ran" } }] }, (request) => ({
			text: `Tool said: ${request.lastToolOutput?.trim()}`,
		}));
		const run = await runPi(home, ["run it"]);
		expect(run.code).toBe(0);
		const start = run.events.find((event) => event.type === "tool_execution_start");
		expect(start).toMatchObject({
			toolCallId: "call_fake_1_0",
			toolName: "bash",
			args: { command: "echo fake-tool-ran" },
		});
		expect(textOf(finalAssistant(run))).toBe("Tool said: fake-tool-ran");
		expect(server.requests.map((request) => request.roles)).toEqual([
			["system", "user"],
			["system", "user", "assistant", "tool"],
		]);
	});

	it("surfaces the provider message of an HTTP 500 in the final errorMessage", async () => {
		server.script({ error: { status: 500, message: "the fake upstream exploded" } });
		const run = await runPi(home, ["hello"]);
		expect(run.code).toBe(0);
		const answer = finalAssistant(run);
		expect(answer.stopReason).toBe("error");
		expect(answer.errorMessage).toContain("the fake upstream exploded");
		expect(server.requests).toHaveLength(1);
	});

	it("sends --thinking high for fake-reasoner as reasoning_effort", async () => {
		const run = await runPi(home, ["--model", "fake/fake-reasoner", "--thinking", "high", "think"]);
		expect(run.code).toBe(0);
		expect(finalAssistant(run).thinkingLevel).toBe("high");
		const [request] = server.requests;
		expect(request).toMatchObject({ model: "fake-reasoner", effort: "high" });
		expect(request?.body).toMatchObject({ reasoning_effort: "high" });
	});

	it("counts two pi runs answered at the same time in maxConcurrent", async () => {
		server.route(async (request) => {
			await server.waitForRequests(2);
			return { text: `done ${request.lastUserText}` };
		});
		const runs = await Promise.all([runPi(home, ["first"]), runPi(home, ["second"])]);
		expect(runs.map((run) => textOf(finalAssistant(run)))).toEqual(["done first", "done second"]);
		expect(server.maxConcurrent()).toBe(2);
		expect(server.inFlight()).toBe(0);
		const [a, b] = server.requests;
		// Each request arrived before the other ended (ms clock, so equal times count as overlap).
		expect(b?.receivedAt).toBeLessThanOrEqual(a?.endedAt ?? 0);
		expect(a?.receivedAt).toBeLessThanOrEqual(b?.endedAt ?? 0);
	});
});
