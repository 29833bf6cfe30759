/**
 * A configuration file or variable that cannot be used: the settings file, a roster file, an agent
 * definition, a skill selection, a command override. Thrown by the config loaders; names the file (or
 * variable), the entry and the field, and lists every problem.
 */
import { ProblemsError } from "./problems.ts";

export class ConfigError extends ProblemsError {
	override readonly name = "ConfigError";
}
