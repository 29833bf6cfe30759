/**
 * The claude command builder (flags from `claude --help` of Claude Code 2.1.332, facts in
 * docs/harness-support.md §How each CLI is driven): LaunchSpec → `claude -p --output-format stream-json …`, each
 * argument's flag named next to it, and what claude cannot honour.
 */
import { randomUUID } from "node:crypto";
import type { HarnessCommand } from "../../core/harness-adapter.ts";
import type { LaunchSpec, Resources } from "../../core/launch-spec.ts";
import type { Problems } from "../../core/problems.ts";
import type { NativeCommand } from "../native-command.ts";
import { addAgentRefusals, addResourceRefusals } from "../resource-refusals.ts";
import { appendSkillReferences } from "../skill-references.ts";
import { writeRunFile, writeSystemPromptFile } from "../system-prompt-file.ts";
import { ruleToolName } from "../tool-names.ts";
import { createClaudeInputCodec } from "./stream-input.ts";

export interface ClaudeAdapterOptions {
	/**
	 * How to start claude (see `resolveNativeCommand`); called per launch, so a bad override refuses
	 * launches instead of failing the extension's load.
	 * @throws ConfigError when the command override cannot be used.
	 */
	command: () => NativeCommand;
	/**
	 * Why claude would refuse `--dangerously-skip-permissions` on this machine, if it would (see
	 * {@link claudeBypassRefusal}); `auto_approve` is then rejected before launch.
	 */
	bypassRefusal?: string;
	/** Claude's config dir (see `claudeConfigDir`), read for a session's transcript; default from `process.env`. */
	configDir?: string;
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

/**
 * `claude -p` arguments for `spec`, field by field. Values go in `--flag=value` form: a value starting with
 * `-` is never read as a flag, and variadic flags (`--allowedTools <tools...>`) take exactly one value each.
 * A new session gets a fresh UUID through `--session-id`.
 * @param runDir private directory for the system-prompt file.
 * The spec has passed `validate` (see {@link claudeRefusals}).
 */
export function buildClaudeCommand(spec: LaunchSpec, runDir: string, options: ClaudeAdapterOptions): HarnessCommand {
	const command = options.command();
	// -p with stream-json input: user messages as JSON lines on stdin, replayed once claude takes them
	// (the delivery receipt); stream-json output requires --verbose.
	const args = [
		...command.args,
		"-p",
		"--input-format=stream-json",
		"--output-format=stream-json",
		"--verbose",
		"--replay-user-messages",
	];
	const env: Record<string, string | undefined> = {};
	// --session-id / --resume: the id is chosen here, so it is known even if the child dies early.
	args.push(
		spec.session.kind === "resume" ? `--resume=${spec.session.nativeSessionId}` : `--session-id=${randomUUID()}`,
	);
	if (spec.model) args.push(`--model=${spec.model}`);
	// --effort: sent as `output_config.effort` on models with adaptive thinking; others ignore it.
	if (spec.effort) args.push(`--effort=${spec.effort}`);
	// --append-system-prompt-file (named in `--bare`'s help): the agent body; --system-prompt-file replaces
	// claude's prompt with it (pi-subagents `systemPromptMode: replace`).
	if (spec.systemPromptAddition) {
		const flag = spec.replaceSystemPrompt ? "--system-prompt-file" : "--append-system-prompt-file";
		args.push(`${flag}=${writeSystemPromptFile(runDir, spec.systemPromptAddition)}`);
	}
	// --agents <file> defines a Claude Code agent file's agent (with --print it may be a file path), --agent
	// selects it for the session: claude's own custom-agent mechanism (docs/agent-libraries.md).
	if (spec.claudeAgent) {
		const file = writeRunFile(
			runDir,
			"agents.json",
			JSON.stringify({ [spec.claudeAgent.name]: spec.claudeAgent.definition }),
		);
		args.push(`--agents=${file}`, `--agent=${spec.claudeAgent.name}`);
		// --permission-mode, --max-turns: claude 2.1.332 does not apply the definition's `permissionMode` and
		// `maxTurns` to the session's agent; the flags do (auto_approve's --dangerously-skip-permissions wins).
		const { permissionMode, maxTurns } = spec.claudeAgent.definition;
		if (typeof permissionMode === "string" && !spec.autoApprove) args.push(`--permission-mode=${permissionMode}`);
		if (typeof maxTurns === "number") args.push(`--max-turns=${maxTurns}`);
	}
	// --tools: the tools claude offers at all (`""` none); --allowedTools: the permission rules (such as
	// `Bash(git *)`) that let listed calls run without asking. Both from allowed_tools, one value per flag.
	if (spec.allowedTools) args.push(`--tools=${[...new Set(spec.allowedTools.map(ruleToolName))].join(",")}`);
	for (const tool of spec.allowedTools ?? []) args.push(`--allowedTools=${tool}`);
	// --disallowedTools: `Bash` removes the tool, `Bash(echo *)` denies matching calls.
	for (const tool of spec.disallowedTools ?? []) args.push(`--disallowedTools=${tool}`);
	// auto_approve → --dangerously-skip-permissions; otherwise claude's default permission mode, in which
	// -p denies whatever would prompt (reported in result.permission_denials).
	if (spec.autoApprove) args.push("--dangerously-skip-permissions");
	// --json-schema: claude offers the model a StructuredOutput tool of this schema (even beside --tools) and
	// validates its input itself; the `result` record's `structured_output` is the result.
	if (spec.outputSchema) args.push(`--json-schema=${JSON.stringify(spec.outputSchema)}`);
	// An untrusted cwd loads no project or local settings (hooks, MCP servers from .mcp.json, agents,
	// CLAUDE.md): --setting-sources without project and local.
	const sources = settingSources(spec.resources, spec.projectTrusted);
	if (sources !== undefined) args.push(`--setting-sources=${sources}`);
	if (spec.resources) args.push(...claudeResourceArgs(spec.resources, env));
	// The task is the first stream-json user message: no argv limit, no flag parsing, byte-exact.
	return {
		file: command.file,
		args,
		env,
		conversation: createClaudeInputCodec(appendSkillReferences(spec.task, spec.skillReferences)),
	};
}

/**
 * The flags of a resource selection; sets `CLAUDE_CODE_DISABLE_CLAUDE_MDS` in `env` when instruction files
 * are left out (no flag drops CLAUDE.md files; the binary reads this variable and drops user and project ones).
 */
function claudeResourceArgs(resources: Resources, env: Record<string, string | undefined>): string[] {
	// --plugin-dir: one per plugin directory.
	const args = resources.plugins.map((plugin) => `--plugin-dir=${plugin}`);
	// --strict-mcp-config without --mcp-config: no MCP servers at all.
	if (resources.mcp_servers !== null) args.push("--strict-mcp-config");
	if (!resources.include_instruction_files) env.CLAUDE_CODE_DISABLE_CLAUDE_MDS = "1";
	return args;
}

/**
 * `--setting-sources` for the inheritance flags and the cwd's trust: personal = `user` (`$CLAUDE_CONFIG_DIR`
 * settings, CLAUDE.md, skills, agents), project = `project` and `local` (`.claude/`, `.mcp.json`, CLAUDE.md
 * of the project), only in an explicitly trusted cwd. `undefined` (no flag) when everything is inherited;
 * `""` loads neither.
 */
export function settingSources(resources: Resources | undefined, trusted: boolean): string | undefined {
	const personal = resources?.inherit_personal_resources ?? true;
	const project = (resources?.inherit_project_resources ?? true) && trusted;
	if (personal && project) return undefined;
	const sources: string[] = [];
	if (personal) sources.push("user");
	if (project) sources.push("project", "local");
	return sources.join(",");
}

/** `--effort` levels from `claude --help`; claude itself silently accepts any other value. */
const CLAUDE_EFFORT_LEVELS = ["low", "medium", "high", "xhigh", "max"] as const;

/** Adds every option of `spec` claude cannot honour to `problems`, each naming the option. Pure. */
export function claudeRefusals(
	spec: LaunchSpec,
	options: Pick<ClaudeAdapterOptions, "bypassRefusal">,
	problems: Problems,
): void {
	if (spec.effort !== undefined && !(CLAUDE_EFFORT_LEVELS as readonly string[]).includes(spec.effort)) {
		problems.add(
			`effort ${JSON.stringify(spec.effort)} is not a claude effort level (${CLAUDE_EFFORT_LEVELS.join(", ")})`,
		);
	}
	if (spec.autoApprove && options.bypassRefusal) problems.add(`auto_approve: ${options.bypassRefusal}`);
	addAgentRefusals("claude_code", spec, problems);
	if (spec.outputSchema && spec.disallowedTools?.some((rule) => ruleToolName(rule) === "StructuredOutput")) {
		problems.add(
			"disallowed_tools: StructuredOutput is how a claude child with output_schema submits its result; it cannot be excluded",
		);
	}
	addResourceRefusals("claude_code", spec.resources, problems);
}
