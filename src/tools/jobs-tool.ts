/**
 * The `subagent_jobs` tool: lists background jobs (README.md "Background jobs"), cancels one, sends a
 * running child a message, or stops a job gracefully (README.md "Talking to running children"). Job state
 * is memory-only and bounded (docs/rules.md §Background jobs: retention stays bounded; a job id is not a
 * native session id).
 */
import type { AgentToolResult, ToolDefinition } from "@earendil-works/pi-coding-agent";
import type { SendReceipt } from "../core/child-input.ts";
import type { Job, JobRegistry, StopOutcome } from "../runs/jobs.ts";
import { childLabel } from "./result-text.ts";
import { jobsToolInfo } from "./tool-info.ts";

export interface JobsDetails {
	jobs: Job[];
	/** The receipt of a `send`. */
	receipt?: SendReceipt;
	/** What a `stop` did. */
	stop?: StopOutcome;
}

type JobsResult = AgentToolResult<JobsDetails>;

function reply(text: string, details: JobsDetails, isError = false): JobsResult {
	return { content: [{ type: "text", text }], details, ...(isError ? { isError } : {}) };
}

/** The `subagent_jobs` tool definition over this extension load's jobs. */
export function createJobsTool(jobs: JobRegistry): ToolDefinition<typeof jobsToolInfo.parameters, JobsDetails> {
	return {
		...jobsToolInfo,
		async execute(_toolCallId, params) {
			const action = params.action ?? "list";
			if (action === "list") {
				const list = jobs.list();
				return reply(list.length === 0 ? "No background jobs." : list.map(describeJob).join("\n"), { jobs: list });
			}
			const id = params.job_id;
			if (!id) return reply(`${action} needs job_id`, { jobs: [] }, true);
			if (action === "send") return send(jobs, id, params);
			if (action === "stop") return stop(jobs, id);
			const cancelled = await jobs.cancel(id);
			const job = jobs.get(id);
			if (!cancelled) {
				const why = job ? `it is already ${job.status}` : "there is no such job";
				return reply(`job ${id} was not cancelled: ${why}`, { jobs: job ? [job] : [] }, true);
			}
			return reply(`job ${id} cancelled; its children were stopped`, { jobs: job ? [job] : [] });
		},
	};
}

async function send(
	jobs: JobRegistry,
	id: string,
	params: { child?: string | number; text?: string; mode?: "steer" | "follow_up" },
): Promise<JobsResult> {
	const receipt = await jobs.send(id, params.child, params.text ?? "", params.mode ?? "steer");
	const job = jobs.get(id);
	return reply(describeReceipt(receipt), { jobs: job ? [job] : [], receipt }, receipt.status === "refused");
}

async function stop(jobs: JobRegistry, id: string): Promise<JobsResult> {
	const outcome = await jobs.stop(id);
	const job = jobs.get(id);
	if (!outcome) {
		const why = job ? `it is already ${job.status}` : "there is no such job";
		return reply(`job ${id} was not stopped: ${why}`, { jobs: job ? [job] : [] }, true);
	}
	const asked = outcome.receipts.map(({ index, receipt }) =>
		receipt.status === "requested" ? `child ${index}: ${receipt.ack}` : `child ${index}: refused (${receipt.message})`,
	);
	const end = outcome.killed ? "the grace period ran out; the rest was killed" : "every child ended its turn";
	return reply(`job ${id} stopped (${end}). ${asked.join("; ")}`, { jobs: job ? [job] : [], stop: outcome });
}

/** One line for a receipt: its status, then the child's acknowledgement or the refusal's reason. */
export function describeReceipt(receipt: SendReceipt): string {
	if (receipt.status === "refused") return `refused (${receipt.reason}): ${receipt.message}`;
	return `${receipt.status} (${receipt.inputId}): ${receipt.ack}`;
}

function describeJob(job: Job): string {
	const seconds = (((job.endedAt ?? Date.now()) - job.startedAt) / 1000).toFixed(1);
	const children = job.children.map((child) => `${childLabel(child)}: ${child.phase}`).join(", ");
	return `- ${job.id} ${job.label}: ${job.status} (${seconds} s)${children ? ` — ${children}` : ""}`;
}
