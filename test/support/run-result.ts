/** A completed RunResult with `finalAnswer` and everything else empty, for tests of what is made of results. */
import { emptyUsage, type RunResult } from "../../src/core/run-result.ts";

export function runResult(finalAnswer: string, overrides: Partial<RunResult> = {}): RunResult {
	return {
		status: "completed",
		harness: "pi",
		task: "t",
		cwd: "/",
		finalAnswer,
		transcript: [],
		tools: [],
		usage: emptyUsage(),
		exitCode: 0,
		signal: null,
		stderrTail: "",
		diagnostics: [],
		durationMs: 1,
		command: "pi",
		...overrides,
	};
}
