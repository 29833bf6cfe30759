/**
 * Types shared by the fake model server's core and its wire protocols.
 *
 * A test scripts *steps* (what the model answers); the core resolves one step per request and hands a
 * protocol-neutral {@link Answer} to the wire protocol that received the request. Protocols only
 * translate: request JSON → {@link ParsedRequest}, {@link Answer} → bytes on the wire.
 */
import type { IncomingHttpHeaders, ServerResponse } from "node:http";

/**
 * Wire protocols the server can speak, one file each under `protocols/`: `openai-chat` (pi,
 * `POST /v1/chat/completions`), `openai-responses` (codex, `POST /v1/responses`) and `anthropic-messages`
 * (claude, `POST /v1/messages`).
 */
export type ProtocolName = "openai-chat" | "openai-responses" | "anthropic-messages";

/**
 * Token counts of one answer, named as in pi's `message_end.message.usage` (tokens, not USD).
 * `input` is the *uncached* prompt part; each protocol maps the numbers onto its own fields
 * (openai-chat: `prompt_tokens = input + cacheRead`, `prompt_tokens_details.cached_tokens = cacheRead`,
 * `completion_tokens = output`, `completion_tokens_details.reasoning_tokens = reasoning`;
 * openai-responses: `input_tokens = input + cacheRead`, `input_tokens_details.cached_tokens = cacheRead`,
 * `output_tokens = output`, `output_tokens_details.reasoning_tokens = reasoning`;
 * anthropic-messages: `input_tokens = input`, `cache_read_input_tokens = cacheRead`, `output_tokens = output`).
 */
export interface Usage {
	input: number;
	output: number;
	cacheRead?: number;
	reasoning?: number;
}

/** One tool call the model makes: `arguments` is the JSON object the tool receives. */
export interface ScriptedToolCall {
	name: string;
	arguments: Record<string, unknown>;
	/** Tool call id; default `call_fake_<request index>_<position from 0>`. */
	id?: string;
}

/** Options every answering step may carry. */
export interface StepTiming {
	/** Wait this long (ms) after the request arrived before answering (headers included). */
	delayMs?: number;
	/** Wait this long (ms) between streamed chunks; default 0. Lets an abort land mid-stream. */
	chunkDelayMs?: number;
	/** Characters per streamed answer-text delta; default 12 (many small deltas). Large answers stream faster with more. */
	chunkChars?: number;
}

/** Answer with assistant text (optionally preceded by reasoning text). */
export interface TextStep extends StepTiming {
	text: string;
	/** Reasoning ("thinking") text streamed before the answer. */
	thinking?: string;
	/** Token counts to report; default estimated as ceil(chars / 4). */
	usage?: Usage;
}

/** Answer with one or more tool calls (optionally with text before them). */
export interface ToolCallStep extends StepTiming {
	toolCalls: ScriptedToolCall[];
	text?: string;
	usage?: Usage;
}

/**
 * Answer with an HTTP error. The body is shaped like the provider's own error JSON (openai-chat and
 * openai-responses: `{"error":{"message","type","param":null,"code"}}`; anthropic-messages:
 * `{"type":"error","error":{"type","message"}}`) so the harness surfaces `message`.
 */
export interface ErrorStep {
	error: { status: number; message: string; type?: string; code?: string };
	delayMs?: number;
}

/** Never answer: the request stays open until the client disconnects or the server closes. */
export interface HangStep {
	hang: true;
}

/** A step as data. */
export type StepData = TextStep | ToolCallStep | ErrorStep | HangStep;

/** A step computed from the request when it arrives (may be async, e.g. to wait for other requests). */
export type StepFunction = (request: RecordedRequest) => StepData | Promise<StepData>;

/** What a test queues: data or a function of the request. */
export type Step = StepData | StepFunction;

/**
 * A routing rule: return a step to answer this request, or `undefined` to let the next source decide.
 * Rules are consulted on every request and are never used up.
 */
export type RouteRule = (request: RecordedRequest) => StepData | Promise<StepData> | undefined;

