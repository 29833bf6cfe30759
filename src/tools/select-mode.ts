/**
 * Exactly one mode per call (issue 3 item 3): single, `tasks` or `chain`; and exactly one kind per child
 * (`agent`, `roster_entry` or `agent_type`). Shape checks only; the launch layer resolves names and paths.
 */

import type { CallMode } from "../core/child-run.ts";
import type { Problems } from "../core/problems.ts";
import { CHILD_KEYS, type ChildCall, toChildCall } from "../launch/child-args.ts";
import { PREVIOUS_PLACEHOLDER } from "../runs/scheduler.ts";
import type { ChildArgs, SubagentArgs } from "./subagent-schema.ts";

export interface SelectedCall {
	mode: CallMode;
	calls: ChildCall[];
	/** Per child of `calls`, for messages: "" in single mode, "task N" / "step N" otherwise (N counts every child given). */
	labels: string[];
	/**
	 * True when a problem was found (added to the collector): the call is refused, and `calls` holds only the
	 * children without a problem of their own, still to be resolved for theirs.
	 */
	refused: boolean;
}

export interface CallLimits {
	/** Most tasks in one `tasks` call (setting `limits.max_parallel_tasks`). */
	maxParallelTasks: number;
	/** Most steps in one `chain` call. */
	maxChainSteps: number;
}

/** Arguments of the whole call rather than of a child: allowed at the top level in every mode. */
const CALL_KEYS = new Set(["tasks", "chain", "agentScope", "background"]);
const SINGLE_KEYS = [...CHILD_KEYS, "task", "resume_session_id"] as const;

/**
 * @returns the selected call (`refused` when a problem was added to `problems`: a child with no kind or several,
 *   missing task text, `prompt` conflicting with `task`, too many children), or `undefined` with the problem
 *   added when there is no one mode (no mode or several, naming the fields given).
 */
export function selectMode(args: SubagentArgs, limits: CallLimits, problems: Problems): SelectedCall | undefined {
	const singleFields = SINGLE_KEYS.filter((key) => args[key] !== undefined);
	const modes: string[] = [];
	if (singleFields.length > 0) modes.push(`single (${singleFields.join(", ")})`);
	if (args.tasks !== undefined) modes.push("tasks");
	if (args.chain !== undefined) modes.push("chain");
	if (modes.length !== 1) {
		const given = Object.keys(args).filter((key) => (args as Record<string, unknown>)[key] !== undefined);
		problems.add(
			`give exactly one mode: single ({ agent | roster_entry | agent_type | resume_session_id, task }), parallel ({ tasks: [...] }) or chain ({ chain: [...] }); ${
				modes.length === 0
					? `none was given${given.length > 0 ? ` (fields given: ${given.join(", ")})` : ""}`
					: `got ${modes.join(" and ")}`
			}`,
		);
		return undefined;
	}
	const before = problems.size;
	let mode: CallMode;
	let items: ChildArgs[];
	let prefix: string;
	if (singleFields.length > 0) {
		mode = "single";
		items = [args];
		prefix = "";
	} else if (args.tasks !== undefined) {
		mode = "parallel";
		items = args.tasks;
		prefix = "task";
		if (items.length === 0) problems.add("tasks: give at least one task");
		if (items.length > limits.maxParallelTasks) {
			problems.add(
				`tasks: ${items.length} tasks given, at most ${limits.maxParallelTasks} are allowed per call (setting limits.max_parallel_tasks)`,
			);
		}
	} else {
		mode = "chain";
		items = args.chain ?? [];
		prefix = "step";
		if (items.length === 0) problems.add("chain: give at least one step");
		if (items.length > limits.maxChainSteps) {
			problems.add(`chain: ${items.length} steps given, at most ${limits.maxChainSteps} are allowed`);
		}
	}
	if (mode !== "single") {
		const topLevel = Object.keys(args).filter(
			(key) => !CALL_KEYS.has(key) && (args as Record<string, unknown>)[key] !== undefined,
		);
		if (topLevel.length > 0)
			problems.add(`${topLevel.join(", ")}: in ${mode} mode these go inside each item, not at the top level`);
	}
	const labels = items.map((_, i) => (prefix ? `${prefix} ${i + 1}` : ""));
	const calls = items.map((item, i) => toChildCall(item, problems.at(labels[i])));
	if (mode === "chain" && items[0]?.task?.includes(PREVIOUS_PLACEHOLDER)) {
		problems.add(`step 1: task uses ${PREVIOUS_PLACEHOLDER}, but there is no previous step`);
	}
	// Each child whose fields are fine is there, with its label, so the launch layer can still look for its problems.
	const shaped = calls.flatMap((call, i) => (call ? [{ call, label: labels[i] }] : []));
	return {
		mode,
		calls: shaped.map((child) => child.call),
		labels: shaped.map((child) => child.label),
		refused: problems.size > before,
	};
}
