/**
 * The files a command builder hands a harness (docs/harness-support.md §How each CLI is driven): the agent
 * body for harnesses that take a system prompt from a file (pi `--append-system-prompt`, claude
 * `--append-system-prompt-file`; a file, not argv, since a body may be large or look like a flag), and
 * definitions a CLI reads from a file (claude `--agents <file>`). Builders write them through `RunFiles`, so
 * validation can build a command without writing anything.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Puts `text` in the run file `name` and returns its path. */
export type RunFiles = (name: string, text: string) => string;

/** The run file of the agent body. */
const SYSTEM_PROMPT_FILE = "append-system-prompt.md";

/**
 * Writes `text` to `<runDir>/append-system-prompt.md` (mode 0600) and returns that path.
 * @param runDir the run's private directory, removed after the run.
 */
export function writeSystemPromptFile(runDir: string, text: string): string {
	return writeRunFile(runDir, SYSTEM_PROMPT_FILE, text);
}

/** Puts the agent body `text` in its run file (see {@link writeSystemPromptFile}) through `files`. */
export function systemPromptFile(files: RunFiles, text: string): string {
	return files(SYSTEM_PROMPT_FILE, text);
}

/**
 * Writes `text` to `<runDir>/<name>` (mode 0600) and returns that path: a definition a CLI reads from a
 * file (claude `--agents <file>`).
 */
export function writeRunFile(runDir: string, name: string, text: string): string {
	const file = join(runDir, name);
	writeFileSync(file, text, { mode: 0o600 });
	return file;
}

/** Writes into `runDir` (see {@link writeRunFile}). */
export function runFilesIn(runDir: string): RunFiles {
	return (name, text) => writeRunFile(runDir, name, text);
}

/**
 * Writes nothing: the path each file would have in a run directory. Validation builds commands with it, so
 * checking a spec has no side effects.
 */
export const dryRunFiles: RunFiles = (name) => join("<run dir>", name);
