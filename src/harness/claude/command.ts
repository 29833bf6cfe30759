/**
 * The claude command builder (flags from `claude --help` of Claude Code 2.1.332, facts in
 * docs/harness-support.md §How each CLI is driven): LaunchSpec → `claude -p --output-format stream-json …`, each
 * argument's flag named next to it, and what claude cannot honour.
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HarnessCommand } from "../../core/harness-adapter.ts";
import { LaunchError } from "../../core/launch-error.ts";
import type { LaunchSpec, Resources } from "../../core/launch-spec.ts";
import type { NativeCommand } from "../native-command.ts";
import { appendSkillReferences, UNSUPPORTED_SKILLS_PROBLEM } from "../skill-references.ts";
import { ruleToolName } from "../tool-names.ts";
import { createClaudeInputCodec } from "./stream-input.ts";

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
 * @throws LaunchError when the spec asks for something claude cannot honour (see {@link claudeProblems}).
 */
export function buildClaudeCommand(spec: LaunchSpec, runDir: string, options: ClaudeAdapterOptions): HarnessCommand {
	assertClaudeCanRun(spec, options);
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
	if (spec.systemPromptAddition) {
		// --append-system-prompt-file (named in `--bare`'s help): a file, not argv, since a body may be large.
		const file = join(runDir, "append-system-prompt.md");
		writeFileSync(file, spec.systemPromptAddition, { mode: 0o600 });
		args.push(`--append-system-prompt-file=${file}`);
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
	// An untrusted cwd loads no project or local settings (hooks, MCP servers from .mcp.json, agents,
	// CLAUDE.md): --setting-sources without project and local.
	const sources = settingSources(spec.resources, spec.projectTrusted);
	if (sources !== undefined) args.push(`--setting-sources=${sources}`);
	if (spec.resources) {
		const resources = spec.resources;
		for (const plugin of resources.plugins) args.push(`--plugin-dir=${plugin}`);
		// --strict-mcp-config without --mcp-config: no MCP servers at all.
		if (resources.mcp_servers !== null) args.push("--strict-mcp-config");
		// No flag drops CLAUDE.md files; this variable (read by the binary) drops user and project ones.
		if (!resources.include_instruction_files) env.CLAUDE_CODE_DISABLE_CLAUDE_MDS = "1";
	}
	// The task is the first stream-json user message: no argv limit, no flag parsing, byte-exact.
	return {
		file: command.file,
		args,
		env,
		conversation: createClaudeInputCodec(appendSkillReferences(spec.task, spec.skillReferences)),
	};
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
