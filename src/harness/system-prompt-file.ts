/**
 * The agent body for harnesses that append a system prompt from a file (pi `--append-system-prompt`,
 * claude `--append-system-prompt-file`): a file, not argv, since a body may be large or look like a flag.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Puts the agent body where the harness reads it and returns that path. */
export type SystemPromptFile = (text: string) => string;

const FILE_NAME = "append-system-prompt.md";

/**
 * Writes `text` to `<runDir>/append-system-prompt.md` (mode 0600) and returns that path.
 * @param runDir the run's private directory, removed after the run.
 */
export function writeSystemPromptFile(runDir: string, text: string): string {
	const file = join(runDir, FILE_NAME);
	writeFileSync(file, text, { mode: 0o600 });
	return file;
}

/** Writes into `runDir` (see {@link writeSystemPromptFile}). */
export function systemPromptFileIn(runDir: string): SystemPromptFile {
	return (text) => writeSystemPromptFile(runDir, text);
}

/**
 * Writes nothing: the path the file would have in a run directory. Validation builds commands with it, so
 * checking a spec has no side effects.
 */
export const dryRunSystemPromptFile: SystemPromptFile = () => join("<run dir>", FILE_NAME);
