/**
 * The agent body for harnesses that append a system prompt from a file (pi `--append-system-prompt`,
 * claude `--append-system-prompt-file`): a file, not argv, since a body may be large or look like a flag.
 */
import { writeRunFile } from "../runs/leftovers.ts";

export { writeRunFile };

/**
 * Writes `text` to `<runDir>/append-system-prompt.md` (mode 0600) and returns that path.
 * @param runDir the run's private directory, removed after the run.
 * @throws Error naming the file when it cannot be written (`writeRunFile`).
 */
export function writeSystemPromptFile(runDir: string, text: string): string {
	return writeRunFile(runDir, "append-system-prompt.md", text);
}
