/**
 * The codex harness adapter (DESIGN.md §4; flags from `codex exec --help` of codex-cli 0.171.0, facts in
 * reference/codex-and-claude-cli.md §2). LaunchSpec → `codex exec --json …`, and codex's JSONL records →
 * RunEvents.
 */
import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { EventParser, HarnessAdapter, HarnessCommand } from "../../core/harness-adapter.ts";
import { LaunchError } from "../../core/launch-error.ts";
import type { LaunchSpec, Resources } from "../../core/launch-spec.ts";
import type { RunEvent, Usage } from "../../core/run-event.ts";
import { assertCanLaunch } from "../adapter.ts";
import { CODEX_COMMAND_ENV, type NativeCommand } from "../native-command.ts";
import { appendSkillReferences, UNSUPPORTED_SKILLS_PROBLEM } from "../skill-references.ts";
import type { CodexItem, CodexRecord, CodexUsage } from "./records.ts";

export interface CodexAdapterOptions {
	/**
	 * How to start codex (see `resolveNativeCommand`); called per launch, so a bad override refuses
	 * launches instead of failing the extension's load.
	 * @throws LaunchError when the command cannot be resolved.
	 */
	command: () => NativeCommand;
	/**
	 * The `CODEX_HOME` children use (see {@link codexHomeDir}). Read only when a thread is resumed, to find
	 * the thread's earlier usage total in its rollout file.
	 */
	codexHome: string;
}

/** `CODEX_HOME`, or codex's default `~/.codex`. */
export function codexHomeDir(env: NodeJS.ProcessEnv): string {
	return env.CODEX_HOME || join(homedir(), ".codex");
}

/**
 * Longest single argv string Linux accepts (MAX_ARG_STRLEN, 32 pages of 4 KiB), bytes. The agent body
 * travels in one `-c developer_instructions=…` argument, since codex has no file form for it.
 */
const MAX_ARGUMENT_BYTES = 128 * 1024;

/** Builds the codex adapter. */
export function createCodexAdapter(options: CodexAdapterOptions): HarnessAdapter {
	return {
		harness: "codex",
		commandEnv: CODEX_COMMAND_ENV,
		buildCommand: (spec) => buildCodexCommand(spec, options.command()),
		createParser: (spec) =>
			new CodexEventParser(
				spec.session.kind === "resume"
					? {
							threadId: spec.session.nativeSessionId,
							baseline: readThreadUsage(options.codexHome, spec.session.nativeSessionId),
						}
					: undefined,
				(threadId) => readThreadUsage(options.codexHome, threadId),
			),
		validate: (spec) => assertCanLaunch("codex", options.command, codexProblems(spec)),
	};
}

/**
 * `codex exec` arguments for `spec`, field by field. Values go in `--flag=value` form so a value starting
 * with `-` is never read as a flag.
 * @throws LaunchError when the spec asks for something codex cannot honour (see {@link codexProblems}).
 */
export function buildCodexCommand(spec: LaunchSpec, command: NativeCommand): HarnessCommand {
	assertCodexCanRun(spec);
	const args = [...command.args, "exec", "--json"];
	// --cd: explicit, because a resumed thread otherwise takes the spawn cwd (reference §2.1 "working dir").
	args.push(`--cd=${spec.cwd}`);
	// --skip-git-repo-check: a child's cwd need not be a git repository.
	args.push("--skip-git-repo-check");
	if (spec.model) args.push(`--model=${spec.model}`);
	// -c model_reasoning_effort: sent verbatim as `reasoning.effort`; codex does not validate it.
	if (spec.effort) args.push("-c", `model_reasoning_effort=${tomlString(spec.effort)}`);
	// -c developer_instructions: a separate developer message after codex's base prompt (no append flag exists).
	if (spec.systemPromptAddition) {
		args.push("-c", `developer_instructions=${tomlString(spec.systemPromptAddition)}`);
	}
	// auto_approve → --dangerously-bypass-approvals-and-sandbox; otherwise the workspace-write sandbox
	// (exec's default is read-only; its approval policy is always "never").
	args.push(...(spec.autoApprove ? ["--dangerously-bypass-approvals-and-sandbox"] : ["--sandbox=workspace-write"]));
	// Options before `resume` apply to the resumed run; `-` reads the prompt from stdin.
	// `--` ends codex's options: the id is never read as one (e.g. `--last`).
	if (spec.session.kind === "resume") args.push("resume", "--", spec.session.nativeSessionId);
	args.push("-");
	// The task goes through stdin (prompt `-`), which is then closed: no argv limit, no flag parsing, and
	// codex never blocks on an open pipe.
	return { file: command.file, args, env: {}, stdin: appendSkillReferences(spec.task, spec.skillReferences) };
}

