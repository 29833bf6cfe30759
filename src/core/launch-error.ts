/**
 * A call that cannot be launched: a bad argument, a missing path, a refused setting, a declined trust
 * prompt. Thrown at the tool boundary from a `Problems` collector (core/problems.ts); lists every problem.
 */
import { ProblemsError } from "./problems.ts";

export class LaunchError extends ProblemsError {
	override readonly name = "LaunchError";
}
