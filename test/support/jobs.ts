/**
 * Helpers for end-to-end tests of background jobs driven through `subagent` and `subagent_jobs` in an
 * {@link E2eEnv}: gates for the fake model, starting a job, and waiting for a job's end or state.
 */
import { expect } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { JOB_MESSAGE_TYPE, type Job } from "../../src/runs/jobs.ts";
import type { JobsDetails } from "../../src/tools/jobs-tool.ts";
import type { E2eEnv } from "./e2e-env.ts";
import { textOf } from "./e2e-env.ts";
import type { RecordedRequest } from "./fake-model/index.ts";
import { waitUntil } from "./processes.ts";

/** A gate: `wait` resolves once `open()` was called. */
export function gate() {
	let open: () => void = () => {};
	const wait = new Promise<void>((resolve) => {
		open = resolve;
	});
	return { open, wait };
}

/** The user texts of a model request, in order. */
export const userTextsOf = (request: RecordedRequest | undefined) => request?.userTexts ?? [];

/** Job helpers bound to `env`'s session. */
export function jobHelpers(env: E2eEnv) {
	const jobs = (args: Record<string, unknown>) => env.session.callTool<JobsDetails>("subagent_jobs", args);

	/** Starts `subagent({ ...args, background: true })` and returns the job id. */
	const startJob = async (args: Record<string, unknown>): Promise<string> => {
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", { ...args, background: true });
		expect(isError, textOf(result)).toBe(false);
		return result.details.jobId as string;
	};

	/** Text of the messages that delivered job results so far. */
	const deliveries = (): string[] =>
		env.session
			.branch()
			.filter((entry) => entry.type === "custom_message" && entry.customType === JOB_MESSAGE_TYPE)
			.map((entry) => {
				const content = (entry as unknown as { content: string | Array<{ text?: string }> }).content;
				return typeof content === "string" ? content : content.map((part) => part.text ?? "").join("");
			});

	/** The job as listed once it has ended and its result message was delivered (and any turn it started settled). */
	const finished = async (jobId: string): Promise<Job> => {
		await waitUntil(
			() => deliveries().some((text) => text.includes(`Background job ${jobId} `)),
			`job ${jobId}'s result message`,
		);
		await env.session.waitForIdle();
		const listed = await jobs({});
		return listed.result.details.jobs.find((job) => job.id === jobId) as Job;
	};

	/** Lists the jobs until `check` holds for job `jobId` (one call at a time; the job must not end meanwhile). */
	const pollJob = (jobId: string, check: (job: Job) => boolean, what: string): Promise<void> =>
		waitUntil(async () => {
			const job = (await jobs({})).result.details.jobs.find((j) => j.id === jobId);
			return job !== undefined && check(job);
		}, what);

	return { jobs, startJob, deliveries, finished, pollJob };
}
