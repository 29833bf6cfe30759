/**
 * The `subagent` tool's argument schema (TypeBox; Pi validates it as JSON Schema). `prompt` is folded
 * into `task` by `prepareSubagentArguments` (DESIGN.md §1).
 */
import { type Static, Type } from "typebox";

/** A string enum as `{type:"string",enum:[…]}` (what pi-ai's StringEnum builds; some providers reject anyOf/const). */
function stringEnum<T extends string>(values: readonly T[], description: string) {
	return Type.Unsafe<T>({ type: "string", enum: [...values], description });
}

const agentScope = stringEnum(
	["user", "project", "both"] as const,
	'Where agent definitions are looked up: "user" (default), "project" (nearest .pi/agents) or "both" (project overrides user).',
);

const childFields = {
	agent: Type.String({ description: "Name of the agent definition to run." }),
	task: Type.String({
		description: "The text handed to the child. In a chain, {previous} is replaced by the prior step's answer.",
	}),
	task_name: Type.Optional(Type.String({ description: "Short label for this child in progress and results." })),
	cwd: Type.Optional(Type.String({ description: "Working directory of the child, relative to the current one." })),
	model: Type.Optional(
		Type.String({ description: "Model override (harness-native selector, e.g. provider/id for pi)." }),
	),
	effort: Type.Optional(
		Type.String({ description: "Effort / thinking level override (pi: off|minimal|low|medium|high|xhigh|max)." }),
	),
};

export const subagentSchema = Type.Object({
	agent: Type.Optional(Type.String({ description: "Single mode: the agent definition to run." })),
	task: Type.Optional(Type.String({ description: "Single mode: the text handed to the child (alias: prompt)." })),
	task_name: Type.Optional(Type.String({ description: "Single mode: short label for the child." })),
	cwd: Type.Optional(
		Type.String({ description: "Single mode: working directory of the child, relative to the current one." }),
	),
	model: childFields.model,
	effort: childFields.effort,
	tasks: Type.Optional(
		Type.Array(Type.Object(childFields), {
			description: "Parallel mode: children run at once (bounded); results come back in this order.",
		}),
	),
	chain: Type.Optional(
		Type.Array(Type.Object(childFields), {
			description: "Chain mode: steps run in order; {previous} in a step's task is the prior step's final answer.",
		}),
	),
	agentScope: Type.Optional(agentScope),
});

export type SubagentArgs = Static<typeof subagentSchema>;
export type ChildArgs = NonNullable<SubagentArgs["tasks"]>[number];

/**
 * Folds the documented alias `prompt` into `task`, at the top level and in `tasks` / `chain` items
 * (Pi runs `prepareArguments` before schema validation). When both are given, `prompt` is left in
 * place and `selectMode` reports the conflict unless they are equal.
 */
export function prepareSubagentArguments(raw: unknown): SubagentArgs {
	if (!raw || typeof raw !== "object") return raw as SubagentArgs;
	const fold = (value: unknown): unknown => {
		if (!value || typeof value !== "object" || Array.isArray(value)) return value;
		const { prompt, ...rest } = value as Record<string, unknown>;
		if (prompt === undefined) return value;
		if (rest.task === undefined || rest.task === prompt) return { ...rest, task: prompt };
		return value;
	};
	const args = fold(raw) as Record<string, unknown>;
	const items = (list: unknown) => (Array.isArray(list) ? list.map(fold) : list);
	return { ...args, tasks: items(args.tasks), chain: items(args.chain) } as SubagentArgs;
}
