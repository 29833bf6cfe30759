/**
 * A scripted fake model server on 127.0.0.1 for end-to-end tests with real harness binaries.
 *
 * The core (this file) owns routing, the request log, concurrency counting, delays, hangs and HTTP
 * errors; each wire protocol (`protocols/*.ts`) only parses request bodies and renders answers.
 * See `Script` (`script.ts`) for how a step is chosen for a request.
 *
 * @example
 * const server = await startFakeModelServer();
 * server.script({ toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] }, (req) => ({
 *   text: `saw ${req.lastToolOutput?.trim()}`,
 * }));
 * server.script({ error: { status: 500, message: "upstream exploded" } });
 * // … run pi with createPiHome(server).env …
 * await server.close();
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { WAIT_LIMIT_MS } from "../processes.ts";
import { anthropicMessages } from "./protocols/anthropic-messages.ts";
import { TEXT_CHUNK_CHARS } from "./protocols/common.ts";
import { openaiChat } from "./protocols/openai-chat.ts";
import { openaiResponses } from "./protocols/openai-responses.ts";
import type { Fallback } from "./rules.ts";
import { Script } from "./script.ts";
import type { Answer, RecordedRequest, RouteRule, Step, StepData, WireProtocol } from "./types.ts";

/** Protocols served when `options.protocols` is not given: pi's chat completions, codex's Responses, claude's Messages. */
export const defaultProtocols: readonly WireProtocol[] = [openaiChat, openaiResponses, anthropicMessages];

/** Options of {@link startFakeModelServer}. */
export interface FakeModelServerOptions {
	/** TCP port; default 0 (a random free port). The host is always 127.0.0.1. */
	port?: number;
	/** Answer for requests nothing was scripted for; default `"echo"` (see `rules.ts`). */
	fallback?: Fallback;
	/** Model ids listed by `GET /v1/models`; default `["fake-model", "fake-reasoner"]`. */
	models?: readonly string[];
	/** Wire protocols to serve; default {@link defaultProtocols}. */
	protocols?: readonly WireProtocol[];
	/** Called once per model request when it has ended (answered, failed or disconnected). */
	onRequestEnd?: (request: RecordedRequest) => void;
}

/** A running fake model server. */
export interface FakeModelServer {
	/** `http://127.0.0.1:<port>` */
	readonly url: string;
	readonly port: number;
	/** `http://127.0.0.1:<port>/v1`, the `baseUrl` for OpenAI-style provider configs. */
	readonly baseUrl: string;
	/** Append steps to the shared queue (answered in order, one per request). */
	script(...steps: Step[]): void;
	/** Append steps to the queue of requests whose system prompt or any user message contains `marker`. */
	scriptFor(marker: string, ...steps: Step[]): void;
	/** Add a rule consulted on every request (after marker queues); returns a function that removes it. */
	route(rule: RouteRule): () => void;
	/** The request log (model requests only), in arrival order. Entries update in place as requests end. */
	readonly requests: readonly RecordedRequest[];
	/** Queued steps not yet used. */
	pendingSteps(): number;
	/**
	 * Resolve with the log once `predicate(requests)` holds; checked on every arrival and end.
	 * Rejects after `timeoutMs` (default `WAIT_LIMIT_MS`, test/support/processes.ts) with the number of requests seen.
	 */
	waitFor(predicate: (requests: readonly RecordedRequest[]) => boolean, timeoutMs?: number): Promise<RecordedRequest[]>;
	/** Resolve once at least `count` requests have arrived (timeout as in {@link FakeModelServer.waitFor}). */
	waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
	/** Requests currently being answered (arrived, not yet ended). */
	inFlight(): number;
	/** The highest {@link FakeModelServer.inFlight} value seen so far. */
	maxConcurrent(): number;
	/** Stop listening, destroy open sockets (hanging requests end as `server-closed`), resolve when closed. */
	close(): Promise<void>;
}

