/**
 * The agent body for harnesses that append a system prompt from a file (pi `--append-system-prompt`,
 * claude `--append-system-prompt-file`): a file, not argv, since a body may be large or look like a flag.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Writes `text` to `<runDir>/append-system-prompt.md` (mode 0600) and returns that path.
 * @param runDir the run's private directory, removed after the run.
 */
export function writeSystemPromptFile(runDir: string, text: string): string {
	return writeRunFile(runDir, "append-system-prompt.md", text);
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
