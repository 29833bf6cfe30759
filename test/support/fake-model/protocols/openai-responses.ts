/**
 * OpenAI Responses (`POST /v1/responses`), the protocol codex speaks through a `model_providers.<id>` entry
 * with `wire_api = "responses"` (docs/harness-support.md §How each CLI is driven).
 *
 * Streaming is SSE with one named event per frame (`event: <type>\ndata: <JSON with the same type>\n\n`):
 * `response.created`, then per output item `response.output_item.added`, its deltas
 * (`response.reasoning_summary_text.delta`, `response.output_text.delta`) and `response.output_item.done`,
 * then `response.completed` carrying `usage`. Codex builds its items from `response.output_item.done`, so
 * every item is complete there. Tool calls are `function_call` items (`arguments` a JSON string); a tool the
 * request offers as `type: "custom"` (codex's freeform `apply_patch`) gets a `custom_tool_call` whose `input`
 * is the scripted `arguments.input` string. Non-stream requests get one `response` object. Errors use
 * OpenAI's body `{"error":{"message","type","param":null,"code"}}`, which codex prints verbatim.
 */
import type { ServerResponse } from "node:http";
import type { Answer, AnswerContext, ParsedRequest, RecordedRequest, Usage, WireProtocol } from "../types.ts";
import { chunks, contentText, isObject, type Json, SSE_HEADERS, sendJson, sleep, writeOpenAIError } from "./common.ts";

const TOOL_OUTPUT_TYPES = new Set(["function_call_output", "custom_tool_call_output"]);

/**
 * `roles` lists each `input` item in order: a message's `role` (`developer`, `user`, `assistant`), else the
 * item's `type` (`function_call`, `function_call_output`, `reasoning`, …). `systemPrompt` is the top-level
 * `instructions` plus every `developer`/`system` message. `toolNames` flattens `namespace` tools (MCP) to
 * `<namespace>.<tool>` and names built-in tools without a name (`web_search`) by their type.
 */
function parseRequest(body: unknown): ParsedRequest {
	const json = isObject(body) ? body : {};
	const items = Array.isArray(json.input) ? json.input.filter(isObject) : [];
	const messages = items.filter((item) => item.type === "message" || (item.type === undefined && "role" in item));
	const system = messages
		.filter((message) => message.role === "developer" || message.role === "system")
		.map((message) => contentText(message.content));
	const userTexts = messages
		.filter((message) => message.role === "user")
		.map((message) => contentText(message.content));
	const last = items.at(-1);
	const reasoning = isObject(json.reasoning) ? json.reasoning : {};
	return {
		model: typeof json.model === "string" ? json.model : undefined,
		effort: typeof reasoning.effort === "string" ? reasoning.effort : undefined,
		stream: json.stream === true,
		roles: items.map((item) => String(item.role ?? item.type)),
		systemPrompt: [typeof json.instructions === "string" ? json.instructions : "", ...system]
			.filter((text) => text.length > 0)
			.join("\n\n"),
		userTexts,
		lastUserText: userTexts.at(-1) ?? "",
		lastToolOutput: last && TOOL_OUTPUT_TYPES.has(String(last.type)) ? toolOutputText(last.output) : undefined,
		toolNames: toolNames(json.tools),
	};
}

function toolOutputText(output: unknown): string {
	return typeof output === "string" ? output : contentText(output);
}

function toolNames(tools: unknown): string[] {
	if (!Array.isArray(tools)) return [];
	return tools.filter(isObject).flatMap((tool) => {
		if (tool.type === "namespace" && Array.isArray(tool.tools)) {
			return toolNames(tool.tools).map((name) => `${String(tool.name)}.${name}`);
		}
		return [typeof tool.name === "string" ? tool.name : String(tool.type)];
	});
}

/** Names of the tools the request offers as `type: "custom"` (freeform input rather than JSON arguments). */
function customToolNames(request: RecordedRequest): Set<string> {
	const tools = isObject(request.body) && Array.isArray(request.body.tools) ? request.body.tools : [];
	return new Set(tools.filter((tool) => isObject(tool) && tool.type === "custom").map((tool) => String(tool.name)));
}

