/**
 * How to start a native harness CLI: the executable on `PATH` (codex, claude), or a command given in an
 * environment variable (all three harnesses, see `pi/invocation.ts` for pi).
 */

import { ConfigError } from "../core/config-error.ts";

/** `file` plus leading `args`; the adapter appends the harness's own flags. */
export interface NativeCommand {
	file: string;
	args: string[];
}

/** Variables that override how codex and claude are started: a JSON array of strings, e.g. `["/opt/codex/bin/codex"]`. */
export const CODEX_COMMAND_ENV = "PI_NATIVE_SUBAGENTS_CODEX_COMMAND";
export const CLAUDE_COMMAND_ENV = "PI_NATIVE_SUBAGENTS_CLAUDE_COMMAND";

/**
 * Returns the command from `env[variable]` when set, else `{ file: defaultFile, args: [] }` (found on the
 * child's `PATH` at spawn time).
 *
 * @throws ConfigError when the variable is set but is not a non-empty JSON array of non-empty strings.
 */
export function resolveNativeCommand(variable: string, defaultFile: string, env: NodeJS.ProcessEnv): NativeCommand {
	const text = env[variable];
	if (!text) return { file: defaultFile, args: [] };
	return parseCommandOverride(variable, text, `["/usr/local/bin/${defaultFile}"]`);
}

/**
 * Parses a command override variable: a non-empty JSON array of non-empty strings, the executable first.
 * @param example shown in the error, e.g. `["/usr/local/bin/codex"]`.
 * @throws ConfigError naming the variable and quoting its value when it has another shape.
 */
export function parseCommandOverride(variable: string, text: string, example: string): NativeCommand {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		value = undefined;
	}
	if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === "string" && v.length > 0)) {
		throw new ConfigError(
			`${variable} must be a JSON array of non-empty strings, e.g. ${example}; got ${JSON.stringify(text)}`,
		);
	}
	const [file, ...args] = value as string[];
	return { file, args };
}
