/**
 * Anthropic Messages (`POST /v1/messages`), the protocol claude speaks to `ANTHROPIC_BASE_URL`
 * (docs/harness-support.md §How each CLI is driven). Claude appends `?beta=true`; the server routes on the path only.
 *
 * Streaming is SSE with named events: `message_start` (usage with the input counts), per content block
 * `content_block_start` / `content_block_delta` (`thinking_delta` + `signature_delta`, `text_delta`,
 * `input_json_delta`) / `content_block_stop`, then `message_delta` (`stop_reason`, output usage) and
 * `message_stop`. Non-stream requests get one `message` object. Errors use Anthropic's body
 * `{"type":"error","error":{"type","message"},"request_id"}`, whose `message` claude shows as
 * `API Error: <status> <message>`.
 */
import type { ServerResponse } from "node:http";
import type {
	Answer,
	AnswerContext,
	ErrorStep,
	ParsedRequest,
	RecordedRequest,
	Usage,
	WireProtocol,
} from "../types.ts";
import { chunks, isObject, type Json, SSE_HEADERS, sendJson, sleep } from "./common.ts";

/** `text` blocks of a `content` (a string, or an array of blocks); other block types are skipped. */
function textBlocks(content: unknown): string[] {
	if (typeof content === "string") return [content];
	if (!Array.isArray(content)) return [];
	return content.filter((block) => isObject(block) && block.type === "text").map((block) => String(block.text ?? ""));
}

/** How claude's injected context blocks in user messages begin. */
const SYSTEM_REMINDER = "<system-reminder>";

/** Text of a `tool_result` block's `content`: a string or an array of text blocks. */
function toolResultText(block: Json): string {
	return textBlocks(block.content).join("\n");
}

/**
 * `systemPrompt` joins the top-level `system` (a string or text blocks) with every `role: "system"` message
 * claude inserts mid-conversation. `userTexts` holds the text blocks of each user message joined by "\n",
 * leaving out the `<system-reminder>` blocks claude puts before the prompt (so `lastUserText` is the task as
 * sent); a message of only `tool_result` blocks is a tool turn, not user text. `lastToolOutput` reads the
 * last user/assistant message (claude may append a `system` message after a tool result). `effort` is
 * `output_config.effort`, which claude sends for `--effort` on models with adaptive thinking; `undefined`
 * when absent.
 */
function parseRequest(body: unknown): ParsedRequest {
	const json = isObject(body) ? body : {};
	const messages = Array.isArray(json.messages) ? json.messages.filter(isObject) : [];
	const system = [
		...textBlocks(json.system),
		...messages.filter((message) => message.role === "system").flatMap((message) => textBlocks(message.content)),
	];
	const userTexts = messages
		.filter((message) => message.role === "user")
		.map((message) => textBlocks(message.content).filter((text) => !text.startsWith(SYSTEM_REMINDER)))
		.filter((blocks) => blocks.length > 0)
		.map((blocks) => blocks.join("\n"));
	const lastTurn = messages.filter((message) => message.role !== "system").at(-1);
	const lastContent = lastTurn?.role === "user" ? lastTurn.content : undefined;
	const toolResults = Array.isArray(lastContent)
		? lastContent.filter((block) => isObject(block) && block.type === "tool_result")
		: [];
	const outputConfig = isObject(json.output_config) ? json.output_config : {};
	const tools = Array.isArray(json.tools) ? json.tools.filter(isObject) : [];
	return {
		model: typeof json.model === "string" ? json.model : undefined,
		effort: typeof outputConfig.effort === "string" ? outputConfig.effort : undefined,
		stream: json.stream === true,
		roles: messages.map((message) => String(message.role)),
		systemPrompt: system.join("\n\n"),
		userTexts,
		lastUserText: userTexts.at(-1) ?? "",
		lastToolOutput:
			toolResults.length > 0 ? toolResults.map((block) => toolResultText(block as Json)).join("\n") : undefined,
		toolNames: tools.map((tool) => String(tool.name)),
	};
}

