/**
 * The complete `subagent_jobs` argument schema (TypeBox), which every call is checked against
 * (`checkToolArguments`); the model sees the shorter `jobsParameters` (model-parameters.ts). Actions are
 * described in docs/background-jobs.md §Background jobs.
 * A data module (scripts/data-modules.mjs): it exports data only, which the bundle holds as values
 * (docs/design-notes.md §Start-up cost).
 */
import { type Static, Type } from "typebox";

/** `wait`'s default timeout, ms (60 s). */
export const DEFAULT_WAIT_MS = 60_000;
/** `wait`'s longest timeout, ms (30 min, the default child timeout). */
export const MAX_WAIT_MS = 30 * 60_000;

export const JOBS_ACTIONS = ["list", "cancel", "send", "stop", "wait", "result"] as const;
type JobsAction = (typeof JOBS_ACTIONS)[number];

export const jobsSchema = Type.Object(
	{
		action: Type.Optional(Type.Unsafe<JobsAction>({ type: "string", enum: [...JOBS_ACTIONS] })),
		job_id: Type.Optional(Type.String()),
		child: Type.Optional(Type.Union([Type.String(), Type.Number()])),
		text: Type.Optional(Type.String()),
		mode: Type.Optional(Type.Unsafe<"steer" | "follow_up">({ type: "string", enum: ["steer", "follow_up"] })),
		timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_WAIT_MS })),
	},
	{ additionalProperties: false },
);

export type JobsArgs = Static<typeof jobsSchema>;

/** The fields each action reads besides `action` (docs/tools.md §The subagent_jobs tool); any other is refused. */
export const JOBS_ACTION_FIELDS: Record<JobsAction, readonly (keyof JobsArgs)[]> = {
	list: [],
	cancel: ["job_id"],
	send: ["job_id", "child", "text", "mode"],
	stop: ["job_id"],
	wait: ["job_id", "timeout_ms"],
	result: ["job_id"],
};
