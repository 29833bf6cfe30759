/**
 * The codex command builder (flags from `codex exec --help` of codex-cli 0.171.0, facts in
 * docs/harness-support.md §How each CLI is driven): LaunchSpec → `codex exec --json …` (headless) and
 * `codex … -- <task>` (its TUI), both from one set of launch arguments, each argument's flag named next to
 * it; and what codex cannot honour.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { HarnessCommand, TuiCommand } from "../../core/harness-adapter.ts";
import type { LaunchSpec } from "../../core/launch-spec.ts";
import { codexHomeDir } from "../../core/native-homes.ts";
import type { Problems } from "../../core/problems.ts";
import { tryBuild } from "../adapter.ts";
import type { NativeCommand } from "../native-command.ts";
import { writeOutputSchemaFile } from "../output-schema-file.ts";
import { addAgentRefusals, addResourceRefusals } from "../resource-refusals.ts";
import { appendSkillReferences } from "../skill-references.ts";
import { addTuiPromptProblems } from "../tui-prompt.ts";
import { findThreadRollout } from "./rollout.ts";
import { codexRecordReader, rolloutOpenedBy } from "./tui-records.ts";

/**
 * Longest single argv string Linux accepts (MAX_ARG_STRLEN, 32 pages of 4 KiB), bytes. The agent body
 * travels in one `-c developer_instructions=…` argument, since codex has no file form for it.
 */
const MAX_ARGUMENT_BYTES = 128 * 1024;

/**
 * The launch arguments of `spec` that codex's headless (`codex exec`) and TUI commands share, field by
 * field. Values go in `--flag=value` form so a value starting with `-` is never read as a flag.
 * The spec has passed `validate` (see {@link codexRefusals}).
 */
function codexLaunchArgs(spec: LaunchSpec): string[] {
	// --cd: explicit, because a resumed thread otherwise takes the spawn cwd.
	const shared = [`--cd=${spec.cwd}`];
	if (spec.model) shared.push(`--model=${spec.model}`);
	// -c model_reasoning_effort: sent verbatim as `reasoning.effort`; codex does not validate it.
	if (spec.effort) shared.push("-c", `model_reasoning_effort=${tomlString(spec.effort)}`);
	// -c developer_instructions: a separate developer message after codex's base prompt (no append flag exists).
	if (spec.systemPromptAddition) {
		shared.push("-c", `developer_instructions=${tomlString(spec.systemPromptAddition)}`);
	}
	// An untrusted cwd: project_doc_max_bytes=0 drops the project's AGENTS.md files (not $CODEX_HOME's);
	// project config and skills are refused before launch (see codexUntrustedProblems).
	if (!spec.projectTrusted) shared.push("-c", "project_doc_max_bytes=0");
	// A codex custom agent's settings (docs/agent-libraries.md §codex format).
	const agent = spec.codexAgent;
	// -c mcp_servers.<name>={…}: one server table per server, merged over the configured ones.
	for (const [name, server] of Object.entries(agent?.mcpServers ?? {})) {
		shared.push("-c", `mcp_servers.${tomlKey(name)}=${tomlInline(server)}`);
	}
	// -c skills={…}: the agent's skills table.
	if (agent?.skills !== undefined) shared.push("-c", `skills=${tomlInline(agent.skills)}`);
	// auto_approve → --dangerously-bypass-approvals-and-sandbox; otherwise the agent's sandbox_mode, or the
	// workspace-write sandbox (exec's default is read-only; its approval policy is always "never").
	const sandbox = agent?.sandboxMode ?? "workspace-write";
	shared.push(...(spec.autoApprove ? ["--dangerously-bypass-approvals-and-sandbox"] : [`--sandbox=${sandbox}`]));
	return shared;
}

/** The first prompt codex gets: the task with the selected skill references. */
function codexPrompt(spec: LaunchSpec): string {
	return appendSkillReferences(spec.task, spec.skillReferences);
}

/**
 * `codex exec --json` for `spec`: the headless-only arguments around the shared launch arguments (see
 * {@link codexLaunchArgs}). The task goes through stdin (prompt `-`), which is then closed: no argv limit,
 * no flag parsing, and codex never blocks on an open pipe.
 * @param runDir private directory for the output schema file.
 */
export function buildCodexCommand(spec: LaunchSpec, runDir: string, command: NativeCommand): HarnessCommand {
	// Headless only: exec with JSON events; --skip-git-repo-check: a child's cwd need not be a git repository.
	const args = [...command.args, "exec", "--json", "--skip-git-repo-check", ...codexLaunchArgs(spec)];
	// Headless only (output_schema is refused with interactive): --output-schema, sent as the request's
	// `text.format` (json_schema, strict); the final message is the JSON.
	if (spec.outputSchema) args.push(`--output-schema=${writeOutputSchemaFile(runDir, spec.outputSchema)}`);
	// Options before `resume` apply to the resumed run; `-` reads the prompt from stdin.
	// `--` ends codex's options: the id is never read as one (e.g. `--last`).
	if (spec.session.kind === "resume") args.push("resume", "--", spec.session.nativeSessionId);
	args.push("-");
	return { file: command.file, args, env: {}, stdin: codexPrompt(spec) };
}

/**
 * codex's TUI for `spec`: the TUI-only arguments around the shared launch arguments (see
 * {@link codexLaunchArgs}), the task as the first prompt. Its records are the thread's rollout (see
 * `codexRecordReader`): the resumed thread's, or the one the codex process opens.
 */
