/**
 * A real in-process Pi session (Pi's SDK, docs/sdk.md) with this extension loaded, for end-to-end tests
 * through Pi's public boundary: the parent model's turn calls the registered tools, so Pi applies
 * `prepareArguments`, schema validation, execution, streaming updates and abort exactly as in use. The parent's model is
 * pi-ai's faux provider, scripted to call the tools under test; children are real processes talking to the fake
 * model server through the isolated home in `process.env`.
 */
import { join, resolve } from "node:path";
import type { AgentToolResult } from "@earendil-works/pi-agent-core";
import { fauxAssistantMessage, fauxProvider, fauxToolCall, type JsonObject } from "@earendil-works/pi-ai";
import {
	type AgentSession,
	createAgentSession,
	DefaultResourceLoader,
	type ExtensionContext,
	type ExtensionUIContext,
	ModelRuntime,
	SessionManager,
	SettingsManager,
} from "@earendil-works/pi-coding-agent";

export const EXTENSION_PATH = resolve(import.meta.dirname, "../../src/index.ts");

export interface ExtensionSessionOptions {
	cwd: string;
	agentDir: string;
	/** Default true. */
	projectTrusted?: boolean;
	/** A UI for the session (mode "tui"): extension commands then see `ctx.hasUI` and notify through it. */
	uiContext?: ExtensionUIContext;
	/**
	 * The host mode extensions see (`ctx.mode`). Default "tui" with `uiContext`, else "print", as Pi's SDK binds; "rpc" stands for a host
	 * that stays open (background jobs need one).
	 */
	mode?: ExtensionContext["mode"];
	/** The extension to load (default: this package's `src/index.ts`). */
	extensionPath?: string;
	/** Persist the session to a file in this directory (default: in memory). */
	sessionDir?: string;
	/** Give extensions a UI that records `notify` and `setStatus` here (then `ctx.hasUI` is true). */
	uiLog?: UiCall[];
	/**
	 * Keep every streamed partial result in `updates` (default true). The memory benchmark turns it off: a
	 * real Pi renders each update and drops it.
	 */
	keepUpdates?: boolean;
}

/** One `ctx.ui.notify` or `ctx.ui.setStatus` call an extension made. */
/** A UI whose `confirm` dialogs `confirm` answers; every other UI call does nothing. */
export const confirmingUi = (confirm: (title: string, message: string) => Promise<boolean>): ExtensionUIContext =>
	new Proxy({} as ExtensionUIContext, { get: (_target, key) => (key === "confirm" ? confirm : () => undefined) });

export type UiCall = { method: "notify" | "setStatus"; args: unknown[] };

export interface ToolCallOutcome<T = unknown> {
	result: AgentToolResult<T>;
	isError: boolean;
	/** Every partial result the tool streamed, in order. */
	updates: AgentToolResult<T>[];
}

/** A tool call that ended: its provider id, result and whether it is an error. */
export interface ToolCallEnd {
	toolCallId: string;
	result: AgentToolResult<unknown>;
	isError: boolean;
}

export interface ToolCallRequest {
	name: string;
	args: unknown;
	/** The provider's tool-call id (default: a fresh `call_test_<n>`); give one to reuse an id. */
	id?: string;
}

