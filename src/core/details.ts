/**
 * The `details` of a `subagent` tool result and the argument fields its call line shows: what the tool
 * (`tools/`) produces and the renderer (`ui/`) reads, so neither imports the other.
 */
import type { SendReceipt } from "./child-input.ts";
import type { CallMode, ChildRun } from "./child-run.ts";
import type { GraphDetails } from "./graph-details.ts";

/**
 * `details` of every `subagent` result, partial or final (docs/tools.md §Result details). Pi stores it in the
 * parent's session file, so each child is a bounded copy (`childDetails` in runs/: previews, counts, ids,
 * paths; the whole answer is in the artifact file).
 */
export interface SubagentDetails {
	mode: CallMode | "invalid";
	children: ChildRun[];
	/** Set when the call was refused before anything started. */
	error?: string;
	/** Background calls: the job that runs the children. */
	jobId?: string;
}

/** `customType` of the follow-up message that delivers a finished background job's result (rendered by it). */
export const JOB_MESSAGE_TYPE = "pi-native-subagents.job";

/** `stopped`: ended by a graceful stop; `cancelled`: killed (docs/background-jobs.md §Background jobs). */
export type JobStatus = "running" | "completed" | "failed" | "cancelled" | "stopped";

/** What a listing or a report shows of a background job (the job registry in `runs/` holds more). */
/** What a job runs: a `subagent` call's children, or an `agent_graph` run (its nodes' children). */
export type JobMode = CallMode | "graph";

export interface JobSummary {
	/** Short id, unique within this extension load; not a native session id. */
	id: string;
	mode: JobMode;
	/** e.g. `scout "find auth"` or `parallel: scout "a", worker: fix the…`. */
	label: string;
	/** ms since the Unix epoch. */
	startedAt: number;
	/** ms since the Unix epoch; set when the job has ended. */
	endedAt?: number;
	status: JobStatus;
	/** Live children while running; once ended, their bounded `details` copies. */
	children: ChildRun[];
	/** Why a cancelled job was cancelled (e.g. `the session was replaced (/new)`); absent for a plain cancel. */
	cancelReason?: string;
}

/**
 * `details` of a background job's follow-up message, and of the call that started it (children empty,
 * no status yet): rendered as the same cards as a foreground result.
 */
export interface JobDetails {
	mode: JobMode;
	/** Bounded (`childDetails`); empty in the call's own result. */
	children: ChildRun[];
	jobId: string;
	/** Graph jobs: the run's bounded details. */
	graph?: GraphDetails;
	/** Set in the follow-up: how the job ended, and its label. */
	status?: JobStatus;
	label?: string;
	cancelReason?: string;
}

/** `details` of a `subagent_jobs` result: the jobs concerned, their children bounded. */
export interface JobsToolDetails<J extends JobSummary = JobSummary> {
	jobs: J[];
	/** The receipt of a `send`. */
	receipt?: SendReceipt;
}

/** The fields of one child's arguments that name and preview it (a subset of the tool's arguments). */
export interface ChildCallPreview {
	agent?: string;
	roster_entry?: string;
	agent_type?: string;
	task?: string;
	task_name?: string;
	resume_session_id?: string;
}

/** The fields of a `subagent` call's arguments that its call line shows. */
export interface SubagentCallPreview extends ChildCallPreview {
	tasks?: ChildCallPreview[];
	chain?: ChildCallPreview[];
}