/** Start a server. Resolves once it listens. */
export async function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
	const protocols = options.protocols ?? defaultProtocols;
	const modelIds = options.models ?? ["fake-model", "fake-reasoner"];
	const script = new Script(options.fallback ?? "echo");
	const requests: RecordedRequest[] = [];
	const sockets = new Set<Socket>();
	const waiters = new Set<() => void>();
	let inFlight = 0;
	let maxConcurrent = 0;
	let closing = false;

	const notify = () => {
		for (const waiter of [...waiters]) waiter();
	};

	const handle = async (req: IncomingMessage, res: ServerResponse) => {
		const receivedAt = Date.now();
		const path = (req.url ?? "/").split("?")[0] ?? "/";
		const protocol = req.method === "POST" ? protocols.find((candidate) => candidate.path === path) : undefined;
		if (req.method === "GET" && path === "/v1/models") {
			const lister = protocols.find((candidate) => candidate.writeModels !== undefined);
			if (lister?.writeModels) return lister.writeModels(res, modelIds);
		}
		if (protocol === undefined) {
			res.writeHead(404, { "content-type": "application/json" });
			res.end(JSON.stringify({ error: { message: `fake model server: no route for ${req.method} ${path}` } }));
			return;
		}

		inFlight += 1;
		maxConcurrent = Math.max(maxConcurrent, inFlight);
		let closed = false;
		let onClosed = () => {};
		const closedPromise = new Promise<void>((resolve) => {
			onClosed = resolve;
		});
		const record: RecordedRequest = {
			...protocol.parseRequest(undefined),
			index: requests.length + 1,
			protocol: protocol.name,
			method: req.method ?? "POST",
			path,
			headers: req.headers,
			body: undefined,
			receivedAt,
			endedAt: undefined,
			outcome: undefined,
			step: undefined,
		};
		requests.push(record);
		res.on("close", () => {
			closed = true;
			inFlight -= 1;
			record.endedAt = Date.now();
			record.outcome ??= res.writableFinished ? "answered" : closing ? "server-closed" : "disconnected";
			onClosed();
			options.onRequestEnd?.(record);
			notify();
		});
		notify();

		const rawBody = await readBody(req);
		if (closed) return;
		try {
			record.body = JSON.parse(rawBody);
		} catch {
			record.outcome = "error";
			protocol.writeError(res, { status: 400, message: `fake model server: request body is not JSON` });
			return;
		}
		Object.assign(record, protocol.parseRequest(record.body));
		// Waiters may test what the body says (e.g. the user text): check them again now that it is known.
		notify();

		let step: StepData;
		try {
			step = await script.next(record);
		} catch (error) {
			step = { error: { status: 500, message: `fake model script threw: ${String(error)}` } };
		}
		record.step = step;
		if ("hang" in step) return closedPromise;
		if (!(await waitUnlessClosed(step.delayMs ?? 0, closedPromise)) || closed) return;
		if ("error" in step) {
			record.outcome = "error";
			protocol.writeError(res, step.error);
			return;
		}
		await protocol.writeAnswer(res, toAnswer(step, record, rawBody.length), record, {
			index: record.index,
			model: record.model ?? "fake-model",
			isClosed: () => closed,
		});
	};

	const server = createServer((req, res) => {
		handle(req, res).catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
			res.end(JSON.stringify({ error: { message: `fake model server failed: ${String(error)}` } }));
		});
	});
	server.on("connection", (socket) => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
	});
	const port = (server.address() as AddressInfo).port;
	const url = `http://127.0.0.1:${port}`;

	const waitFor = (predicate: (log: readonly RecordedRequest[]) => boolean, timeoutMs = WAIT_LIMIT_MS) =>
		new Promise<RecordedRequest[]>((resolve, reject) => {
			const check = () => {
				if (!predicate(requests)) return;
				cleanup();
				resolve([...requests]);
			};
			const timer = setTimeout(() => {
				cleanup();
				reject(
					new Error(`fake model server: condition not met within ${timeoutMs} ms (${requests.length} requests seen)`),
				);
			}, timeoutMs);
			const cleanup = () => {
				clearTimeout(timer);
				waiters.delete(check);
			};
			waiters.add(check);
			check();
		});

	return {
		url,
		port,
		baseUrl: `${url}/v1`,
		script: (...steps) => script.push(steps),
		scriptFor: (marker, ...steps) => script.pushFor(marker, steps),
		route: (rule) => script.addRoute(rule),
		requests,
		pendingSteps: () => script.pending(),
		waitFor,
		waitForRequests: (count, timeoutMs) => waitFor((log) => log.length >= count, timeoutMs),
		inFlight: () => inFlight,
		maxConcurrent: () => maxConcurrent,
		close: () => {
			closing = true;
			const done = new Promise<void>((resolve) => server.close(() => resolve()));
			server.closeAllConnections();
			for (const socket of sockets) socket.destroy();
			return done;
		},
	};
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const parts: Buffer[] = [];
		req.on("data", (part: Buffer) => parts.push(part));
		const done = () => resolve(Buffer.concat(parts).toString("utf8"));
		req.on("end", done);
		// An aborted upload never emits "end"; the caller checks whether the client is gone.
		req.on("close", done);
		req.on("error", reject);
	});
}

/** Resolve true after `ms`, or false as soon as `closed` settles (the timer is cleared either way). */
function waitUnlessClosed(ms: number, closed: Promise<void>): Promise<boolean> {
	if (ms <= 0) return Promise.resolve(true);
	return new Promise((resolve) => {
		const timer = setTimeout(() => resolve(true), ms);
		closed.then(() => {
			clearTimeout(timer);
			resolve(false);
		});
	});
}

const estimateTokens = (chars: number) => Math.ceil(chars / 4);

/** Fill defaults: tool call ids `call_fake_<index>_<n>`, usage estimated at 4 characters per token. */
function toAnswer(
	step: Exclude<StepData, { hang: true } | { error: unknown }>,
	record: RecordedRequest,
	bodyChars: number,
): Answer {
	const text = step.text ?? "";
	const thinking = "thinking" in step ? (step.thinking ?? "") : "";
	const toolCalls = ("toolCalls" in step ? step.toolCalls : []).map((call, position) => ({
		id: call.id ?? `call_fake_${record.index}_${position}`,
		name: call.name,
		arguments: call.arguments,
	}));
	const outputChars = text.length + thinking.length + JSON.stringify(toolCalls).length * Math.sign(toolCalls.length);
	return {
		text,
		thinking,
		toolCalls,
		usage: {
			input: step.usage?.input ?? estimateTokens(bodyChars),
			output: step.usage?.output ?? estimateTokens(outputChars),
			cacheRead: step.usage?.cacheRead ?? 0,
			reasoning: step.usage?.reasoning ?? estimateTokens(thinking.length),
		},
		chunkDelayMs: step.chunkDelayMs ?? 0,
		chunkChars: step.chunkChars ?? TEXT_CHUNK_CHARS,
	};
}