/** @throws LaunchError listing {@link codexProblems}, each prefixed `codex harness: `. */
function assertCodexCanRun(spec: LaunchSpec): void {
	const problems = codexProblems(spec);
	if (problems.length > 0) throw new LaunchError(problems.map((p) => `codex harness: ${p}`));
}

/** Every option of `spec` codex cannot honour, each naming the option. Pure. */
export function codexProblems(spec: LaunchSpec): string[] {
	const problems: string[] = [];
	if (spec.allowedTools !== undefined) {
		problems.push("allowed_tools cannot be enforced: codex exec has no tool allow list (use the sandbox instead)");
	}
	if (spec.disallowedTools !== undefined && spec.disallowedTools.length > 0) {
		problems.push("disallowed_tools cannot be enforced: codex exec has no tool deny list");
	}
	if (spec.systemPromptAddition) {
		const bytes = Buffer.byteLength(`developer_instructions=${tomlString(spec.systemPromptAddition)}`);
		if (bytes >= MAX_ARGUMENT_BYTES) {
			problems.push(
				`the agent body is ${bytes} bytes once encoded; codex takes it as one argument (-c developer_instructions), limited to ${MAX_ARGUMENT_BYTES} bytes`,
			);
		}
	}
	if (spec.resources) problems.push(...codexResourceProblems(spec.resources));
	return problems;
}

function codexResourceProblems(resources: Resources): string[] {
	const problems: string[] = [];
	if (resources.skills.length > 0) problems.push(UNSUPPORTED_SKILLS_PROBLEM);
	if (resources.plugins.length > 0) problems.push("resources.plugins: codex has no per-run plugin directory");
	if (resources.extensions.length > 0) problems.push("resources.extensions: extensions are pi-only");
	if (resources.packages.length > 0) {
		problems.push("resources.packages: must be empty; this package never installs packages");
	}
	if (resources.mcp_servers !== null) {
		problems.push(
			resources.mcp_servers.length > 0
				? "resources.mcp_servers: only null (inherit) is supported"
				: "resources.mcp_servers: [] cannot be honoured: codex has no per-run switch that removes configured MCP servers (-c mcp_servers={} does not)",
		);
	}
	if (!resources.inherit_personal_resources) {
		problems.push(
			"resources.inherit_personal_resources: false cannot be honoured: codex always loads $CODEX_HOME (config, AGENTS.md, skills)",
		);
	}
	if (!resources.inherit_project_resources) {
		problems.push(
			"resources.inherit_project_resources: false cannot be honoured: codex has no switch for project skills and instructions",
		);
	}
	if (!resources.include_instruction_files) {
		problems.push(
			"resources.include_instruction_files: false cannot be honoured: codex always reads $CODEX_HOME/AGENTS.md (project_doc_max_bytes=0 drops only project files)",
		);
	}
	if (!resources.include_home_system_prompt) {
		problems.push(
			"resources.include_home_system_prompt: false cannot be honoured: codex has no home system prompt switch",
		);
	}
	return problems;
}

/**
 * A TOML basic string for a `-c key=value` override (codex parses the value as TOML). JSON's escapes are
 * valid TOML; DEL is the one control character JSON leaves raw and TOML forbids.
 */
export function tomlString(value: string): string {
	return JSON.stringify(value).replace(/\u007f/g, "\\u007f");
}

/**
 * The last cumulative usage codex recorded for `threadId`: `payload.info.total_token_usage` of the last
 * `token_count` event in `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<threadId>.jsonl`. `undefined`
 * when the rollout or a total cannot be found (the thread then counts from zero).
 */
