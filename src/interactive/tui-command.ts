/**
 * The interactive (TUI) command of a child, derived from its headless command so both run the same
 * translated launch (model, effort, tools, resources, approvals, cwd): the adapter builds and checks the
 * headless command, and this module swaps only the output-mode flags for the TUI's and moves the task from
 * stdin (or the input channel) to the prompt argument (docs/harness-support.md "Interactive runs").
 */
import { randomUUID } from "node:crypto";
import type { HarnessCommand } from "../core/harness-adapter.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import { Problems } from "../core/problems.ts";
import { tomlString } from "../harness/codex/command.ts";
import { appendSkillReferences } from "../harness/skill-references.ts";

/**
 * Longest prompt argument, bytes: Linux's MAX_ARG_STRLEN (32 pages of 4 KiB) less one for the NUL. A TUI
 * takes its first prompt only as an argument.
 */
export const MAX_PROMPT_BYTES = 128 * 1024 - 1;

/** A TUI command, plus what is known about its native session before it starts. */
export interface TuiCommand {
	file: string;
	args: string[];
	env: Record<string, string | undefined>;
	/** The native session id, when the launch chooses it (pi, claude, any resume); codex picks its own. */
	nativeSessionId?: string;
	/** pi only: the directory of the child's session file (`--session-dir`). */
	piSessionDir?: string;
}

/**
 * Adds to `problems` what refuses an interactive launch before anything starts (unlabelled).
 * @param prompt the text the harness receives (the task, with skill references for codex/claude).
 */
export function tuiProblems(spec: LaunchSpec, prompt: string, problems: Problems): void {
	const bytes = Buffer.byteLength(prompt);
	if (bytes > MAX_PROMPT_BYTES) {
		problems.add(
			`the task is ${bytes} bytes; a TUI takes its first prompt as one argument, limited to ${MAX_PROMPT_BYTES} bytes (run it headless instead)`,
		);
	}
	if (spec.harness === "pi" && prompt.startsWith("@")) {
		problems.add("pi's TUI reads a first argument starting with @ as a file to attach; start the task with other text");
	}
}

/** The first prompt a TUI gets: the task, with the selected skill references for codex and claude. */
export function tuiPrompt(spec: LaunchSpec): string {
	return spec.harness === "pi" ? spec.task : appendSkillReferences(spec.task, spec.skillReferences);
}

/**
 * Rewrites `headless` (the adapter's command for `spec`) into the harness's TUI command.
 * @throws Error when the headless command does not have the shape this module expects (a change in an
 *   adapter must be mirrored here) or the task cannot be passed to a TUI ({@link tuiProblems}; the tool
 *   refuses such a call before anything starts).
 */
export function toTuiCommand(spec: LaunchSpec, headless: HarnessCommand): TuiCommand {
	const prompt = tuiPrompt(spec);
	const problems = new Problems(`${spec.harness} harness: interactive`);
	tuiProblems(spec, prompt, problems);
	if (problems.size > 0) throw new Error(problems.list.join("\n"));
	switch (spec.harness) {
		case "pi":
			return piTui(spec, headless, prompt);
		case "claude_code":
			return claudeTui(spec, headless, prompt);
		case "codex":
			return codexTui(spec, headless, prompt);
	}
}

function piTui(spec: LaunchSpec, headless: HarnessCommand, prompt: string): TuiCommand {
	const args = without(headless.args, ["--mode", "rpc"]);
	const dirAt = args.indexOf("--session-dir");
	if (dirAt < 0) throw shapeError("pi", "--session-dir");
	let nativeSessionId: string;
	if (spec.session.kind === "resume") nativeSessionId = spec.session.nativeSessionId;
	else {
		// Chosen here, so the session file can be found by name (pi: `<timestamp>_<id>.jsonl`).
		nativeSessionId = randomUUID();
		args.push("--session-id", nativeSessionId);
	}
	// `--` ends pi's options: the task is never read as one.
	args.push("--", prompt);
	return { file: headless.file, args, env: headless.env, nativeSessionId, piSessionDir: args[dirAt + 1] };
}

function claudeTui(spec: LaunchSpec, headless: HarnessCommand, prompt: string): TuiCommand {
	const args = without(headless.args, [
		"-p",
		"--input-format=stream-json",
		"--output-format=stream-json",
		"--verbose",
		"--replay-user-messages",
	]);
	const session = args.find((arg) => arg.startsWith("--session-id=") || arg.startsWith("--resume="));
	if (!session) throw shapeError("claude_code", "--session-id= or --resume=");
	// The TUI's own default is "auto" mode; `-p`'s is "default" (prompts become denials there, questions here).
	if (!spec.autoApprove) args.push("--permission-mode=default");
	args.push("--", prompt);
	return { file: headless.file, args, env: headless.env, nativeSessionId: session.slice(session.indexOf("=") + 1) };
}

function codexTui(spec: LaunchSpec, headless: HarnessCommand, prompt: string): TuiCommand {
	const execAt = headless.args.indexOf("exec");
	if (execAt < 0 || headless.args.at(-1) !== "-") throw shapeError("codex", "exec … -");
	const prefix = headless.args.slice(0, execAt);
	let options = without(headless.args.slice(execAt + 1, -1), ["--json", "--skip-git-repo-check"]);
	const resumeAt = options.indexOf("resume");
	if (resumeAt >= 0) options = options.slice(0, resumeAt);
	// --no-daemon: no background app-server that outlives the pane (and no 424 MB copy into CODEX_HOME);
	// --no-alt-screen: the conversation stays in the pane's scrollback for whoever attaches.
	const args = [...prefix, ...(spec.session.kind === "resume" ? ["resume"] : []), "--no-daemon", "--no-alt-screen"];
	args.push(...options);
	// The folder-trust dialog would block the start: the parent's own trust decision answers it.
	if (spec.projectTrusted) args.push("-c", `projects={${tomlString(spec.cwd)}={trust_level="trusted"}}`);
	if (spec.session.kind === "resume") args.push("--", spec.session.nativeSessionId, prompt);
	else args.push("--", prompt);
	return {
		file: headless.file,
		args,
		env: headless.env,
		nativeSessionId: spec.session.kind === "resume" ? spec.session.nativeSessionId : undefined,
	};
}

/** `args` without each of `drop` (each must be present once, in that order for pairs like `--mode json`). */
function without(args: string[], drop: string[]): string[] {
	const out = [...args];
	for (const item of drop) {
		const at = out.indexOf(item);
		if (at < 0) throw new Error(`interactive: the headless command lacks ${item}; cannot derive the TUI command`);
		out.splice(at, 1);
	}
	return out;
}

function shapeError(harness: string, what: string): Error {
	return new Error(
		`${harness} harness: interactive: the headless command lacks ${what}; cannot derive the TUI command`,
	);
}
