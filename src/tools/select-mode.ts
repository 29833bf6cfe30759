/**
 * Exactly one mode per call (issue 3 item 3): single, `tasks` or `chain`. Shape checks only; the launch
 * layer resolves names and paths.
 */
import { LaunchError } from "../launch/launch-error.ts";
import type { AgentTask } from "../launch/resolve-agent.ts";
import type { CallMode } from "../runs/scheduler.ts";
import type { ChildArgs, SubagentArgs } from "./subagent-schema.ts";

export interface SelectedCall {
	mode: CallMode;
	tasks: AgentTask[];
}

export interface CallLimits {
	/** Most tasks in one `tasks` call. */
	maxParallelTasks: number;
	/** Most steps in one `chain` call. */
	maxChainSteps: number;
}

/**
 * @throws LaunchError listing every problem: no mode or several modes (naming the fields given), missing
 *   task text, `prompt` conflicting with `task`, too many tasks.
 */
export function selectMode(args: SubagentArgs, limits: CallLimits): SelectedCall {
	const given: string[] = [];
	const single = args.agent !== undefined || args.task !== undefined;
	if (args.agent !== undefined) given.push("agent");
	if (args.task !== undefined) given.push("task");
	if (args.tasks !== undefined) given.push("tasks");
	if (args.chain !== undefined) given.push("chain");
	const modes = [
		single && "single (agent + task)",
		args.tasks !== undefined && "tasks",
		args.chain !== undefined && "chain",
	].filter(Boolean);
	if (modes.length !== 1) {
		throw new LaunchError(
			`give exactly one mode: single ({ agent, task }), parallel ({ tasks: [...] }) or chain ({ chain: [...] }); ${
				modes.length === 0 ? "none was given" : `got ${modes.join(" and ")} (fields: ${given.join(", ")})`
			}`,
		);
	}
	const problems: string[] = [];
	const toTask = (item: ChildArgs & { prompt?: unknown }, where: string): AgentTask | undefined => {
		if (item.prompt !== undefined) problems.push(`${where}: give task or prompt, not both with different text`);
		if (typeof item.agent !== "string" || item.agent.trim() === "") problems.push(`${where}: agent is required`);
		if (typeof item.task !== "string") problems.push(`${where}: task (or prompt) is required`);
		if (problems.length > 0) return undefined;
		return {
			agent: item.agent,
			task: item.task,
			taskName: item.task_name,
			cwd: item.cwd,
			model: item.model,
			effort: item.effort,
		};
	};
	let mode: CallMode;
	let items: Array<AgentTask | undefined>;
	if (single) {
		mode = "single";
		items = [toTask({ ...(args as ChildArgs) }, "single call")];
	} else if (args.tasks !== undefined) {
		mode = "parallel";
		if (args.tasks.length === 0) problems.push("tasks: give at least one task");
		if (args.tasks.length > limits.maxParallelTasks) {
			problems.push(
				`tasks: ${args.tasks.length} tasks given, at most ${limits.maxParallelTasks} are allowed per call (setting limits.max_parallel_tasks)`,
			);
		}
		items = args.tasks.map((item, i) => toTask(item, `tasks[${i}]`));
	} else {
		mode = "chain";
		const chain = args.chain ?? [];
		if (chain.length === 0) problems.push("chain: give at least one step");
		if (chain.length > limits.maxChainSteps)
			problems.push(`chain: ${chain.length} steps given, at most ${limits.maxChainSteps} are allowed`);
		items = chain.map((item, i) => toTask(item, `chain[${i}]`));
	}
	if (mode !== "single" && (args.model !== undefined || args.effort !== undefined || args.cwd !== undefined)) {
		problems.push(
			`${mode === "parallel" ? "tasks" : "chain"}: model, effort and cwd go inside each item, not at the top level`,
		);
	}
	if (problems.length > 0) throw new LaunchError(problems);
	return { mode, tasks: items as AgentTask[] };
}
