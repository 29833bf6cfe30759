/**
 * The `subagent_jobs` tool (docs/background-jobs.md §Background jobs, §Talking to running children): lists background
 * jobs, cancels one, sends a running child a message, stops a job gracefully, waits for one without
 * cancelling it, and reads a finished job's result again. Nothing here consumes a result. Job state is
 * memory-only and bounded (docs/rules.md §Background jobs); a job id is not a native session id.
 */
import type { AgentToolResult, ToolDefinition } from "@earendil-works/pi-coding-agent";
import { overLimit } from "../core/bounds.ts";
import type { SendReceipt } from "../core/child-input.ts";
import type { JobsToolDetails } from "../core/details.ts";
import { printable } from "../core/printable.ts";
import { childDetails } from "../runs/child-details.ts";
import { JOB_ID_PATTERN, type Job, type JobRegistry, MAX_FINISHED_JOBS, type StopOutcome } from "../runs/jobs.ts";
import { childTitle } from "../ui/card.ts";
import { dialogWait, phaseLabel } from "../ui/format.ts";
import { unreadFields } from "./action-fields.ts";
import { checkToolArguments } from "./check-arguments.ts";
import { DEFAULT_WAIT_MS, JOBS_ACTION_FIELDS, jobsSchema } from "./jobs-schema.ts";
import { jobsToolInfo } from "./tool-info.ts";

/** `details` of every `subagent_jobs` result: the jobs concerned, their children bounded (`childDetails`). */
export interface JobsDetails extends JobsToolDetails<Job> {
	/** What a `stop` did. */
	stop?: StopOutcome;
}

type JobsResult = AgentToolResult<JobsDetails>;

function reply(text: string, details: JobsDetails, isError = false): JobsResult {
	const bounded = { ...details, jobs: details.jobs.map(jobDetails) };
	return { content: [{ type: "text", text }], details: bounded, ...(isError ? { isError } : {}) };
}

/** A job as `details` carries it: its children bounded, its result text left to `result`. */
function jobDetails(job: Job): Job {
	const { resultText: _text, ...rest } = job;
	return { ...rest, children: job.children.map(childDetails) };
}

/** The `subagent_jobs` tool definition over this extension load's jobs. */
export function createJobsTool(jobs: JobRegistry): ToolDefinition<typeof jobsToolInfo.parameters, JobsDetails> {
	return {
		...jobsToolInfo,
		async execute(_toolCallId, raw, signal) {
			const checked = checkToolArguments("subagent_jobs", jobsSchema, raw);
			if ("error" in checked) return reply(checked.error, { jobs: [] }, true);
			const params = checked.value;
			const action = params.action ?? "list";
			const unused = unreadFields("subagent_jobs", action, params, JOBS_ACTION_FIELDS[action]);
			if (unused) return reply(unused, { jobs: [] }, true);
			if (action === "list") {
				const list = jobs.list();
				return reply(list.length === 0 ? "No background jobs." : list.map(describeJob).join("\n"), { jobs: list });
			}
			const rawId = params.job_id;
			if (!rawId) return reply(`${action} needs job_id`, { jobs: [] }, true);
			// Shown in every reply: one visible line. A job id (hex) has nothing to escape, so lookups are unchanged.
			const id = printable(rawId);
			const tooLong = [
				overLimit("job_id", rawId),
				typeof params.child === "string" ? overLimit("child", params.child) : undefined,
				params.text === undefined ? undefined : overLimit("task", params.text, "text"),
			].filter((problem) => problem !== undefined);
			if (tooLong.length > 0) return reply(`subagent_jobs: ${tooLong.join("; ")}`, { jobs: [] }, true);
			if (action === "send") return send(jobs, id, params);
			if (action === "stop") return stop(jobs, id);
			if (action === "wait") return waitForJob(jobs, id, params.timeout_ms ?? DEFAULT_WAIT_MS, signal);
			if (action === "result") return jobResult(jobs, id);
			const cancelled = await jobs.cancel(id);
			const job = jobs.get(id);
			if (!cancelled) {
				const why = job ? `it is already ${job.status}` : `there is no such job${notAJobId(id)}`;
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
		const why = job ? `it is already ${job.status}` : `there is no such job${notAJobId(id)}`;
		return reply(`job ${id} was not stopped: ${why}`, { jobs: job ? [job] : [] }, true);
	}
	const asked = outcome.receipts.map(({ index, receipt }) =>
		receipt.status === "requested" ? `child ${index}: ${receipt.ack}` : `child ${index}: refused (${receipt.message})`,
	);
	const end = outcome.killed ? "the grace period ran out; the rest was killed" : "every child ended its turn";
	return reply(`job ${id} stopped (${end}). ${asked.join("; ")}`, { jobs: job ? [job] : [], stop: outcome });
}

function unknownJob(id: string): JobsResult {
	const kept = `only the last ${MAX_FINISHED_JOBS} finished jobs are kept`;
	return reply(`there is no job ${id} (${kept})${notAJobId(id)}`, { jobs: [] }, true);
}

/** For an id no job could have (a native session id, say): what a job id is, and where a session id goes. */
function notAJobId(id: string): string {
	if (JOB_ID_PATTERN.test(id)) return "";
	return `; a job id is the 8 hex characters of "Started background job <id>", and a native session id is no job id (resume a session with subagent's resume_session_id)`;
}

async function waitForJob(
	jobs: JobRegistry,
	id: string,
	timeoutMs: number,
	signal: AbortSignal | undefined,
): Promise<JobsResult> {
	const started = Date.now();
	const job = await jobs.wait(id, timeoutMs, signal);
	if (!job) return unknownJob(id);
	if (job.status === "running") {
		const why = signal?.aborted
			? `is still running: the wait was aborted after ${Date.now() - started} ms`
			: `is still running after ${timeoutMs} ms`;
		return reply(`job ${id} ${why}; it was not cancelled\n${describeJob(job)}`, { jobs: [job] });
	}
	return reply(
		`job ${id} ${job.status}; its processes are gone. Its result arrives as a follow-up message; action "result" shows it now.\n${describeJob(job)}`,
		{ jobs: [job] },
	);
}

function jobResult(jobs: JobRegistry, id: string): JobsResult {
	const job = jobs.readResult(id);
	if (!job) return unknownJob(id);
	if (job.status === "running")
		return reply(`job ${id} is still running; action "wait" waits for it`, { jobs: [job] }, true);
	return reply(`Background job ${id} (${job.label}) ${job.status}.\n\n${job.resultText ?? "(no result text)"}`, {
		jobs: [job],
	});
}

/** One line for a receipt: its status, then the child's acknowledgement or the refusal's reason. */
export function describeReceipt(receipt: SendReceipt): string {
	if (receipt.status === "refused") return `refused (${receipt.reason}): ${receipt.message}`;
	return `${receipt.status} (${receipt.inputId}): ${receipt.ack}`;
}

function describeJob(job: Job): string {
	const seconds = (((job.endedAt ?? Date.now()) - job.startedAt) / 1000).toFixed(1);
	const children = job.children
		.map((child) => {
			const wait = child.phase === "running" ? dialogWait(child.result) : undefined;
			return `${childTitle(child, 40)} (${phaseLabel(child.phase)}${wait ? `: ${wait}` : ""})`;
		})
		.join(", ");
	return `- ${job.id} ${job.label}: ${job.status} (${seconds} s)${children ? ` — ${children}` : ""}`;
}
