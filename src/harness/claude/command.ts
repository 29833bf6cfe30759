/**
 * The claude command builders (flags from `claude --help` of Claude Code 2.1.332, facts in
 * docs/harness-support.md §How each CLI is driven): LaunchSpec → `claude -p --output-format stream-json …`
 * (headless) and `claude … -- <task>` (its TUI), both from one set of launch arguments, each argument's
 * flag named next to it; and what claude cannot honour.
 */
import { randomUUID } from "node:crypto";
import type { HarnessCommand, TuiCommand } from "../../core/harness-adapter.ts";
import type { LaunchSpec, Resources } from "../../core/launch-spec.ts";
import type { Problems } from "../../core/problems.ts";
import { tryBuild } from "../adapter.ts";
import type { NativeCommand } from "../native-command.ts";
import { addAgentRefusals, addResourceRefusals } from "../resource-refusals.ts";
import { appendSkillReferences } from "../skill-references.ts";
import { dryRunFiles, type RunFiles, runFilesIn, systemPromptFile } from "../system-prompt-file.ts";
import { ruleToolName } from "../tool-names.ts";
import { addTuiPromptProblems } from "../tui-prompt.ts";
import { answerClaudeFirstRun } from "./first-run.ts";
import { createClaudeInputCodec } from "./stream-input.ts";
import { claudeConfigDir } from "./transcript.ts";
import { claudeRecordReader } from "./tui-records.ts";

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

/** What claude's headless and TUI commands share: the executable, its leading arguments, the launch arguments. */
interface ClaudeLaunch {
	file: string;
	/** The command override's own leading arguments. */
	lead: string[];
	/** The launch arguments both commands carry, in one order. */
	shared: string[];
	env: Record<string, string | undefined>;
	/** Chosen here (`--session-id`) or resumed (`--resume`): known even if the child dies early. */
	nativeSessionId: string;
}

/**
 * The launch arguments of `spec` that claude's headless and TUI commands share, field by field. Values go
 * in `--flag=value` form: a value starting with `-` is never read as a flag, and variadic flags
 * (`--allowedTools <tools...>`) take exactly one value each. A new session gets a fresh UUID through
 * `--session-id`. The spec has passed `validate` (see {@link claudeRefusals}).
 */
function claudeLaunch(spec: LaunchSpec, options: ClaudeAdapterOptions, files: RunFiles): ClaudeLaunch {
	const command = options.command();
	const env: Record<string, string | undefined> = {};
	const nativeSessionId = spec.session.kind === "resume" ? spec.session.nativeSessionId : randomUUID();
	// --session-id / --resume: the id is chosen here, so it is known even if the child dies early.
	const shared = [spec.session.kind === "resume" ? `--resume=${nativeSessionId}` : `--session-id=${nativeSessionId}`];
	if (spec.model) shared.push(`--model=${spec.model}`);
	// --effort: sent as `output_config.effort` on models with adaptive thinking; others ignore it.
	if (spec.effort) shared.push(`--effort=${spec.effort}`);
	// --append-system-prompt-file (named in `--bare`'s help): the agent body; --system-prompt-file replaces
	// claude's prompt with it (pi-subagents `systemPromptMode: replace`).
	if (spec.systemPromptAddition) {
		const flag = spec.replaceSystemPrompt ? "--system-prompt-file" : "--append-system-prompt-file";
		shared.push(`${flag}=${systemPromptFile(files, spec.systemPromptAddition)}`);
	}
	// --agents <file> defines a Claude Code agent file's agent (with --print it may be a file path), --agent
	// selects it for the session: claude's own custom-agent mechanism (docs/agent-libraries.md).
	if (spec.claudeAgent) {
		const definition = JSON.stringify({ [spec.claudeAgent.name]: spec.claudeAgent.definition });
		shared.push(`--agents=${files("agents.json", definition)}`, `--agent=${spec.claudeAgent.name}`);
		// --max-turns: claude 2.1.332 does not apply the definition's `maxTurns` to the session's agent; the flag does.
		const { maxTurns } = spec.claudeAgent.definition;
		if (typeof maxTurns === "number") shared.push(`--max-turns=${maxTurns}`);
	}
	// --permission-mode: claude 2.1.332 does not apply an agent definition's `permissionMode` to the session's
	// agent, so the flag carries it; otherwise "default", `-p`'s own default and not the TUI's ("auto").
	// auto_approve's --dangerously-skip-permissions wins.
	const agentMode = spec.claudeAgent?.definition.permissionMode;
	const mode = typeof agentMode === "string" ? agentMode : "default";
	if (!spec.autoApprove) shared.push(`--permission-mode=${mode}`);
	// --settings: claude 2.1.332's plan mode takes auto mode's semantics when auto mode is available (its setting
	// useAutoModeDuringPlan, default true), whose classifier runs tools unasked; plan here keeps asking.
	if (!spec.autoApprove && mode === "plan")
		shared.push(`--settings=${JSON.stringify({ useAutoModeDuringPlan: false })}`);
	// --tools: the tools claude offers at all (`""` none); --allowedTools: the permission rules (such as
	// `Bash(git *)`) that let listed calls run without asking, from the call's own allowed_tools only (an agent
	// file's tools are offered, not approved). One value per flag.
	if (spec.allowedTools) shared.push(`--tools=${[...new Set(spec.allowedTools.map(ruleToolName))].join(",")}`);
	for (const tool of spec.approvedTools ?? []) shared.push(`--allowedTools=${tool}`);
	// --disallowedTools: `Bash` removes the tool, `Bash(echo *)` denies matching calls.
	for (const tool of spec.disallowedTools ?? []) shared.push(`--disallowedTools=${tool}`);
	// auto_approve → --dangerously-skip-permissions; otherwise claude's default permission mode, in which
	// -p denies whatever would prompt (reported in result.permission_denials).
	if (spec.autoApprove) shared.push("--dangerously-skip-permissions");
	// An untrusted cwd loads no project or local settings (hooks, MCP servers from .mcp.json, agents,
	// CLAUDE.md): --setting-sources without project and local.
	const sources = settingSources(spec.resources, spec.projectTrusted);
	if (sources !== undefined) shared.push(`--setting-sources=${sources}`);
	if (spec.resources) shared.push(...claudeResourceArgs(spec.resources, env));
	return { file: command.file, lead: command.args, shared, env, nativeSessionId };
}

