/**
 * The first prompt of a harness's TUI (docs/harness-support.md "Interactive runs"): a TUI takes it only as
 * one argument, so its size is bounded by the kernel's limit on one argv string.
 */
import type { Problems } from "../core/problems.ts";

/**
 * Longest prompt argument, bytes: Linux's MAX_ARG_STRLEN (32 pages of 4 KiB) less one for the NUL.
 */
export const MAX_PROMPT_BYTES = 128 * 1024 - 1;

/** Adds to `problems` why `prompt` cannot be a TUI's first prompt argument, if it cannot. */
export function addTuiPromptProblems(prompt: string, problems: Problems): void {
	const bytes = Buffer.byteLength(prompt);
	if (bytes > MAX_PROMPT_BYTES) {
		problems.add(
			`the task is ${bytes} bytes; a TUI takes its first prompt as one argument, limited to ${MAX_PROMPT_BYTES} bytes (run it headless instead)`,
		);
	}
}
