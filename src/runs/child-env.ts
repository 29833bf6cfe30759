/**
 * Child environments (docs/rules.md §Paths and child environments): the parent's environment minus this package's
 * control variables, plus exactly the overrides the launch selects.
 */

/** Selects the roster of a Pi session (kept for compatibility with existing setups). */
export const ROSTER_FILE_ENV = "PI_AGENTSHELL_ROSTER_FILE";
/** Delegation depth of the process that reads it; the root has none (depth 0). */
export const DEPTH_ENV = "PI_AGENTSHELL_DEPTH";
/** Maximum delegation depth, fixed by the root and inherited: local configuration cannot reset it. */
export const MAX_DEPTH_ENV = "PI_AGENTSHELL_MAX_DEPTH";

const CONTROL_VARIABLES = [ROSTER_FILE_ENV, DEPTH_ENV, MAX_DEPTH_ENV];

export interface ChildEnvOptions {
	/** The child's delegation depth (parent depth + 1). */
	depth: number;
	/** The maximum depth in force at the root. */
	maxDepth: number;
	/** Absolute roster file selected for the child; absent removes the variable. */
	rosterFile?: string;
}

/**
 * Returns the complete environment of one child. Values of `undefined` in `base` are dropped.
 * Each call returns a new object, so concurrent children never share values.
 */
export function buildChildEnv(base: NodeJS.ProcessEnv, options: ChildEnvOptions): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [key, value] of Object.entries(base)) {
		if (value !== undefined && !CONTROL_VARIABLES.includes(key)) env[key] = value;
	}
	env[DEPTH_ENV] = String(options.depth);
	env[MAX_DEPTH_ENV] = String(options.maxDepth);
	if (options.rosterFile) env[ROSTER_FILE_ENV] = options.rosterFile;
	return env;
}

/** Applies a harness command's own overrides (`undefined` removes a variable) to a child environment. */
export function applyEnvOverrides(
	env: Record<string, string>,
	overrides: Record<string, string | undefined>,
): Record<string, string> {
	const result = { ...env };
	for (const [key, value] of Object.entries(overrides)) {
		if (value === undefined) delete result[key];
		else result[key] = value;
	}
	return result;
}
