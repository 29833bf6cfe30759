/**
 * What a background job is (docs/background-jobs.md §Background jobs): its record, status, stop outcome and the bounds of
 * their retention; the registry that runs them is `jobs.ts`.
 */
import type { StopReceipt } from "../core/child-input.ts";
import type { JobStatus, JobSummary } from "../core/details.ts";

export { JOB_MESSAGE_TYPE } from "../core/details.ts";
export { STOP_GRACE_MS } from "../core/graces.ts";
export type { JobStatus };

/** What a stop did: each asked child's receipt, and whether the grace ran out and the job was killed. */
export interface StopOutcome {
	receipts: Array<{ index: number; receipt: StopReceipt }>;
	killed: boolean;
}

/** A background job: what listings show (`JobSummary`), and its result text once ended. */
export interface Job extends JobSummary {
	/** Once ended: the same result text a foreground call returns (what `finish` returned). */
	resultText?: string;
}

/** Where the registry reports problems it cannot return (a delivery that threw). `error` must not throw. */
export interface JobLogger {
	error(message: string): void;
}

/**
 * Finished jobs kept for listing and `result`; the one that finished longest ago is forgotten first. A job
 * whose result a `wait` promised is kept on top of these until its result is read (`result`).
 */
export const MAX_FINISHED_JOBS = 20;

/** A job id: 8 hex characters (the start of a random UUID), as `Started background job <id>` gives it. */
export const JOB_ID_PATTERN = /^[0-9a-f]{8}$/;
