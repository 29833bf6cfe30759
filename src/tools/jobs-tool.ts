/**
 * The `subagent_jobs` tool: lists background jobs (DESIGN.md §1 `background: true`) and cancels one.
 * Job state is memory-only and bounded (runtime-contracts: retention stays bounded; a job id is not a
 * native session id).
 */
import type { ToolDefinition } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import type { Job, JobRegistry } from "../runs/jobs.ts";
import { childLabel } from "./result-text.ts";

const jobsSchema = Type.Object(
	{
		action: Type.Optional(
			Type.Unsafe<"list" | "cancel">({
				type: "string",
				enum: ["list", "cancel"],
				description: '"list" (default) shows the jobs; "cancel" stops job_id and kills its children.',
			}),
		),
		job_id: Type.Optional(Type.String({ description: "The job to cancel." })),
	},
	{ additionalProperties: false },
);

export interface JobsDetails {
	jobs: Job[];
}

/** The `subagent_jobs` tool definition over this extension load's jobs. */
export function createJobsTool(jobs: JobRegistry): ToolDefinition<typeof jobsSchema, JobsDetails> {
	return {
		name: "subagent_jobs",
		label: "Subagent jobs",
		description:
			"List background sub-agent jobs started with subagent({ background: true }), or cancel one (action: cancel, job_id).",
		promptSnippet: "List or cancel background sub-agent jobs",
		parameters: jobsSchema,
		async execute(_toolCallId, params) {
			if (params.action === "cancel") {
				if (!params.job_id) {
					return { content: [{ type: "text", text: "cancel needs job_id" }], details: { jobs: [] }, isError: true };
				}
				const cancelled = await jobs.cancel(params.job_id);
				const job = jobs.get(params.job_id);
				if (!cancelled) {
					const why = job ? `it is already ${job.status}` : "there is no such job";
					return {
						content: [{ type: "text", text: `job ${params.job_id} was not cancelled: ${why}` }],
						details: { jobs: job ? [job] : [] },
						isError: true,
					};
				}
				return {
					content: [{ type: "text", text: `job ${params.job_id} cancelled; its children were stopped` }],
					details: { jobs: job ? [job] : [] },
				};
			}
			const list = jobs.list();
			const text = list.length === 0 ? "No background jobs." : list.map(describeJob).join("\n");
			return { content: [{ type: "text", text }], details: { jobs: list } };
		},
	};
}

function describeJob(job: Job): string {
	const seconds = (((job.endedAt ?? Date.now()) - job.startedAt) / 1000).toFixed(1);
	const children = job.children.map((child) => `${childLabel(child)}: ${child.phase}`).join(", ");
	return `- ${job.id} ${job.label}: ${job.status} (${seconds} s)${children ? ` — ${children}` : ""}`;
}