export function buildCodexTuiCommand(spec: LaunchSpec, command: NativeCommand): TuiCommand {
	const resume = spec.session.kind === "resume" ? spec.session.nativeSessionId : undefined;
	// TUI only: `resume` is a subcommand before the options. --no-daemon: no background app-server that
	// outlives the pane (and no 424 MB copy into CODEX_HOME); --no-alt-screen: the conversation stays in
	// the pane's scrollback for whoever attaches.
	const args = [...command.args, ...(resume !== undefined ? ["resume"] : []), "--no-daemon", "--no-alt-screen"];
	args.push(...codexLaunchArgs(spec));
	// The folder-trust dialog would block the start: the parent's own trust decision answers it.
	if (spec.projectTrusted) args.push("-c", `projects={${tomlString(spec.cwd)}={trust_level="trusted"}}`);
	// `--` ends codex's options: neither the id nor the task is read as one.
	args.push("--", ...(resume !== undefined ? [resume] : []), codexPrompt(spec));
	return {
		file: command.file,
		args,
		env: {},
		nativeSessionId: resume,
		openRecords: (run) => {
			const codexHome = codexHomeDir(run.env);
			const locate = () =>
				resume !== undefined ? findThreadRollout(codexHome, resume) : rolloutOpenedBy(run.panePid());
			return codexRecordReader(codexHome, locate, resume);
		},
	};
}

/**
 * Adds what codex's TUI cannot take for `spec` (its first prompt), then builds the TUI command when nothing
 * else refused the spec (`checkedClean`).
 */
export function codexTuiRefusals(
	spec: LaunchSpec,
	command: () => NativeCommand,
	problems: Problems,
	checkedClean: boolean,
): void {
	addTuiPromptProblems(codexPrompt(spec), problems);
	if (checkedClean) tryBuild(() => buildCodexTuiCommand(spec, command()), problems);
}

/** Adds every option of `spec` codex cannot honour to `problems`, each naming the option. Pure. */
export function codexRefusals(spec: LaunchSpec, problems: Problems): void {
	if (spec.allowedTools !== undefined) {
		problems.add("allowed_tools cannot be enforced: codex exec has no tool allow list (use the sandbox instead)");
	}
	if (spec.disallowedTools !== undefined && spec.disallowedTools.length > 0) {
		problems.add("disallowed_tools cannot be enforced: codex exec has no tool deny list");
	}
	if (spec.systemPromptAddition) {
		const bytes = Buffer.byteLength(`developer_instructions=${tomlString(spec.systemPromptAddition)}`);
		if (bytes >= MAX_ARGUMENT_BYTES) {
			problems.add(
				`the agent body is ${bytes} bytes once encoded; codex takes it as one argument (-c developer_instructions), limited to ${MAX_ARGUMENT_BYTES} bytes`,
			);
		}
	}
	addResourceRefusals("codex", spec.resources, problems);
	addAgentRefusals("codex", spec, problems);
	if (!spec.projectTrusted) codexUntrustedProblems(spec.cwd, problems);
}

/** What codex reads from a project's `.codex/` layer once it trusts the project (codex-cli 0.171.0). */
const CODEX_PROJECT_LAYER = ["config.toml", "skills", "rules", "hooks.json", "hooks", "agents"] as const;

/**
 * Adds what codex would load from an untrusted project that no switch excludes: `.agents/skills` (loaded
 * whatever the trust) and the project's `.codex/` layer (loaded when codex's own trust list in
 * `$CODEX_HOME/config.toml` trusts the project: `config.toml`, `skills/`, execpolicy `rules/` that allow or
 * forbid commands, hooks, agent roles), from the cwd up to the project root (the nearest
 * directory holding `.git`; only the cwd without one). The user's own `~/.agents/skills` and `~/.codex`
 * are not project content.
 */
export function codexUntrustedProblems(cwd: string, problems: Problems, home = homedir()): void {
	const dirs: string[] = [];
	for (let dir = resolve(cwd); ; dir = dirname(dir)) {
		dirs.push(dir);
		if (existsSync(join(dir, ".git")) || dirname(dir) === dir) break;
	}
	const inProject = existsSync(join(dirs[dirs.length - 1], ".git")) ? dirs : dirs.slice(0, 1);
	const found = inProject
		.filter((dir) => dir !== resolve(home))
		.flatMap((dir) => [
			join(dir, ".agents", "skills"),
			...CODEX_PROJECT_LAYER.map((entry) => join(dir, ".codex", entry)),
		])
		.filter((entry) => existsSync(entry));
	if (found.length === 0) return;
	problems.add(
		`${cwd} is not explicitly trusted, and codex would load project content from it that no codex switch excludes: ${found.join(", ")}. Trust the directory in Pi (its trust prompt, or --approve there) to run codex in it.`,
	);
}

/**
 * A TOML basic string for a `-c key=value` override (codex parses the value as TOML). JSON's escapes are
 * valid TOML; DEL is the one control character JSON leaves raw and TOML forbids.
 */
export function tomlString(value: string): string {
	return JSON.stringify(value).replace(/\u007f/g, "\\u007f");
}

/** A TOML key: bare when it is only letters, digits, `_` and `-`, else a quoted string. */
function tomlKey(key: string): string {
	return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

/**
 * A value as inline TOML for a `-c key=value` override: strings, numbers, booleans, arrays and tables
 * (`{ a = 1, b = "x" }`), as parsed from the agent's TOML file.
 */
export function tomlInline(value: unknown): string {
	if (typeof value === "string") return tomlString(value);
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	if (Array.isArray(value)) return `[${value.map(tomlInline).join(", ")}]`;
	if (value instanceof Date) return value.toISOString();
	if (value !== null && typeof value === "object") {
		const pairs = Object.entries(value).map(([key, item]) => `${tomlKey(key)} = ${tomlInline(item)}`);
		return `{ ${pairs.join(", ")} }`;
	}
	return tomlString(String(value));
}
