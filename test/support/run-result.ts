/** Run results for tests of what is built from finished runs (delivery, result text), without running any. */
import { emptyUsage, type RunResult } from "../../src/core/run-result.ts";

/** A completed pi run in `/work` with no answer, exit code 0 and no output; `fields` override any of these. */
export function runResult(fields: Partial<RunResult> = {}): RunResult {
	return {
		status: "completed",
		harness: "pi",
		task: "t",
		cwd: "/work",
		finalAnswer: "",
		transcript: [],
		tools: [],
		usage: emptyUsage(),
		exitCode: 0,
		signal: null,
		stderrTail: "",
		diagnostics: [],
		durationMs: 1,
		command: "pi",
		...fields,
	};
}
