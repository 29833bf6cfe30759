/**
 * What a background job is (docs/background-jobs.md §Background jobs): its record, status, stop outcome and the bounds of
 * their retention; the registry that runs them is `jobs.ts`.
 */
import type { StopReceipt } from "../core/child-input.ts";
import type { CallMode, ChildRun } from "../core/child-run.ts";

/** `customType` of the follow-up message that delivers a finished job's result. */
export const JOB_MESSAGE_TYPE = "pi-native-subagents.job";

/** `stopped`: ended by a graceful stop (`stop`); `cancelled`: killed (`cancel`). */
export type JobStatus = "running" | "completed" | "failed" | "cancelled" | "stopped";

/** How long a graceful stop waits for the children to end their turns before killing them, ms. */
export const STOP_GRACE_MS = 5_000;

/** What a stop did: each asked child's receipt, and whether the grace ran out and the job was killed. */
export interface StopOutcome {
	receipts: Array<{ index: number; receipt: StopReceipt }>;
	killed: boolean;
}

export interface Job {
	/** Short id, unique within this extension load. */
	id: string;
	mode: CallMode;
	/** e.g. `scout "find auth"` or `parallel (3 tasks)`. */
	label: string;
	/** ms since the Unix epoch. */
	startedAt: number;
	/** ms since the Unix epoch; set when the job has ended. */
	endedAt?: number;
	status: JobStatus;
	/** Live children while running; once ended, their bounded `details` copies (`childDetails`). */
	children: ChildRun[];
	/** Why a cancelled job was cancelled (e.g. `the session was replaced (/new)`); absent for a plain cancel. */
	cancelReason?: string;
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