export interface ExtensionSession {
	/**
	 * The parent model calls every tool in one assistant turn (Pi runs prepareArguments, validation and
	 * execute); resolves when the turn settles. Aborting `signal` aborts the session's run.
	 */
	callTools(calls: ToolCallRequest[], signal?: AbortSignal): Promise<ToolCallOutcome[]>;
	/** One tool call in its own turn. */
	callTool<T = unknown>(name: string, args: unknown, signal?: AbortSignal): Promise<ToolCallOutcome<T>>;
	/** Calls `listener` with each partial result any tool streams, until the returned function is called. */
	onToolUpdate(listener: (partial: AgentToolResult<unknown>) => void): () => void;
	/** Sends user text to the session (e.g. a slash command) and waits for it to settle. */
	prompt(text: string): Promise<void>;
	/**
	 * Resolves with the first streamed partial tool result (of any tool call, from now on) that satisfies
	 * `predicate`: a latch on what the tool reports, instead of a delay.
	 */
	waitForUpdate(predicate: (partial: AgentToolResult<unknown>) => boolean): Promise<AgentToolResult<unknown>>;
	/**
	 * Resolves with the first tool call (of any tool, from now on) that ends satisfying `predicate`, while the
	 * turn may still run: e.g. a refusal known before another call of the same turn is let go on.
	 */
	waitForToolEnd(predicate: (end: ToolCallEnd) => boolean): Promise<ToolCallEnd>;
	/** Resolves when the session has no run in progress (e.g. one a follow-up message started). */
	waitForIdle(): Promise<void>;
	/** Emits `session_shutdown` (reason "quit") to the extension, as Pi does when it exits. */
	shutdown(): Promise<void>;
	/**
	 * Pi's own reload (`AgentSession.reload`, what `/reload` runs): `session_shutdown` (reason "reload") to the
	 * loaded extension, then a fresh load and `session_start`. The session's tool calls still go to the first
	 * load afterwards: use a new session to call tools again.
	 */
	reload(): Promise<void>;
	/** The session's current branch (custom entries included). */
	branch(): ReadonlyArray<{ type: string; customType?: string; data?: unknown }>;
	/** The session file, when `sessionDir` was given. */
	sessionFile(): string | undefined;
	/** The registered tool definition (for renderers). */
	toolDefinition(name: string): unknown;
	dispose(): void;
}

/**
 * Starts a session in `cwd` with `agentDir` as Pi's agent dir. The caller must have set
 * `process.env.PI_CODING_AGENT_DIR` to `agentDir` (the extension reads Pi's agent dir at load).
 */
