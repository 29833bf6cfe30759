/**
 * What every harness adapter shares: the validation body all adapters' `validate()` use. The adapter
 * contract itself is `core/harness-adapter.ts`.
 */
import { LaunchError } from "../core/launch-error.ts";
import type { Harness } from "../core/launch-spec.ts";

/**
 * The shared body of every adapter's `validate()`: the command must resolve, and the harness's own
 * problems (each prefixed `<harness> harness: `) are listed together.
 * @param resolveCommand throws LaunchError when the harness's command override is malformed.
 * @throws LaunchError listing every problem found.
 */
export function assertCanLaunch(harness: Harness, resolveCommand: () => unknown, harnessProblems: string[]): void {
	const problems: string[] = [];
	try {
		resolveCommand();
	} catch (error) {
		if (!(error instanceof LaunchError)) throw error;
		problems.push(...error.problems);
	}
	problems.push(...harnessProblems.map((problem) => `${harness} harness: ${problem}`));
	if (problems.length > 0) throw new LaunchError(problems);
}