/** Responses usage: `input_tokens` includes the cached part, as OpenAI reports it. */
function usageJson(usage: Required<Usage>): Json {
	return {
		input_tokens: usage.input + usage.cacheRead,
		input_tokens_details: { cached_tokens: usage.cacheRead },
		output_tokens: usage.output,
		output_tokens_details: { reasoning_tokens: usage.reasoning },
		total_tokens: usage.input + usage.cacheRead + usage.output,
	};
}

/** The complete output items of an answer, in the order they are streamed. */
function outputItems(answer: Answer, request: RecordedRequest, index: number): Json[] {
	const items: Json[] = [];
	if (answer.thinking.length > 0) {
		items.push({
			type: "reasoning",
			id: `rs_fake_${index}`,
			summary: [{ type: "summary_text", text: answer.thinking }],
		});
	}
	if (answer.text.length > 0) {
		items.push({
			type: "message",
			id: `msg_fake_${index}`,
			role: "assistant",
			status: "completed",
			content: [{ type: "output_text", text: answer.text, annotations: [] }],
		});
	}
	const custom = customToolNames(request);
	for (const [position, call] of answer.toolCalls.entries()) {
		const id = `fc_fake_${index}_${position}`;
		items.push(
			custom.has(call.name)
				? { type: "custom_tool_call", id, call_id: call.id, name: call.name, input: String(call.arguments.input ?? "") }
				: {
						type: "function_call",
						id,
						call_id: call.id,
						name: call.name,
						arguments: JSON.stringify(call.arguments),
						status: "completed",
					},
		);
	}
	return items;
}

/** An item as announced by `response.output_item.added`: the same item with its content still empty. */
function emptied(item: Json): Json {
	if (item.type === "reasoning") return { ...item, summary: [] };
	if (item.type === "message") return { ...item, status: "in_progress", content: [] };
	return item;
}

async function writeStream(res: ServerResponse, answer: Answer, request: RecordedRequest, context: AnswerContext) {
	const responseId = `resp_fake_${context.index}`;
	const created = Math.floor(Date.now() / 1000);
	const response = (status: string, extra: Json = {}) => ({
		id: responseId,
		object: "response",
		created_at: created,
		status,
		model: context.model,
		output: [],
		...extra,
	});
	res.writeHead(200, SSE_HEADERS);
	let sequence = 0;
	const send = async (type: string, payload: Json) => {
		if (context.isClosed()) return;
		res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...payload })}\n\n`);
		if (answer.chunkDelayMs > 0) await sleep(answer.chunkDelayMs);
	};

	await send("response.created", { response: response("in_progress") });
	const items = outputItems(answer, request, context.index);
	for (const [outputIndex, item] of items.entries()) {
		await send("response.output_item.added", { output_index: outputIndex, item: emptied(item) });
		if (item.type === "reasoning") {
			for (const delta of chunks(answer.thinking)) {
				await send("response.reasoning_summary_text.delta", {
					item_id: item.id,
					output_index: outputIndex,
					summary_index: 0,
					delta,
				});
			}
		} else if (item.type === "message") {
			for (const delta of chunks(answer.text, answer.chunkChars)) {
				await send("response.output_text.delta", {
					item_id: item.id,
					output_index: outputIndex,
					content_index: 0,
					delta,
				});
			}
		}
		await send("response.output_item.done", { output_index: outputIndex, item });
	}
	await send("response.completed", {
		response: response("completed", { output: items, usage: usageJson(answer.usage) }),
	});
	if (!context.isClosed()) res.end();
}

function writeWhole(res: ServerResponse, answer: Answer, request: RecordedRequest, context: AnswerContext) {
	const body = {
		id: `resp_fake_${context.index}`,
		object: "response",
		created_at: Math.floor(Date.now() / 1000),
		status: "completed",
		model: context.model,
		output: outputItems(answer, request, context.index),
		usage: usageJson(answer.usage),
	};
	sendJson(res, 200, body);
}

/** The OpenAI Responses wire protocol (codex's `wire_api = "responses"`). */
export const openaiResponses: WireProtocol = {
	name: "openai-responses",
	path: "/v1/responses",
	parseRequest,
	writeAnswer: (res, answer, request, context) =>
		request.stream
			? writeStream(res, answer, request, context)
			: Promise.resolve(writeWhole(res, answer, request, context)),
	writeError: writeOpenAIError,
};