export function readThreadUsage(codexHome: string, threadId: string): CodexUsage | undefined {
	const file = findRollout(join(codexHome, "sessions"), `-${threadId}.jsonl`);
	if (!file) return undefined;
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch {
		return undefined;
	}
	const lines = text.split("\n");
	for (let i = lines.length - 1; i >= 0; i--) {
		if (!lines[i].includes('"token_count"')) continue;
		try {
			const record = JSON.parse(lines[i]) as { payload?: { info?: { total_token_usage?: CodexUsage } | null } };
			const total = record.payload?.info?.total_token_usage;
			if (total) return total;
		} catch {
			// A torn last line (the rollout of a killed run): look further up.
		}
	}
	return undefined;
}

function findRollout(dir: string, suffix: string): string | undefined {
	let entries: Dirent[];
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch {
		return undefined;
	}
	// Newest first: date folders (YYYY/MM/DD) and rollout names (rollout-<timestamp>-…) sort by time, and a
	// resumed thread is usually recent, so the walk of a long history ends early.
	entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
	for (const entry of entries) {
		const path = join(dir, entry.name);
		if (entry.isFile() && entry.name.startsWith("rollout-") && entry.name.endsWith(suffix)) return path;
		if (entry.isDirectory()) {
			const found = findRollout(path, suffix);
			if (found) return found;
		}
	}
	return undefined;
}

/** What the parser knows about a resumed thread. */
export interface CodexResume {
	threadId: string;
	/** The thread's cumulative usage before this run; `undefined` counts from zero. */
	baseline: CodexUsage | undefined;
}

/**
 * codex records → RunEvents. `turn.completed` is terminal (an exec run is one turn) and carries the
 * thread's cumulative usage, which is turned into this run's delta. Codex reports no cost (`costUsd` stays
 * undefined) and no model in its stream.
 */
export class CodexEventParser implements EventParser {
	private readonly resume: CodexResume | undefined;
	private readonly readUsage: ((threadId: string) => CodexUsage | undefined) | undefined;
	private previous: CodexUsage;
	private readonly started = new Set<string>();
	private threadId: string | undefined;
	private usageReported = false;

	/**
	 * @param readUsage reads the thread's cumulative usage from codex's own records (its rollout file), for a
	 *   run that ends without `turn.completed` (a failed, aborted or timed-out turn still spent tokens).
	 */
	constructor(resume?: CodexResume, readUsage?: (threadId: string) => CodexUsage | undefined) {
		this.resume = resume;
		this.readUsage = readUsage;
		this.previous = resume?.baseline ?? {};
	}

	/** The usage codex recorded for a turn that never reached `turn.completed`. */
	finish(): RunEvent[] {
		if (this.usageReported || !this.threadId || !this.readUsage) return [];
		const total = this.readUsage(this.threadId);
		return total ? [this.usageDelta(total)] : [];
	}

	parse(raw: unknown): RunEvent[] {
		const record = raw as CodexRecord;
		switch (record?.type) {
			case "thread.started":
				return this.threadStarted(record.thread_id);
			case "item.started":
				return this.itemStarted(record.item);
			case "item.completed":
				return this.itemCompleted(record.item);
			case "turn.completed":
				return [this.usageDelta(record.usage ?? {}), { type: "done", status: "completed" }];
			case "turn.failed": {
				const message = readableError(record.error?.message ?? "codex reported a failed turn");
				return [
					{ type: "error", message },
					{ type: "done", status: "failed", error: message },
				];
			}
			case "error":
				return [{ type: "error", message: readableError(record.message ?? "codex reported an error") }];
			default:
				// turn.started, item.updated (todo_list progress), item.plan.delta: nothing a RunResult keeps.
				return [];
		}
	}

	private threadStarted(threadId: unknown): RunEvent[] {
		if (typeof threadId !== "string") return [];
		this.threadId = threadId;
		const events: RunEvent[] = [{ type: "session", nativeSessionId: threadId }];
		if (this.resume && threadId !== this.resume.threadId) {
			// `exec resume` silently starts a new thread when it cannot match; never pass that off as the old one.
			const message = `codex started a new thread ${threadId} instead of resuming ${this.resume.threadId}`;
			events.push({ type: "error", message }, { type: "done", status: "failed", error: message });
		}
		return events;
	}

	private itemStarted(item: CodexItem | undefined): RunEvent[] {
		if (!item || !isToolItem(item)) return [];
		this.started.add(item.id);
		return [toolStart(item)];
	}

