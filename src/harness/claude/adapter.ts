/**
 * The claude_code harness adapter (DESIGN.md §4; flags from `claude --help` of Claude Code 2.1.332, facts
 * in reference/codex-and-claude-cli.md §3). LaunchSpec → `claude -p --output-format stream-json --verbose …`,
 * and claude's stream-json records → RunEvents.
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EventParser, HarnessAdapter, HarnessCommand } from "../../core/harness-adapter.ts";
import { LaunchError } from "../../core/launch-error.ts";
import type { LaunchSpec, Resources } from "../../core/launch-spec.ts";
import type { RunEvent } from "../../core/run-event.ts";
import { assertCanLaunch } from "../adapter.ts";
import { CLAUDE_COMMAND_ENV, type NativeCommand } from "../native-command.ts";
import { appendSkillReferences, UNSUPPORTED_SKILLS_PROBLEM } from "../skill-references.ts";
import type { ClaudeContentBlock, ClaudeRecord, ClaudeUsage } from "./records.ts";

export interface ClaudeAdapterOptions {
	/**
	 * How to start claude (see `resolveNativeCommand`); called per launch, so a bad override refuses
	 * launches instead of failing the extension's load.
	 * @throws LaunchError when the command cannot be resolved.
	 */
	command: () => NativeCommand;
	/**
	 * Why claude would refuse `--dangerously-skip-permissions` on this machine, if it would (see
	 * {@link claudeBypassRefusal}); `auto_approve` is then rejected before launch.
	 */
	bypassRefusal?: string;
}

/**
 * Claude refuses `--dangerously-skip-permissions` (and `--permission-mode bypassPermissions`) when run as
 * root, exiting 1, unless `IS_SANDBOX=1` (exactly "1": claude 2.1.332 refuses "yes" and "true"). Returns
 * that reason for `uid` 0 without it.
 * This package never sets `IS_SANDBOX` itself: only the user can say the machine is a sandbox.
 */
export function claudeBypassRefusal(env: NodeJS.ProcessEnv, uid: number | undefined): string | undefined {
	if (uid !== 0 || env.IS_SANDBOX === "1") return undefined;
	const current = env.IS_SANDBOX === undefined ? "it is unset" : `it is ${JSON.stringify(env.IS_SANDBOX)}`;
	return `claude refuses --dangerously-skip-permissions as root unless IS_SANDBOX=1 is set in the environment (${current}; set it only on a sandboxed machine)`;
}

/** Builds the claude_code adapter. */
export function createClaudeAdapter(options: ClaudeAdapterOptions): HarnessAdapter {
	return {
		harness: "claude_code",
		commandEnv: CLAUDE_COMMAND_ENV,
		buildCommand: (spec, runDir) => buildClaudeCommand(spec, runDir, options),
		createParser: () => new ClaudeEventParser(),
		validate: (spec) => assertCanLaunch("claude_code", options.command, claudeProblems(spec, options)),
	};
}

/**
 * `claude -p` arguments for `spec`, field by field. Values go in `--flag=value` form: a value starting with
 * `-` is never read as a flag, and variadic flags (`--allowedTools <tools...>`) take exactly one value each.
 * A new session gets a fresh UUID through `--session-id`.
 * @param runDir private directory for the system-prompt file.
 * @throws LaunchError when the spec asks for something claude cannot honour (see {@link claudeProblems}).
 */
export function buildClaudeCommand(spec: LaunchSpec, runDir: string, options: ClaudeAdapterOptions): HarnessCommand {
	assertClaudeCanRun(spec, options);
	const command = options.command();
	// -p with no prompt argument reads the prompt from stdin; stream-json requires --verbose.
	const args = [...command.args, "-p", "--output-format=stream-json", "--verbose"];
	const env: Record<string, string | undefined> = {};
	// --session-id / --resume: the id is chosen here, so it is known even if the child dies early.
	args.push(
		spec.session.kind === "resume" ? `--resume=${spec.session.nativeSessionId}` : `--session-id=${randomUUID()}`,
	);
	if (spec.model) args.push(`--model=${spec.model}`);
	// --effort: sent as `output_config.effort` on models with adaptive thinking; others ignore it.
	if (spec.effort) args.push(`--effort=${spec.effort}`);
	if (spec.systemPromptAddition) {
		// --append-system-prompt-file (named in `--bare`'s help): a file, not argv, since a body may be large.
		const file = join(runDir, "append-system-prompt.md");
		writeFileSync(file, spec.systemPromptAddition, { mode: 0o600 });
		args.push(`--append-system-prompt-file=${file}`);
	}
	// --allowedTools / --disallowedTools: permission rules such as `Bash(git *)`, one value per flag.
	for (const tool of spec.allowedTools ?? []) args.push(`--allowedTools=${tool}`);
	for (const tool of spec.disallowedTools ?? []) args.push(`--disallowedTools=${tool}`);
	// auto_approve → --dangerously-skip-permissions; otherwise claude's default permission mode, in which
	// -p denies whatever would prompt (reported in result.permission_denials).
	if (spec.autoApprove) args.push("--dangerously-skip-permissions");
	if (spec.resources) {
		const resources = spec.resources;
		for (const plugin of resources.plugins) args.push(`--plugin-dir=${plugin}`);
		// --strict-mcp-config without --mcp-config: no MCP servers at all.
		if (resources.mcp_servers !== null) args.push("--strict-mcp-config");
		const sources = settingSources(resources);
		if (sources !== undefined) args.push(`--setting-sources=${sources}`);
		// No flag drops CLAUDE.md files; this variable (read by the binary) drops user and project ones.
		if (!resources.include_instruction_files) env.CLAUDE_CODE_DISABLE_CLAUDE_MDS = "1";
	}
	// The task goes through stdin, which is then closed: no argv limit, no flag parsing, no 3 s stdin wait.
	return {
		file: command.file,
		args,
		env,
		stdin: appendSkillReferences(spec.task, spec.skillReferences),
	};
}