/** The first prompt claude gets: the task with the selected skill references. */
function claudePrompt(spec: LaunchSpec): string {
	return appendSkillReferences(spec.task, spec.skillReferences);
}

/**
 * `claude -p` for `spec`: the headless-only arguments, then the shared launch arguments (see
 * {@link claudeLaunch}). The task is the first stream-json user message: no argv limit, no flag parsing,
 * byte-exact.
 * @param runDir private directory for the system-prompt file.
 */
export function buildClaudeCommand(spec: LaunchSpec, runDir: string, options: ClaudeAdapterOptions): HarnessCommand {
	const launch = claudeLaunch(spec, options, runFilesIn(runDir));
	// Headless only: -p with stream-json input, user messages as JSON lines on stdin, replayed once claude
	// takes them (the delivery receipt); stream-json output requires --verbose.
	const headlessOnly = [
		"-p",
		"--input-format=stream-json",
		"--output-format=stream-json",
		"--verbose",
		"--replay-user-messages",
	];
	// Headless only (output_schema is refused with interactive): --json-schema, claude offers the model a
	// StructuredOutput tool of this schema (even beside --tools) and validates its input itself; the `result`
	// record's `structured_output` is the result.
	const structured = spec.outputSchema ? [`--json-schema=${JSON.stringify(spec.outputSchema)}`] : [];
	return {
		file: launch.file,
		args: [...launch.lead, ...headlessOnly, ...launch.shared, ...structured],
		env: launch.env,
		conversation: createClaudeInputCodec(claudePrompt(spec)),
	};
}

/**
 * claude's TUI for `spec`: the shared launch arguments (see {@link claudeLaunch}), the TUI-only ones and
 * the task as the first prompt. Its records are the session's transcript (see `claudeRecordReader`).
 * @param runDir private directory for the system-prompt file.
 */
export function buildClaudeTuiCommand(spec: LaunchSpec, runDir: string, options: ClaudeAdapterOptions): TuiCommand {
	return claudeTui(spec, options, runFilesIn(runDir));
}

function claudeTui(spec: LaunchSpec, options: ClaudeAdapterOptions, files: RunFiles): TuiCommand {
	const launch = claudeLaunch(spec, options, files);
	// TUI only: the task as the first prompt.
	const tuiOnly = ["--", claudePrompt(spec)];
	const resumed = spec.session.kind === "resume";
	return {
		file: launch.file,
		args: [...launch.lead, ...launch.shared, ...tuiOnly],
		env: launch.env,
		nativeSessionId: launch.nativeSessionId,
		// claude's first-run dialogs the parent has answered already (docs/interactive.md "First-run dialogs").
		beforeStart: (env) => answerClaudeFirstRun(env, spec.cwd, spec.projectTrusted),
		openRecords: (run) => claudeRecordReader(claudeConfigDir(run.env), launch.nativeSessionId, resumed),
	};
}

/**
 * Adds what claude's TUI cannot take for `spec` (its first prompt), then builds the TUI command without
 * writing a file when nothing else refused the spec (`checkedClean`).
 */
export function claudeTuiRefusals(
	spec: LaunchSpec,
	options: ClaudeAdapterOptions,
	problems: Problems,
	checkedClean: boolean,
): void {
	addTuiPromptProblems(claudePrompt(spec), problems);
	if (checkedClean) tryBuild(() => claudeTui(spec, options, dryRunFiles), problems);
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