/** The protocol-neutral answer a wire protocol renders. */
export interface Answer {
	text: string;
	thinking: string;
	toolCalls: Required<ScriptedToolCall>[];
	usage: Required<Usage>;
	chunkDelayMs: number;
	/** Characters per answer-text delta. */
	chunkChars: number;
}

/** What a protocol extracts from a request body; the core adds bookkeeping to make a {@link RecordedRequest}. */
export interface ParsedRequest {
	/** Model id as sent (`model`). */
	model: string | undefined;
	/**
	 * Reasoning effort as sent, or `undefined` when the field is absent.
	 * openai-chat: `reasoning_effort` (pi sends it only for models with `reasoning: true`);
	 * openai-responses: `reasoning.effort` (codex `model_reasoning_effort`);
	 * anthropic-messages: `output_config.effort` (claude `--effort`).
	 */
	effort: string | undefined;
	/** Whether the client asked for a streamed (SSE) answer. */
	stream: boolean;
	/**
	 * Roles of the messages in order, as sent (openai-chat: `system`, `user`, `assistant`, `tool`, …;
	 * openai-responses: a message's role, else the input item's type, e.g. `function_call_output`).
	 */
	roles: string[];
	/** Text of all system/developer messages (or the top-level system field), joined by "\n\n". */
	systemPrompt: string;
	/** Text of every user message in order (text parts joined by "\n"). */
	userTexts: string[];
	/** Text of the last user message, "" when there is none. */
	lastUserText: string;
	/** Output of the trailing tool result when the last message is one, else `undefined`. */
	lastToolOutput: string | undefined;
	/** Names of the tools offered to the model. */
	toolNames: string[];
}

/** How a request ended. */
export type RequestOutcome = "answered" | "error" | "disconnected" | "server-closed";

/** One entry of the request log. Times are ms since the Unix epoch (`Date.now()`). */
export interface RecordedRequest extends ParsedRequest {
	/** 1-based arrival order across all protocols. */
	index: number;
	protocol: ProtocolName;
	method: string;
	/** Request path without the query string, e.g. `/v1/chat/completions`. */
	path: string;
	headers: IncomingHttpHeaders;
	/** The parsed JSON body. */
	body: unknown;
	/** When the request arrived (ms epoch). */
	receivedAt: number;
	/** When the response finished or the client disconnected (ms epoch); `undefined` while in flight. */
	endedAt: number | undefined;
	outcome: RequestOutcome | undefined;
	/** The step that answered, once resolved (functions are resolved to their data). */
	step: StepData | undefined;
}

/** Per-request values a protocol needs to render deterministic ids. */
export interface AnswerContext {
	/** The request's 1-based index (used in response ids such as `chatcmpl-fake-<index>`). */
	index: number;
	/** The model id to echo back. */
	model: string;
	/** True once the client has disconnected; protocols stop writing then. */
	isClosed: () => boolean;
}

/**
 * A wire protocol. To add one, write `protocols/<name>.ts` exporting an object of this shape and add it
 * to `defaultProtocols` in `server.ts`.
 */
export interface WireProtocol {
	readonly name: ProtocolName;
	/** POST path answered with a model turn, e.g. `/v1/chat/completions`. */
	readonly path: string;
	/** Extract the logged fields from a parsed JSON body. Must not throw on odd shapes. */
	parseRequest(body: unknown): ParsedRequest;
	/**
	 * Write a complete answer (status, headers, body; streamed when `request.stream`), then end `res`.
	 * Resolves when the last byte is written or the client has gone (`context.isClosed()`).
	 */
	writeAnswer(res: ServerResponse, answer: Answer, request: RecordedRequest, context: AnswerContext): Promise<void>;
	/** Write an HTTP error with the provider-shaped body, then end `res`. */
	writeError(res: ServerResponse, error: ErrorStep["error"]): void;
	/** Answer `GET /v1/models` with these model ids; the first protocol that has it serves the route. */
	writeModels?(res: ServerResponse, modelIds: readonly string[]): void;
}