export async function createExtensionSession(options: ExtensionSessionOptions): Promise<ExtensionSession> {
	const { cwd, agentDir } = options;
	const modelRuntime = await ModelRuntime.create({
		authPath: join(agentDir, "auth.json"),
		modelsPath: null,
		refreshOnCreate: false,
	});
	const faux = fauxProvider({ api: "faux-test", provider: "faux", models: [{ id: "faux-1" }] });
	modelRuntime.registerNativeProvider(faux.provider);
	const settingsManager = SettingsManager.inMemory(
		{ retry: { enabled: false }, compaction: { enabled: false } },
		{ projectTrusted: options.projectTrusted ?? true },
	);
	const resourceLoader = new DefaultResourceLoader({
		cwd,
		agentDir,
		settingsManager,
		additionalExtensionPaths: [options.extensionPath ?? EXTENSION_PATH],
		noSkills: true,
		noPromptTemplates: true,
		noThemes: true,
		noContextFiles: true,
	});
	await resourceLoader.reload();
	const loadErrors = resourceLoader.getExtensions().errors;
	if (loadErrors.length > 0) throw new Error(`extension failed to load: ${JSON.stringify(loadErrors)}`);
	const { session } = await createAgentSession({
		cwd,
		agentDir,
		modelRuntime,
		model: faux.getModel(),
		thinkingLevel: "off",
		resourceLoader,
		settingsManager,
		sessionManager: options.sessionDir ? SessionManager.create(cwd, options.sessionDir) : SessionManager.inMemory(cwd),
	});
	const uiContext = options.uiContext ?? (options.uiLog ? recordingUi(options.uiLog) : undefined);
	await session.bindExtensions({
		mode: options.mode ?? (options.uiContext ? "tui" : "print"),
		...(uiContext ? { uiContext } : {}),
	});
	const runner = session.extensionRunner;
	let callCount = 0;

	const callTools = async (calls: ToolCallRequest[], signal?: AbortSignal): Promise<ToolCallOutcome[]> => {
		const ids = calls.map((call) => call.id ?? `call_test_${++callCount}`);
		const outcomes = new Map<string, ToolCallOutcome>();
		for (const id of ids)
			outcomes.set(id, { result: { content: [], details: undefined }, isError: false, updates: [] });
		faux.setResponses([
			fauxAssistantMessage(
				calls.map((call, i) => fauxToolCall(call.name, call.args as JsonObject, { id: ids[i] })),
				{ stopReason: "toolUse" },
			),
			fauxAssistantMessage("done"),
		]);
		const unsubscribe = session.subscribe((event) => {
			if (event.type === "tool_execution_update") {
				if (options.keepUpdates === false) return;
				outcomes.get(event.toolCallId)?.updates.push(event.partialResult as AgentToolResult<unknown>);
			} else if (event.type === "tool_execution_end") {
				const outcome = outcomes.get(event.toolCallId);
				if (outcome) {
					outcome.result = event.result as AgentToolResult<unknown>;
					outcome.isError = event.isError;
				}
			}
		});
		const onAbort = () => void session.abort();
		signal?.addEventListener("abort", onAbort, { once: true });
		try {
			await session.prompt("run the tools");
		} finally {
			signal?.removeEventListener("abort", onAbort);
			unsubscribe();
		}
		return ids.map((id) => outcomes.get(id) as ToolCallOutcome);
	};

	return {
		callTools,
		async callTool<T>(name: string, args: unknown, signal?: AbortSignal) {
			const [outcome] = await callTools([{ name, args }], signal);
			return outcome as ToolCallOutcome<T>;
		},
		onToolUpdate: (listener) =>
			session.subscribe((event) => {
				if (event.type === "tool_execution_update") listener(event.partialResult as AgentToolResult<unknown>);
			}),
		waitForUpdate: (predicate) =>
			latch(session, (event) =>
				event.type === "tool_execution_update"
					? pick(event.partialResult as AgentToolResult<unknown>, predicate)
					: undefined,
			),
		waitForToolEnd: (predicate) =>
			latch(session, (event) =>
				event.type === "tool_execution_end"
					? pick(
							{
								toolCallId: event.toolCallId,
								result: event.result as AgentToolResult<unknown>,
								isError: event.isError,
							},
							predicate,
						)
					: undefined,
			),
		prompt: (text) => session.prompt(text),
		branch: () => session.sessionManager.getBranch(),
		sessionFile: () => session.sessionManager.getSessionFile(),
		waitForIdle: () => session.waitForIdle(),
		async shutdown() {
			await runner.emit({ type: "session_shutdown", reason: "quit" });
		},
		reload: () => session.reload(),
		toolDefinition: (name) => runner.getToolDefinition(name),
		dispose: () => session.dispose(),
	};
}

type SessionEvent = Parameters<Parameters<AgentSession["subscribe"]>[0]>[0];

/** `value` when it satisfies `predicate`, else `undefined`. */
const pick = <T>(value: T, predicate: (value: T) => boolean): T | undefined => (predicate(value) ? value : undefined);

/** Resolves with the first value `match` returns for a session event from now on. */
function latch<T>(session: AgentSession, match: (event: SessionEvent) => T | undefined): Promise<T> {
	return new Promise((resolve) => {
		const unsubscribe = session.subscribe((event) => {
			const value = match(event);
			if (value === undefined) return;
			// Not during the dispatch: removing a listener there would make Pi skip the next one.
			queueMicrotask(unsubscribe);
			resolve(value);
		});
	});
}

/** A UI whose `notify` and `setStatus` record into `log`; dialogs answer "no", everything else does nothing. */
function recordingUi(log: UiCall[]): ExtensionUIContext {
	const record =
		(method: UiCall["method"]) =>
		(...args: unknown[]) =>
			void log.push({ method, args });
	const ui: Partial<ExtensionUIContext> = {
		notify: record("notify"),
		setStatus: record("setStatus"),
		confirm: async () => false,
		select: async () => undefined,
		input: async () => undefined,
	};
	return new Proxy(ui, {
		get: (target, key) => (target as Record<PropertyKey, unknown>)[key] ?? (() => undefined),
	}) as ExtensionUIContext;
}
