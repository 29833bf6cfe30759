/**
 * Child environments (docs/rules.md §Paths and child environments): the parent's environment minus this package's
 * control variables, plus exactly the overrides the launch selects.
 */
import { ConfigError } from "../core/config-error.ts";

/** Selects the roster of a Pi session (kept for compatibility with existing setups). */
export const ROSTER_FILE_ENV = "PI_AGENTSHELL_ROSTER_FILE";
/** Delegation depth of the process that reads it; the root has none (depth 0). */
export const DEPTH_ENV = "PI_AGENTSHELL_DEPTH";
/** Maximum delegation depth, fixed by the root and inherited: local configuration cannot reset it. */
export const MAX_DEPTH_ENV = "PI_AGENTSHELL_MAX_DEPTH";

const CONTROL_VARIABLES = [ROSTER_FILE_ENV, DEPTH_ENV, MAX_DEPTH_ENV];

/**
 * One depth variable's value: `undefined` when unset or empty.
 * @throws ConfigError naming the variable when it holds something other than a non-negative integer.
 */
export function parseDepthVariable(value: string | undefined, name: string): number | undefined {
	if (value === undefined || value === "") return undefined;
	if (!/^\d+$/.test(value))
		throw new ConfigError(`${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
	return Number(value);
}

/**
 * Whether this process is a child at the maximum delegation depth, from its inherited variables alone: it
 * is then offered no orchestration tool (SECURITY.md "Delegation depth"). A malformed variable counts as
 * not at the maximum here; calls are refused with the parse error instead. Read at extension load, so it
 * lives here, with the variables, and imports nothing heavy (docs/design-notes.md §Start-up cost).
 */
export function atInheritedMaxDepth(env: NodeJS.ProcessEnv): boolean {
	try {
		const depth = parseDepthVariable(env[DEPTH_ENV], DEPTH_ENV);
		const max = parseDepthVariable(env[MAX_DEPTH_ENV], MAX_DEPTH_ENV);
		return depth !== undefined && max !== undefined && depth >= max;
	} catch {
		return false;
	}
}

/** Variable names, each exact or ending in `*` (a prefix). */
function matches(name: string, patterns: readonly string[]): boolean {
	return patterns.some((p) => (p.endsWith("*") ? name.startsWith(p.slice(0, -1)) : name === p));
}

/**
 * The harnesses' homes: Pi's agent directory, codex's and claude's config directories. This package reads and
 * writes them for its children (pi child sessions and settings, codex usage and rollouts, claude's first-run and
 * trust records), so a child that found its home elsewhere would run with other models, credentials, settings
 * and trust, and lose its resume and usage: the `environment` setting passes them whatever it lists
 * (SECURITY.md "Environment").
 */
export const HARNESS_HOME_VARIABLES: readonly string[] = ["PI_CODING_AGENT_DIR", "CODEX_HOME", "CLAUDE_CONFIG_DIR"];

/**
 * The parent's environment as the user's `environment` setting lets children see it: only `include`d
 * variables when `include` is a list, never the `exclude`d ones; for a harness's child the harnesses' homes
 * always ({@link HARNESS_HOME_VARIABLES}; `options.harnessHomes` false for a graph's command gate, which runs no
 * harness). The package's control variables and the harness's own overrides are applied afterwards (see
 * `buildChildEnv`, `applyEnvOverrides`).
 */
export function filterEnvironment(
	base: NodeJS.ProcessEnv,
	policy: { include: readonly string[] | null; exclude: readonly string[] },
	options: { harnessHomes: boolean } = { harnessHomes: true },
): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(base)) {
		const home = options.harnessHomes && HARNESS_HOME_VARIABLES.includes(name);
		if (!home && policy.include !== null && !matches(name, policy.include)) continue;
		if (!home && matches(name, policy.exclude)) continue;
		env[name] = value;
	}
	return env;
}

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