/** Anthropic usage: `input_tokens` is the uncached part; cached reads are counted separately. */
function usageJson(usage: Required<Usage>, output: number): Json {
	return {
		input_tokens: usage.input,
		cache_creation_input_tokens: 0,
		cache_read_input_tokens: usage.cacheRead,
		output_tokens: output,
	};
}

/** Complete content blocks of an answer in order: thinking, text, then tool uses. */
function contentBlocks(answer: Answer, index: number): Json[] {
	const blocks: Json[] = [];
	if (answer.thinking.length > 0) {
		blocks.push({ type: "thinking", thinking: answer.thinking, signature: `sig_fake_${index}` });
	}
	if (answer.text.length > 0) blocks.push({ type: "text", text: answer.text });
	for (const call of answer.toolCalls) {
		blocks.push({ type: "tool_use", id: call.id, name: call.name, input: call.arguments });
	}
	return blocks;
}

const stopReason = (answer: Answer) => (answer.toolCalls.length > 0 ? "tool_use" : "end_turn");

function message(answer: Answer, context: AnswerContext, content: Json[], output: number): Json {
	return {
		id: `msg_fake_${context.index}`,
		type: "message",
		role: "assistant",
		model: context.model,
		content,
		stop_reason: null,
		stop_sequence: null,
		usage: usageJson(answer.usage, output),
	};
}

async function writeStream(res: ServerResponse, answer: Answer, context: AnswerContext) {
	res.writeHead(200, { ...SSE_HEADERS, "request-id": `req_fake_${context.index}` });
	const send = async (type: string, payload: Json) => {
		if (context.isClosed()) return;
		res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`);
		if (answer.chunkDelayMs > 0) await sleep(answer.chunkDelayMs);
	};

	await send("message_start", { message: message(answer, context, [], 1) });
	for (const [index, block] of contentBlocks(answer, context.index).entries()) {
		if (block.type === "thinking") {
			await send("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
			for (const thinking of chunks(answer.thinking)) {
				await send("content_block_delta", { index, delta: { type: "thinking_delta", thinking } });
			}
			await send("content_block_delta", { index, delta: { type: "signature_delta", signature: block.signature } });
		} else if (block.type === "text") {
			await send("content_block_start", { index, content_block: { type: "text", text: "" } });
			for (const text of chunks(answer.text, answer.chunkChars)) {
				await send("content_block_delta", { index, delta: { type: "text_delta", text } });
			}
		} else {
			await send("content_block_start", { index, content_block: { ...block, input: {} } });
			for (const partial_json of chunks(JSON.stringify(block.input))) {
				await send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } });
			}
		}
		await send("content_block_stop", { index });
	}
	await send("message_delta", {
		delta: { stop_reason: stopReason(answer), stop_sequence: null },
		usage: { output_tokens: answer.usage.output },
	});
	await send("message_stop", {});
	if (!context.isClosed()) res.end();
}

function writeWhole(res: ServerResponse, answer: Answer, context: AnswerContext) {
	const body = {
		...message(answer, context, contentBlocks(answer, context.index), answer.usage.output),
		stop_reason: stopReason(answer),
	};
	sendJson(res, 200, body, { "request-id": `req_fake_${context.index}` });
}

/** Anthropic's error `type` for an HTTP status (docs.anthropic.com "Errors"). */
function errorType(status: number): string {
	const types: Record<number, string> = {
		400: "invalid_request_error",
		401: "authentication_error",
		403: "permission_error",
		404: "not_found_error",
		413: "request_too_large",
		429: "rate_limit_error",
		529: "overloaded_error",
	};
	return types[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

function writeError(res: ServerResponse, error: ErrorStep["error"]) {
	const body = {
		type: "error",
		error: { type: error.type ?? errorType(error.status), message: error.message },
		request_id: "req_fake_error",
	};
	sendJson(res, error.status, body);
}

/** The Anthropic Messages wire protocol (claude through `ANTHROPIC_BASE_URL`). */
export const anthropicMessages: WireProtocol = {
	name: "anthropic-messages",
	path: "/v1/messages",
	parseRequest,
	writeAnswer: (res, answer, request: RecordedRequest, context) =>
		request.stream ? writeStream(res, answer, context) : Promise.resolve(writeWhole(res, answer, context)),
	writeError,
};
