/**
 * The pi command builders (flags from `pi --help` of Pi 1.6, see docs/harness-support.md §How each CLI is driven):
 * LaunchSpec → `pi --mode rpc …` (headless) and `pi … -- <task>` (its TUI), both from one set of launch
 * arguments, each argument's flag named next to it; and what pi cannot honour.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HarnessCommand, TuiCommand } from "../../core/harness-adapter.ts";
import { LaunchError } from "../../core/launch-error.ts";
import type { LaunchSpec, Resources } from "../../core/launch-spec.ts";
import type { Problems } from "../../core/problems.ts";
import { tryBuild } from "../adapter.ts";
import { writeOutputSchemaFile } from "../output-schema-file.ts";
import { addAgentRefusals, addResourceRefusals } from "../resource-refusals.ts";
import { addMissingSession, missingSession } from "../session-cwd.ts";
import { dryRunFiles, type RunFiles, runFilesIn, systemPromptFile } from "../system-prompt-file.ts";
import { addPiToolNameProblems, SUBMIT_RESULT_TOOL } from "../tool-names.ts";
import { addTuiPromptProblems } from "../tui-prompt.ts";
import type { PiInvocation } from "./invocation.ts";
import { createPiInputCodec } from "./rpc.ts";
import { findPiSessionFile } from "./session-file.ts";
import { piRecordReader } from "./tui-records.ts";

/** The variable that names the schema file for that extension (read and removed by it). */
export const OUTPUT_SCHEMA_ENV = "PI_NATIVE_SUBAGENTS_OUTPUT_SCHEMA";
/** The extension file, loaded with `-e`. */
const SUBMIT_RESULT_EXTENSION = fileURLToPath(new URL("./submit-result-extension.ts", import.meta.url));

/** Pi's thinking levels (`pi --help`, `--thinking`); an effort outside them is refused for pi children. */
const PI_THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

export interface PiAdapterOptions {
	/**
	 * How to start Pi (see `resolvePiInvocation`); called per launch, so a bad override refuses launches
	 * instead of failing the extension's load.
	 * @throws ConfigError when the invocation override cannot be used.
	 */
	invocation: () => PiInvocation;
	/** Private directory for child sessions (`--session-dir`), so children stay out of the user's `/resume` list. */
	sessionDir: string;
	/** The agent dir children share (`PI_CODING_AGENT_DIR`); used to check for a home `SYSTEM.md`. */
	agentDir: string;
}

/** What pi's headless and TUI commands share: the executable, its leading arguments, the launch arguments. */
interface PiLaunch {
	file: string;
	/** The invocation's own leading arguments (e.g. pi's CLI script). */
	lead: string[];
	/** The launch arguments both commands carry, in one order. */
	shared: string[];
}

/**
 * The launch arguments of `spec` that pi's headless and TUI commands share, field by field, each flag
 * beside the argument it carries. The spec has passed `validate` (see {@link piRefusals}).
 * @throws LaunchError when a resumed session's file has gone since.
 */
