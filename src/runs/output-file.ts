/**
 * An agent's `output` file (pi-subagents; docs/agent-libraries.md §pi format): a completed run's final
 * answer is also written there, atomically, by every runner (headless and interactive), and the result
 * names it.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "../core/atomic-write.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import type { RunResult } from "../core/run-result.ts";

/**
 * Writes `result.finalAnswer` to `spec.outputFile` (absolute; missing directories are created, mode 0644)
 * when the run completed; sets `result.outputFile`, or `result.outputError` when the write failed.
 * Never throws.
 */
export function writeOutputFile(spec: LaunchSpec, result: RunResult): void {
	if (!spec.outputFile || result.status !== "completed") return;
	try {
		mkdirSync(dirname(spec.outputFile), { recursive: true });
		writeFileAtomic(spec.outputFile, result.finalAnswer, 0o644);
		result.outputFile = spec.outputFile;
	} catch (error) {
		result.outputError = `the answer could not be written to ${spec.outputFile}: ${(error as Error).message}`;
	}
}
