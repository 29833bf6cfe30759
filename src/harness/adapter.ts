/**
 * What every harness adapter shares: the validation body all adapters' `validate()` use. The adapter
 * contract itself is `core/harness-adapter.ts`.
 */
import type { LaunchSpec } from "../core/launch-spec.ts";
import { type Problems, ProblemsError } from "../core/problems.ts";

/**
 * The shared body of every adapter's `validate()`: the command must resolve, the harness's own refusals
 * are added labelled `<harness> harness`, and for an interactive spec what its TUI refuses, labelled
 * `<harness> harness: interactive`.
 * @param resolveCommand throws a ConfigError when the harness's command override is malformed.
 * @param refusals adds the harness's own refusals of the spec to the collector it is given.
 * @param tuiRefusals adds what the harness's TUI cannot take; `checkedClean` is true when nothing else was
 *   found, so the TUI command can be built (the build relies on the other checks).
 */
export function checkCanLaunch(
	spec: LaunchSpec,
	resolveCommand: () => unknown,
	problems: Problems,
	refusals: (harnessProblems: Problems) => void,
	tuiRefusals: (tuiProblems: Problems, checkedClean: boolean) => void,
): void {
	const before = problems.size;
	problems.attempt(resolveCommand);
	const harnessProblems = problems.at(`${spec.harness} harness`);
	refusals(harnessProblems);
	if (spec.interactive) tuiRefusals(harnessProblems.at("interactive"), problems.size === before);
}

/**
 * Runs a command builder for validation (writing no file): a build that throws adds its problems (or its
 * message) to `problems` instead, so the call is refused before anything starts.
 */
export function tryBuild(build: () => unknown, problems: Problems): void {
	try {
		build();
	} catch (error) {
		if (error instanceof ProblemsError) for (const problem of error.problems) problems.add(problem);
		else problems.add(`the command cannot be built: ${error instanceof Error ? error.message : String(error)}`);
	}
}