function piLaunch(spec: LaunchSpec, options: PiAdapterOptions, files: RunFiles): PiLaunch {
	const invocation = options.invocation();
	// --offline (= PI_OFFLINE=1, Pi docs/cli.md): a child never installs or updates a package its settings list
	// (Pi's package manager skips missing sources offline: Pi docs/packages.md) and fetches no model catalog.
	// Sessions are persisted (resumable by id) but in our own directory.
	const shared = ["--offline", "--session-dir", options.sessionDir];
	// --session <file>: the exact file, not the id: pi matches ids by prefix and, for a session of another
	// cwd, asks whether to fork it.
	if (spec.session.kind === "resume")
		shared.push("--session", sessionFile(options.sessionDir, spec.session.nativeSessionId));
	if (spec.model) shared.push("--model", spec.model);
	if (spec.effort) shared.push("--thinking", spec.effort);
	// --tools: the allowlist, plus submit_result when the child must submit a structured result.
	const allowed = spec.allowedTools && [
		...new Set([...spec.allowedTools, ...(spec.outputSchema ? [SUBMIT_RESULT_TOOL] : [])]),
	];
	if (allowed) shared.push(...(allowed.length > 0 ? ["--tools", allowed.join(",")] : ["--no-tools"]));
	if (spec.disallowedTools && spec.disallowedTools.length > 0) {
		shared.push("--exclude-tools", spec.disallowedTools.join(","));
	}
	// --append-system-prompt <file>: the agent body after pi's prompt; --system-prompt <file> replaces pi's
	// prompt with it (pi-subagents `systemPromptMode: replace`; pi reads a file's contents for both).
	if (spec.systemPromptAddition) {
		const flag = spec.replaceSystemPrompt ? "--system-prompt" : "--append-system-prompt";
		shared.push(flag, systemPromptFile(files, spec.systemPromptAddition));
	}
	// --no-skills: no skill discovery (pi-subagents `inheritSkills: false`); explicit --skill paths still load.
	if (spec.noSkills) shared.push("--no-skills");
	// --fork <file>: a new session that starts from a copy of the parent's (pi-subagents `defaultContext: fork`).
	if (spec.forkSessionFile && spec.session.kind === "new") shared.push("--fork", spec.forkSessionFile);
	if (spec.resources) shared.push(...piResourceFlags(spec.resources));
	// Project trust is always explicit, and decided for the child's own cwd (Pi `-a` / `-na`).
	shared.push(spec.projectTrusted ? "--approve" : "--no-approve");
	return { file: invocation.file, lead: invocation.args, shared };
}

/**
 * `pi --mode rpc` for `spec`: the shared launch arguments (see {@link piLaunch}) after the headless-only
 * ones. The task is a JSON `prompt` command on stdin: no argv size limit, no option or `@file` parsing, and
 * byte-exact (piped stdin in json mode would be trimmed, main.js readPipedStdin).
 * @param runDir private directory for the system-prompt file.
 * @throws LaunchError when a resumed session's file has gone since validation.
 */
export function buildPiCommand(spec: LaunchSpec, runDir: string, options: PiAdapterOptions): HarnessCommand {
	const launch = piLaunch(spec, options, runFilesIn(runDir));
	// Headless only: RPC mode, the same events as json mode plus commands on stdin (steer, follow_up, abort).
	const args = [...launch.lead, "--mode", "rpc", ...launch.shared];
	const env: Record<string, string | undefined> = {};
	// Headless only (output_schema is refused with interactive): -e the submit_result extension (explicit -e
	// loads even with --no-extensions), its schema in a run file.
	if (spec.outputSchema) {
		args.push("-e", SUBMIT_RESULT_EXTENSION);
		env[OUTPUT_SCHEMA_ENV] = writeOutputSchemaFile(runDir, spec.outputSchema);
	}
	return { file: launch.file, args, env, conversation: createPiInputCodec(spec.task) };
}

/**
 * pi's TUI for `spec`: the shared launch arguments (see {@link piLaunch}), then the TUI-only ones and the
 * task as the first prompt. Its records are the session file (see `piRecordReader`).
 * @param runDir private directory for the system-prompt file.
 * @throws LaunchError when a resumed session's file has gone since validation.
 */
export function buildPiTuiCommand(spec: LaunchSpec, runDir: string, options: PiAdapterOptions): TuiCommand {
	return piTui(spec, options, runFilesIn(runDir));
}

function piTui(spec: LaunchSpec, options: PiAdapterOptions, files: RunFiles): TuiCommand {
	const launch = piLaunch(spec, options, files);
	const resumed = spec.session.kind === "resume";
	// A new session's id is chosen here, so its file can be found by name (pi: `<timestamp>_<id>.jsonl`).
	const nativeSessionId = spec.session.kind === "resume" ? spec.session.nativeSessionId : randomUUID();
	const tuiOnly = resumed ? [] : ["--session-id", nativeSessionId];
	// `--` ends pi's options: the task is never read as one.
	tuiOnly.push("--", spec.task);
	return {
		file: launch.file,
		args: [...launch.lead, ...launch.shared, ...tuiOnly],
		env: {},
		nativeSessionId,
		openRecords: () => piRecordReader(options.sessionDir, nativeSessionId, resumed),
	};
}

/**
 * Adds what pi's TUI cannot take for `spec` (its first prompt), then builds the TUI command without
 * writing a file when nothing else refused the spec (`checkedClean`), so a command that cannot be built
 * refuses the call before anything starts.
 */
