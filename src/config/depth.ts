/**
 * The delegation depth gate (docs/rules.md §Depth: the maximum is fixed at the root and passed down; a child's own
 * settings cannot raise it). Checked before anything is spawned.
 */

import type { Problems } from "../core/problems.ts";
import { DEPTH_ENV, MAX_DEPTH_ENV, parseDepthVariable } from "../runs/child-env.ts";

export interface DepthState {
	/** Depth of this Pi process: 0 at the root. */
	depth: number;
	/** The maximum in force: inherited from the parent's environment when present, else the local setting. */
	maxDepth: number;
}

/**
 * Reads this process's depth and the inherited maximum. A child cannot raise the maximum it inherited.
 * @param settingMaxDepth the local settings' `max_sub_agent_depth`, used only at the root.
 * @throws ConfigError naming the variable when it holds something other than a non-negative integer.
 */
export function readDepthState(env: NodeJS.ProcessEnv, settingMaxDepth: number): DepthState {
	const depth = parseDepthVariable(env[DEPTH_ENV], DEPTH_ENV) ?? 0;
	const inherited = parseDepthVariable(env[MAX_DEPTH_ENV], MAX_DEPTH_ENV);
	return { depth, maxDepth: inherited ?? settingMaxDepth };
}

/**
 * Whether a child at `depth + 1` stays within `maxDepth`; when it would not, the refusal naming both numbers
 * is added to `problems`.
 */
export function checkDepth(state: DepthState, problems: Problems): boolean {
	const childDepth = state.depth + 1;
	if (childDepth <= state.maxDepth) return true;
	problems.add(
		`delegation depth limit reached: this session is at depth ${state.depth} and max_sub_agent_depth is ${state.maxDepth}, so a child at depth ${childDepth} is refused (the root's settings file sets max_sub_agent_depth; children inherit it)`,
	);
	return false;
}
