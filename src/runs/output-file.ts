/**
 * An agent's `output` file (pi-subagents; docs/agent-libraries.md §pi format): a completed run's final
 * answer is also written there, atomically, by every runner (headless and interactive), and the result
 * names it.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "../core/atomic-write.ts";
import { isInsideDirectory } from "../core/inside-dir.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import type { RunResult } from "../core/run-result.ts";

/**
 * Writes `result.finalAnswer` to `spec.outputFile` (absolute; missing directories are created, mode 0644)
 * when the run completed; sets `result.outputFile`, or `result.outputError` when the write failed.
 * Never throws.
 */
export function writeOutputFile(spec: LaunchSpec, result: RunResult): void {
	if (!spec.outputFile || result.status !== "completed") return;
	// A project agent's file was inside the cwd when the call was planned; the child may have made a symlink since
	// (docs/agent-libraries.md §pi format): checked again before and after the directories are made.
	const project = spec.provenance.kind === "agent" && spec.provenance.agentSource === "project";
	const outside = () => project && !isInsideDirectory(spec.cwd, dirname(spec.outputFile as string));
	try {
		if (outside()) throw new Error(leadsOut(spec.cwd));
		mkdirSync(dirname(spec.outputFile), { recursive: true });
		if (outside()) throw new Error(leadsOut(spec.cwd));
		writeFileAtomic(spec.outputFile, result.finalAnswer, 0o644);
		result.outputFile = spec.outputFile;
	} catch (error) {
		result.outputError = `the answer could not be written to ${spec.outputFile}: ${(error as Error).message}`;
	}
}

const leadsOut = (cwd: string) =>
	`a project agent's output file must be inside the child's cwd (${cwd}), and a symlink made during the run leads it out`;