export function piTuiRefusals(
	spec: LaunchSpec,
	options: PiAdapterOptions,
	problems: Problems,
	checkedClean: boolean,
): void {
	addTuiPromptProblems(spec.task, problems);
	if (spec.task.startsWith("@")) {
		problems.add("pi's TUI reads a first argument starting with @ as a file to attach; start the task with other text");
	}
	if (checkedClean) tryBuild(() => piTui(spec, options, dryRunFiles), problems);
}

/**
 * Maps a resource selection that passed validation to Pi's flags (docs/rules.md §Resources; what pi
 * refuses is in {@link piRefusals}).
 */
export function piResourceFlags(resources: Resources): string[] {
	const flags: string[] = [];
	for (const skill of resources.skills) flags.push("--skill", skill);
	for (const extension of resources.extensions) flags.push("-e", extension);
	// Both inheritance flags false (validation requires mcp_servers: [] then): explicit --skill / -e paths
	// above still load with these exclusions (Pi docs/cli.md).
	if (!resources.inherit_personal_resources && !resources.inherit_project_resources) {
		flags.push("--no-extensions", "--no-skills", "--no-prompt-templates", "--no-themes");
	}
	if (resources.mcp_servers !== null && resources.mcp_servers.length === 0) flags.push("--no-mcp");
	if (!resources.include_instruction_files) flags.push("--no-context-files");
	return flags;
}

/** @throws LaunchError when no pi session file has the id (validation reports it before launch; it may go since). */
function sessionFile(sessionDir: string, nativeSessionId: string): string {
	const file = findPiSessionFile(sessionDir, nativeSessionId);
	if (!file) throw new LaunchError(`pi harness: ${missingSession("pi", nativeSessionId, sessionDir)}`);
	return file;
}

/**
 * Adds what a pi child cannot honour to `problems`: a missing session, an effort outside pi's levels,
 * resource options.
 */
export function piRefusals(spec: LaunchSpec, options: PiAdapterOptions, problems: Problems): void {
	addMissingSession(spec, (id) => findPiSessionFile(options.sessionDir, id), options.sessionDir, problems);
	if (spec.effort !== undefined && !(PI_THINKING_LEVELS as readonly string[]).includes(spec.effort)) {
		problems.add(`effort ${JSON.stringify(spec.effort)} is not a pi thinking level (${PI_THINKING_LEVELS.join(", ")})`);
	}
	if (spec.resources) piResourceRefusals(spec.resources, spec.cwd, options.agentDir, problems);
	addPiToolNameProblems(spec, problems);
	addAgentRefusals("pi", spec, problems);
	if (spec.outputSchema && spec.disallowedTools?.includes(SUBMIT_RESULT_TOOL)) {
		problems.add(
			`disallowed_tools: ${SUBMIT_RESULT_TOOL} is how a pi child with output_schema submits its result; it cannot be excluded`,
		);
	}
}

/** The resource options pi refuses: the shared table, its paired inheritance flags and `SYSTEM.md` files. */
function piResourceRefusals(resources: Resources, cwd: string, agentDir: string, problems: Problems): void {
	addResourceRefusals("pi", resources, problems);
	const personal = resources.inherit_personal_resources;
	if (personal !== resources.inherit_project_resources) {
		problems.add(
			"resources.inherit_personal_resources / inherit_project_resources: pi can exclude personal and project discovery only together; set both to false (with mcp_servers: []) or both to true",
		);
	} else if (!personal && (resources.mcp_servers === null || resources.mcp_servers.length > 0)) {
		problems.add(
			"resources.mcp_servers: must be [] when both inheritance flags are false (pi excludes MCP with discovery)",
		);
	}
	if (!resources.include_home_system_prompt) {
		// Pi has no flag that drops only the home SYSTEM.md: honour the option when there is none, refuse otherwise.
		const homePrompt = join(agentDir, "SYSTEM.md");
		if (existsSync(homePrompt)) {
			problems.add(`resources.include_home_system_prompt: false cannot be honoured by pi while ${homePrompt} exists`);
		}
		const projectPrompt = join(cwd, ".pi", "SYSTEM.md");
		if (existsSync(projectPrompt)) {
			problems.add(
				`resources.include_home_system_prompt: false is refused while ${projectPrompt} exists (it would change the project prompt)`,
			);
		}
	}
}