/**
 * `--setting-sources` for the inheritance flags: personal = `user` (`$CLAUDE_CONFIG_DIR` settings, CLAUDE.md,
 * skills, agents), project = `project` and `local` (`.claude/` in the cwd). `undefined` (no flag) when both
 * are inherited; `""` loads neither.
 */
export function settingSources(resources: Resources): string | undefined {
	if (resources.inherit_personal_resources && resources.inherit_project_resources) return undefined;
	const sources: string[] = [];
	if (resources.inherit_personal_resources) sources.push("user");
	if (resources.inherit_project_resources) sources.push("project", "local");
	return sources.join(",");
}

/** `--effort` levels from `claude --help`; claude itself silently accepts any other value. */
export const CLAUDE_EFFORT_LEVELS = ["low", "medium", "high", "xhigh", "max"] as const;

/** @throws LaunchError listing {@link claudeProblems}, each prefixed `claude_code harness: `. */
function assertClaudeCanRun(spec: LaunchSpec, options: Pick<ClaudeAdapterOptions, "bypassRefusal">): void {
	const problems = claudeProblems(spec, options);
	if (problems.length > 0) throw new LaunchError(problems.map((p) => `claude_code harness: ${p}`));
}

/** Every option of `spec` claude cannot honour, each naming the option. Pure. */
export function claudeProblems(spec: LaunchSpec, options: Pick<ClaudeAdapterOptions, "bypassRefusal">): string[] {
	const problems: string[] = [];
	if (spec.effort !== undefined && !(CLAUDE_EFFORT_LEVELS as readonly string[]).includes(spec.effort)) {
		problems.push(
			`effort ${JSON.stringify(spec.effort)} is not a claude effort level (${CLAUDE_EFFORT_LEVELS.join(", ")})`,
		);
	}
	if (spec.allowedTools !== undefined && spec.allowedTools.length === 0) {
		problems.push(
			"allowed_tools: [] cannot be expressed: --allowedTools lists tools to permit and has no 'nothing' form",
		);
	}
	if (spec.autoApprove && options.bypassRefusal) problems.push(`auto_approve: ${options.bypassRefusal}`);
	const resources = spec.resources;
	if (resources) {
		if (resources.skills.length > 0) problems.push(UNSUPPORTED_SKILLS_PROBLEM);
		if (resources.extensions.length > 0) problems.push("resources.extensions: extensions are pi-only; use plugins");
		if (resources.packages.length > 0) {
			problems.push("resources.packages: must be empty; this package never installs packages");
		}
		if (resources.mcp_servers !== null && resources.mcp_servers.length > 0) {
			problems.push("resources.mcp_servers: only null (inherit) or [] (disable) are supported");
		}
		if (!resources.include_home_system_prompt) {
			problems.push(
				"resources.include_home_system_prompt: false cannot be honoured: claude has no home system prompt switch",
			);
		}
	}
	return problems;
}

/** The assistant message being assembled from per-block `assistant` records. */
interface OpenMessage {
	id: string;
	text: string;
	model: string | undefined;
}

/** Claude's placeholder model for messages it makes up itself (API errors). */
const SYNTHETIC_MODEL = "<synthetic>";

/**
 * claude records → RunEvents. Blocks of one message (one `assistant` record each, sharing `message.id`)
 * are streamed as text deltas and closed as one final text when the next message, a tool result or the
 * `result` arrives. `result` is terminal and carries the status, this invocation's usage and cost, and the
 * permission denials. Records of sub-agents (`parent_tool_use_id` set) are not the child's own answer and
 * are skipped.
 */
export class ClaudeEventParser implements EventParser {
	/** Whether an assistant text has been emitted (then `result.result` only repeats it). */
	private answered = false;
	private open: OpenMessage | undefined;
	private sessionSeen = false;
	private model: string | undefined;
	private contextTokens: number | undefined;
	private readonly toolNames = new Map<string, string>();

