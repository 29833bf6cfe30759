/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`), the protocol pi's `openai-completions` api speaks.
 *
 * Streaming follows the OpenAI SSE format: `data: <chat.completion.chunk JSON>\n\n` lines, a final chunk
 * with `finish_reason`, a usage-only chunk (`choices: []`) when `stream_options.include_usage` is true,
 * then `data: [DONE]`. Non-stream requests get one `chat.completion` object. Errors use OpenAI's body
 * `{"error":{"message","type","param":null,"code"}}`, which the `openai` SDK folds into `error.message`.
 */
import type { ServerResponse } from "node:http";
import type { Answer, AnswerContext, ParsedRequest, RecordedRequest, Usage, WireProtocol } from "../types.ts";
import { chunks, contentText, isObject, type Json, SSE_HEADERS, sendJson, sleep, writeOpenAIError } from "./common.ts";

function parseRequest(body: unknown): ParsedRequest {
	const json = isObject(body) ? body : {};
	const messages = Array.isArray(json.messages) ? json.messages.filter(isObject) : [];
	const roles = messages.map((message) => String(message.role));
	const systemPrompt = messages
		.filter((message) => message.role === "system" || message.role === "developer")
		.map((message) => contentText(message.content))
		.join("\n\n");
	const userTexts = messages
		.filter((message) => message.role === "user")
		.map((message) => contentText(message.content));
	const last = messages.at(-1);
	const tools = Array.isArray(json.tools) ? json.tools.filter(isObject) : [];
	return {
		model: typeof json.model === "string" ? json.model : undefined,
		effort: typeof json.reasoning_effort === "string" ? json.reasoning_effort : undefined,
		stream: json.stream === true,
		roles,
		systemPrompt,
		userTexts,
		lastUserText: userTexts.at(-1) ?? "",
		lastToolOutput: last?.role === "tool" ? contentText(last.content) : undefined,
		toolNames: tools.map((tool) => (isObject(tool.function) ? String(tool.function.name) : String(tool.name))),
	};
}

function usageJson(usage: Required<Usage>): Json {
	return {
		prompt_tokens: usage.input + usage.cacheRead,
		completion_tokens: usage.output,
		total_tokens: usage.input + usage.cacheRead + usage.output,
		prompt_tokens_details: { cached_tokens: usage.cacheRead },
		completion_tokens_details: { reasoning_tokens: usage.reasoning },
	};
}

async function writeStream(res: ServerResponse, answer: Answer, request: RecordedRequest, context: AnswerContext) {
	const id = `chatcmpl-fake-${context.index}`;
	const created = Math.floor(Date.now() / 1000);
	const base = { id, object: "chat.completion.chunk", created, model: context.model };
	res.writeHead(200, SSE_HEADERS);
	const send = async (payload: Json | "[DONE]") => {
		if (context.isClosed()) return;
		res.write(`data: ${payload === "[DONE]" ? payload : JSON.stringify(payload)}\n\n`);
		if (answer.chunkDelayMs > 0) await sleep(answer.chunkDelayMs);
	};
	const delta = (d: Json, finishReason: string | null = null) =>
		send({ ...base, choices: [{ index: 0, delta: d, finish_reason: finishReason }] });

	await delta({ role: "assistant", content: "" });
	for (const piece of chunks(answer.thinking)) await delta({ reasoning_content: piece });
	for (const piece of chunks(answer.text, answer.chunkChars)) await delta({ content: piece });
	for (const [index, call] of answer.toolCalls.entries()) {
		await delta({
			tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
		});
		for (const piece of chunks(JSON.stringify(call.arguments))) {
			await delta({ tool_calls: [{ index, function: { arguments: piece } }] });
		}
	}
	await delta({}, answer.toolCalls.length > 0 ? "tool_calls" : "stop");
	const streamOptions = isObject(request.body) ? request.body.stream_options : undefined;
	if (isObject(streamOptions) && streamOptions.include_usage === true) {
		await send({ ...base, choices: [], usage: usageJson(answer.usage) });
	}
	await send("[DONE]");
	if (!context.isClosed()) res.end();
}

function writeWhole(res: ServerResponse, answer: Answer, context: AnswerContext) {
	const message: Json = { role: "assistant", content: answer.text.length > 0 ? answer.text : null };
	if (answer.thinking.length > 0) message.reasoning_content = answer.thinking;
	if (answer.toolCalls.length > 0) {
		message.tool_calls = answer.toolCalls.map((call) => ({
			id: call.id,
			type: "function",
			function: { name: call.name, arguments: JSON.stringify(call.arguments) },
		}));
	}
	const body = {
		id: `chatcmpl-fake-${context.index}`,
		object: "chat.completion",
		created: Math.floor(Date.now() / 1000),
		model: context.model,
		choices: [{ index: 0, message, finish_reason: answer.toolCalls.length > 0 ? "tool_calls" : "stop" }],
		usage: usageJson(answer.usage),
	};
	sendJson(res, 200, body);
}

function writeModels(res: ServerResponse, modelIds: readonly string[]) {
	const data = modelIds.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" }));
	sendJson(res, 200, { object: "list", data });
}

/** The OpenAI Chat Completions wire protocol (pi's `api: "openai-completions"`). */
export const openaiChat: WireProtocol = {
	name: "openai-chat",
	path: "/v1/chat/completions",
	parseRequest,
	writeAnswer: (res, answer, request, context) =>
		request.stream ? writeStream(res, answer, request, context) : Promise.resolve(writeWhole(res, answer, context)),
	writeError: writeOpenAIError,
	writeModels,
};
