/**
 * The pi command builder (flags from `pi --help` of Pi 1.6, see docs/harness-support.md §How each CLI is driven):
 * LaunchSpec → `pi --mode rpc …`, each argument's flag named next to it, and what pi cannot honour.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HarnessCommand } from "../../core/harness-adapter.ts";
import { LaunchError } from "../../core/launch-error.ts";
import type { LaunchSpec, Resources } from "../../core/launch-spec.ts";
import { piToolNameProblems } from "../tool-names.ts";
import type { PiInvocation } from "./invocation.ts";
import { createPiInputCodec } from "./rpc.ts";
import { findPiSessionFile } from "./session-file.ts";

/** Pi's thinking levels (`pi --help`, `--thinking`); an effort outside them is refused for pi children. */
export const PI_THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

export interface PiAdapterOptions {
	/**
	 * How to start Pi (see `resolvePiInvocation`); called per launch, so a bad override refuses launches
	 * instead of failing the extension's load.
	 * @throws LaunchError when the invocation cannot be resolved.
	 */
	invocation: () => PiInvocation;
	/** Private directory for child sessions (`--session-dir`), so children stay out of the user's `/resume` list. */
	sessionDir: string;
	/** The agent dir children share (`PI_CODING_AGENT_DIR`); used to check for a home `SYSTEM.md`. */
	agentDir: string;
}

export function buildPiCommand(spec: LaunchSpec, runDir: string, options: PiAdapterOptions): HarnessCommand {
	const invocation = options.invocation();
	// RPC mode: the same events as json mode, plus commands on stdin (steer, follow_up, abort).
	const args = [...invocation.args, "--mode", "rpc"];
	// Sessions are persisted (resumable by id) but in our own directory.
	args.push("--session-dir", options.sessionDir);
	if (spec.session.kind === "resume") {
		// The exact file, not the id: pi matches ids by prefix and, for a session of another cwd, asks on
		// whether to fork it.
		const file = findPiSessionFile(options.sessionDir, spec.session.nativeSessionId);
		if (!file)
			throw new LaunchError(`pi harness: ${piSessionMissing(options.sessionDir, spec.session.nativeSessionId)}`);
		args.push("--session", file);
	}
	if (spec.model) args.push("--model", spec.model);
	if (spec.effort) args.push("--thinking", spec.effort);
	if (spec.allowedTools) {
		args.push(...(spec.allowedTools.length > 0 ? ["--tools", spec.allowedTools.join(",")] : ["--no-tools"]));
	}
	if (spec.disallowedTools && spec.disallowedTools.length > 0) {
		args.push("--exclude-tools", spec.disallowedTools.join(","));
	}
	if (spec.systemPromptAddition) {
		// A file, not argv: the body may be large or look like a flag or a path.
		const file = join(runDir, "append-system-prompt.md");
		writeFileSync(file, spec.systemPromptAddition, { mode: 0o600 });
		args.push("--append-system-prompt", file);
	}
	if (spec.resources) args.push(...piResourceFlags(spec.resources, spec.cwd, options.agentDir));
	// Project trust is always explicit, and decided for the child's own cwd (Pi `-a` / `-na`).
	args.push(spec.projectTrusted ? "--approve" : "--no-approve");
	// The task is a JSON `prompt` command on stdin: no argv size limit, no option or `@file` parsing, and
	// byte-exact (piped stdin in json mode would be trimmed, main.js readPipedStdin).
	return { file: invocation.file, args, env: {}, conversation: createPiInputCodec(spec.task) };
}

/**
 * Maps a resource selection to Pi's flags (docs/rules.md §Resources).
 * @throws LaunchError listing every option Pi cannot honour, each `pi harness: resources.<field>: …`.
 */
export function piResourceFlags(resources: Resources, cwd: string, agentDir: string): string[] {
	const { flags, problems } = mapPiResources(resources, cwd, agentDir);
	if (problems.length > 0) throw new LaunchError(problems.map((p) => `pi harness: ${p}`));
	return flags;
}

function piSessionMissing(sessionDir: string, nativeSessionId: string): string {
	return `no pi session "${nativeSessionId}" in ${sessionDir} (pi children's sessions are kept there)`;
}

/** What a pi child cannot honour, unprefixed: an effort outside pi's levels, resource options, a missing session. */
export function piProblems(spec: LaunchSpec, options: PiAdapterOptions): string[] {
	const agentDir = options.agentDir;
	const problems: string[] = [];
	if (spec.session.kind === "resume" && !findPiSessionFile(options.sessionDir, spec.session.nativeSessionId)) {
		problems.push(piSessionMissing(options.sessionDir, spec.session.nativeSessionId));
	}
	if (spec.effort !== undefined && !(PI_THINKING_LEVELS as readonly string[]).includes(spec.effort)) {
		problems.push(
			`effort ${JSON.stringify(spec.effort)} is not a pi thinking level (${PI_THINKING_LEVELS.join(", ")})`,
		);
	}
	if (spec.resources) problems.push(...mapPiResources(spec.resources, spec.cwd, agentDir).problems);
	problems.push(...piToolNameProblems(spec));
	return problems;
}

function mapPiResources(resources: Resources, cwd: string, agentDir: string): { flags: string[]; problems: string[] } {
	const problems: string[] = [];
	const flags: string[] = [];
	for (const skill of resources.skills) flags.push("--skill", skill);
	for (const extension of resources.extensions) flags.push("-e", extension);
	if (resources.plugins.length > 0) {
		problems.push("resources.plugins: the pi harness has no plugins; use extensions or skills");
	}
	if (resources.packages.length > 0) {
		problems.push("resources.packages: must be empty; this package never installs packages");
	}
	if (resources.mcp_servers !== null && resources.mcp_servers.length > 0) {
		problems.push("resources.mcp_servers: only null (inherit) or [] (disable) are supported");
	}
	const personal = resources.inherit_personal_resources;
	const project = resources.inherit_project_resources;
	if (personal !== project) {
		problems.push(
			"resources.inherit_personal_resources / inherit_project_resources: pi can exclude personal and project discovery only together; set both to false (with mcp_servers: []) or both to true",
		);
	} else if (!personal) {
		if (resources.mcp_servers === null || resources.mcp_servers.length > 0) {
			problems.push(
				"resources.mcp_servers: must be [] when both inheritance flags are false (pi excludes MCP with discovery)",
			);
		} else {
			// Explicit --skill / -e paths above still load with these exclusions (Pi docs/cli.md).
			flags.push("--no-extensions", "--no-skills", "--no-prompt-templates", "--no-themes");
		}
	}
	if (resources.mcp_servers !== null && resources.mcp_servers.length === 0) flags.push("--no-mcp");
	if (!resources.include_instruction_files) flags.push("--no-context-files");
	if (!resources.include_home_system_prompt) {
		// Pi has no flag that drops only the home SYSTEM.md: honour the option when there is none, refuse otherwise.
		const homePrompt = join(agentDir, "SYSTEM.md");
		if (existsSync(homePrompt)) {
			problems.push(`resources.include_home_system_prompt: false cannot be honoured by pi while ${homePrompt} exists`);
		}
		const projectPrompt = join(cwd, ".pi", "SYSTEM.md");
		if (existsSync(projectPrompt)) {
			problems.push(
				`resources.include_home_system_prompt: false is refused while ${projectPrompt} exists (it would change the project prompt)`,
			);
		}
	}
	return { flags, problems };
}