	parse(raw: unknown): RunEvent[] {
		const record = raw as ClaudeRecord;
		const events = this.session(record);
		switch (record?.type) {
			case "system":
				if (record.subtype === "api_retry") {
					events.push({
						type: "diagnostic",
						message: `claude: API retry ${record.attempt ?? "?"}/${record.max_retries ?? "?"} (${record.error ?? "error"})`,
					});
				}
				return events;
			case "assistant":
				if (record.parent_tool_use_id) return events;
				return [...events, ...this.assistant(record)];
			case "user":
				if (record.parent_tool_use_id) return events;
				return [...events, ...this.close(), ...this.toolResults(record.message?.content)];
			case "result":
				return [...events, ...this.close(), ...this.result(record)];
			default:
				return events;
		}
	}

	/** Every record carries `session_id`; the first one seen is the native session id. */
	private session(record: ClaudeRecord | undefined): RunEvent[] {
		if (this.sessionSeen || typeof record?.session_id !== "string") return [];
		this.sessionSeen = true;
		return [{ type: "session", nativeSessionId: record.session_id }];
	}

	private assistant(record: Extract<ClaudeRecord, { type: "assistant" }>): RunEvent[] {
		const message = record.message;
		if (!message) return [];
		if (message.model === SYNTHETIC_MODEL || record.error) {
			// Claude's own error text ("API Error: 400 …"), not the model's answer; `result` carries the verdict.
			const text = textOf(message.content);
			return [...this.close(), ...(text ? [{ type: "error" as const, message: text }] : [])];
		}
		const events: RunEvent[] = this.open && this.open.id !== message.id ? this.close() : [];
		if (message.model) this.model = message.model;
		const usage = message.usage;
		if (usage) {
			this.contextTokens =
				(usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
		}
		this.open ??= { id: message.id, text: "", model: message.model };
		for (const block of message.content ?? []) events.push(...this.block(block));
		return events;
	}

	private block(block: ClaudeContentBlock): RunEvent[] {
		switch (block.type) {
			case "text":
				if (!this.open || !block.text) return [];
				this.open.text += block.text;
				return [{ type: "assistant_text", text: block.text, final: false, model: this.open.model }];
			case "thinking":
				return block.thinking ? [{ type: "thinking", text: block.thinking }] : [];
			case "tool_use":
				this.toolNames.set(block.id, block.name);
				return [{ type: "tool_start", toolCallId: block.id, toolName: block.name, args: block.input }];
			default:
				return [];
		}
	}

	/** Ends the open message: its text blocks joined are one complete assistant text. */
	private close(): RunEvent[] {
		const open = this.open;
		this.open = undefined;
		if (!open || open.text.length === 0) return [];
		this.answered = true;
		return [{ type: "assistant_text", text: open.text, final: true, model: open.model }];
	}

	private toolResults(content: string | ClaudeContentBlock[] | undefined): RunEvent[] {
		if (!Array.isArray(content)) return [];
		return content.flatMap((block): RunEvent[] =>
			block.type === "tool_result"
				? [
						{
							type: "tool_end",
							toolCallId: block.tool_use_id,
							toolName: this.toolNames.get(block.tool_use_id) ?? "unknown",
							output: typeof block.content === "string" ? block.content : textOf(block.content),
							isError: block.is_error === true,
						},
					]
				: [],
		);
	}

	private result(record: Extract<ClaudeRecord, { type: "result" }>): RunEvent[] {
		const events: RunEvent[] = (record.permission_denials ?? []).map((denial) => ({
			type: "permission_denied",
			denial: { toolName: denial.tool_name, toolCallId: denial.tool_use_id, input: denial.tool_input },
		}));
		events.push({ type: "usage", model: this.model, usage: usageOf(record, this.contextTokens) });
		// `is_error` decides: API errors come with subtype "success" (reference §3.3).
		if (!record.is_error && record.subtype === "success") {
			// `result` repeats the final text; it is the answer only when no assistant text came before it.
			if (!this.answered && record.result) events.push({ type: "assistant_text", text: record.result, final: true });
			events.push({ type: "done", status: "completed" });
			return events;
		}
		const message =
			(record.errors && record.errors.length > 0 ? record.errors.join("; ") : undefined) ??
			(record.result || undefined) ??
			`claude ended with ${record.subtype}${record.api_error_status ? ` (HTTP ${record.api_error_status})` : ""}`;
		events.push({ type: "error", message }, { type: "done", status: "failed", error: message });
		return events;
	}
}

/** This invocation's usage from `result`: tokens, claude's own USD cost, and its turn count. */
function usageOf(record: Extract<ClaudeRecord, { type: "result" }>, contextTokens: number | undefined) {
	const usage: ClaudeUsage = record.usage ?? {};
	return {
		inputTokens: usage.input_tokens ?? 0,
		outputTokens: usage.output_tokens ?? 0,
		cacheReadTokens: usage.cache_read_input_tokens ?? 0,
		cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
		costUsd: typeof record.total_cost_usd === "number" ? record.total_cost_usd : undefined,
		contextTokens,
		turns: record.num_turns ?? 0,
	};
}

function textOf(content: ReadonlyArray<{ type: string; text?: string }> | undefined): string {
	return (content ?? [])
		.filter((block) => block.type === "text")
		.map((block) => block.text ?? "")
		.join("");
}
