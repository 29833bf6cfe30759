/**
 * What every harness adapter shares: the validation body all adapters' `validate()` use. The adapter
 * contract itself is `core/harness-adapter.ts`.
 */
import type { Harness } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";

/**
 * The shared body of every adapter's `validate()`: the command must resolve, and the harness's own
 * refusals are added labelled `<harness> harness`.
 * @param resolveCommand throws a ConfigError when the harness's command override is malformed.
 * @param refusals adds the harness's own refusals of the spec to the collector it is given.
 */
export function checkCanLaunch(
	harness: Harness,
	resolveCommand: () => unknown,
	problems: Problems,
	refusals: (harnessProblems: Problems) => void,
): void {
	problems.attempt(resolveCommand);
	refusals(problems.at(`${harness} harness`));
}
