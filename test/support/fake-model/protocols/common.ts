/** JSON, streaming and error helpers the wire protocols of the fake model server share. */
import type { ServerResponse } from "node:http";
import type { ErrorStep } from "../types.ts";

/** Characters per streamed text chunk by default; small so clients see several deltas. */
export const TEXT_CHUNK_CHARS = 12;

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Text of a message `content`: a string, or the `text` of each part that has one (`text`, `input_text`,
 * `output_text`, …) joined by "\n".
 */
export function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((part) => (isObject(part) && typeof part.text === "string" ? part.text : ""))
		.filter((text) => text.length > 0)
		.join("\n");
}

/** `text` cut into `size`-character deltas (default TEXT_CHUNK_CHARS). */
export function chunks(text: string, size = TEXT_CHUNK_CHARS): string[] {
	const out: string[] = [];
	for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size));
	return out;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Response headers of a server-sent event stream. */
export const SSE_HEADERS = {
	"content-type": "text/event-stream",
	"cache-control": "no-cache",
	connection: "keep-alive",
};

/** Ends `res` with `body` as JSON and HTTP `status`, plus any extra `headers`. */
export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	res.writeHead(status, { "content-type": "application/json", ...headers });
	res.end(JSON.stringify(body));
}

/**
 * Ends `res` with an OpenAI error body, `{"error":{"message","type","param":null,"code"}}`, as both the
 * Chat Completions and Responses APIs send it; `type` defaults to `server_error` for 5xx, else
 * `invalid_request_error`.
 */
export function writeOpenAIError(res: ServerResponse, error: ErrorStep["error"]): void {
	const type = error.type ?? (error.status >= 500 ? "server_error" : "invalid_request_error");
	sendJson(res, error.status, { error: { message: error.message, type, param: null, code: error.code ?? null } });
}