	private itemCompleted(item: CodexItem | undefined): RunEvent[] {
		if (!item) return [];
		switch (item.type) {
			case "agent_message":
				return [{ type: "assistant_text", text: item.text ?? "", final: true }];
			case "reasoning":
				return item.text ? [{ type: "thinking", text: item.text }] : [];
			case "plan":
				return item.text ? [{ type: "thinking", text: item.text }] : [];
			case "error":
				return [{ type: "diagnostic", message: `codex: ${item.message}` }];
		}
		// Some items (web_search, a todo_list created at the end) complete without having started.
		const events = this.started.delete(item.id) ? [] : [toolStart(item)];
		events.push(toolEnd(item));
		return events;
	}

	/** This run's usage: the cumulative thread total minus the previous total seen. */
	private usageDelta(total: CodexUsage): RunEvent {
		this.usageReported = true;
		const before = this.previous;
		this.previous = total;
		const diff = (pick: (u: CodexUsage) => number | undefined) => Math.max(0, (pick(total) ?? 0) - (pick(before) ?? 0));
		const cached = diff((u) => u.cached_input_tokens);
		const usage: Partial<Usage> = {
			// Codex's input_tokens include the cached part; RunEvent counts them apart.
			inputTokens: Math.max(0, diff((u) => u.input_tokens) - cached),
			cacheReadTokens: cached,
			cacheWriteTokens: diff((u) => u.cache_write_input_tokens),
			outputTokens: diff((u) => u.output_tokens),
			turns: 1,
		};
		return { type: "usage", usage };
	}
}

type ToolItem = Exclude<CodexItem, { type: "agent_message" | "reasoning" | "plan" | "error" }>;

function isToolItem(item: CodexItem): item is ToolItem {
	return !["agent_message", "reasoning", "plan", "error"].includes(item.type);
}

/** The tool name shown for an item: its type, or `mcp:<server>/<tool>` and `collab:<tool>`. */
function toolName(item: ToolItem): string {
	if (item.type === "mcp_tool_call") return `mcp:${item.server}/${item.tool}`;
	if (item.type === "collab_tool_call") return `collab:${item.tool ?? "call"}`;
	return item.type;
}

function toolArgs(item: ToolItem): unknown {
	switch (item.type) {
		case "command_execution":
			return { command: item.command };
		case "file_change":
			return { changes: item.changes };
		case "mcp_tool_call":
			return item.arguments;
		case "collab_tool_call":
			return { prompt: item.prompt, receivers: item.receiver_thread_ids };
		case "web_search":
			return { query: item.query };
		case "todo_list":
			return { items: item.items };
	}
}

function toolStart(item: ToolItem): RunEvent {
	return { type: "tool_start", toolCallId: item.id, toolName: toolName(item), args: toolArgs(item) };
}

function toolEnd(item: ToolItem): RunEvent {
	const failed = item.type !== "web_search" && item.type !== "todo_list" && item.status !== "completed";
	const end = (output: string, isError = failed): RunEvent => ({
		type: "tool_end",
		toolCallId: item.id,
		toolName: toolName(item),
		output,
		isError,
	});
	switch (item.type) {
		case "command_execution":
			return end(item.aggregated_output ?? "", failed || (item.exit_code ?? 0) !== 0);
		case "file_change":
			return end((item.changes ?? []).map((change) => `${change.kind} ${change.path}`).join("\n"));
		case "mcp_tool_call": {
			const text = (item.result?.content ?? []).map((part) => part.text ?? `[${part.type}]`).join("");
			return end(item.error?.message ?? text, failed || item.error !== null);
		}
		case "todo_list":
			return end((item.items ?? []).map((todo) => `[${todo.completed ? "x" : " "}] ${todo.text}`).join("\n"));
		case "collab_tool_call":
		case "web_search":
			return end("");
	}
}

/**
 * Codex passes a provider's HTTP error body through as JSON text (`{"error":{"message",…}}`); the
 * provider's own message is what a user can act on.
 */
export function readableError(message: string): string {
	const start = message.indexOf("{");
	if (start < 0) return message;
	try {
		const body = JSON.parse(message.slice(start)) as { error?: { message?: unknown; type?: unknown } };
		const inner = body.error?.message;
		if (typeof inner !== "string") return message;
		const type = typeof body.error?.type === "string" ? ` (${body.error.type})` : "";
		return `${message.slice(0, start)}${inner}${type}`.trim();
	} catch {
		return message;
	}
}
