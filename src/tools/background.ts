/**
 * The background branch of the `subagent` tool (docs/background-jobs.md §Background jobs): when a job may start, starting
 * it, its job-end notice, and its one report as a follow-up message.
 */
import type {
	AgentToolResult,
	ExtensionAPI,
	ExtensionContext,
	ExtensionUIContext,
} from "@earendil-works/pi-coding-agent";
import type { CallMode } from "../core/child-run.ts";
import { JOB_MESSAGE_TYPE, type JobDetails } from "../core/details.ts";
import { LaunchError } from "../core/launch-error.ts";
import { Problems } from "../core/problems.ts";
import { childDetails } from "../runs/child-details.ts";
import type { OutputCaps } from "../runs/delivery.ts";
import type { Fleet, FleetTrack } from "../runs/fleet.ts";
import { jobMessage } from "../runs/job-messages.ts";
import type { Job, JobLogger, JobRegistry } from "../runs/jobs.ts";
import { formatUsageTotals } from "../ui/format.ts";
import type { PendingJobUsage } from "./job-usage.ts";
import { buildResultText, sumUsage, totalUsage } from "./result-text.ts";

export type { JobDetails };

/** How a job's report reaches the session that started it. */
export interface JobDelivery {
	jobs: JobRegistry;
	/** Where the user's fleet view finds the job's children (`/subagents`). */
	fleet?: Fleet;
	/**
	 * Sends the report as a follow-up message. `display: false` in silent mode (the model still gets it).
	 * A cancelled job's report starts no turn.
	 */
	deliverJob(job: Job, message: string, details: JobDetails, display: boolean): void;
}

/** The host a background job would report to: Pi's mode and this session's delegation depth (0 at the root). */
export interface BackgroundHost {
	mode: ExtensionContext["mode"];
	depth: number;
}

/**
 * Checks that a background job may start now: the host stays open to receive its result (not `pi -p` or
 * `--mode json`, and not a sub-agent in RPC mode: its parent closes its stdin once its turn ends, and it then
 * shuts down with its jobs), the session is not shutting down, and fewer than `maxJobs` jobs run. Adds each
 * reason it may not to `problems` (docs/rules.md §Background jobs).
 * @param maxJobs running jobs allowed at once (setting `limits.max_background_jobs`).
 * @returns true when the job may start.
 */
export function checkBackgroundAllowed(
	host: BackgroundHost,
	jobs: JobRegistry,
	maxJobs: number,
	problems: Problems,
): boolean {
	const before = problems.size;
	const closesAfterTurn =
		host.mode === "print" || host.mode === "json"
			? `pi runs in ${host.mode} mode (${host.mode === "print" ? "-p" : "--mode json"}), which ends after this turn`
			: host.mode === "rpc" && host.depth > 0
				? `this pi is a sub-agent at depth ${host.depth} in RPC mode, whose parent closes its input once this turn ends, so it shuts down before a follow-up could arrive`
				: undefined;
	if (closesAfterTurn) {
		problems.add(
			`background: true needs a session that stays open to receive the result, but ${closesAfterTurn}; run the call without background (it then returns its result directly)`,
		);
	} else if (jobs.closed) problems.add("the session is shutting down; no background job can start");
	else if (jobs.running >= maxJobs) {
		problems.add(
			`${jobs.running} background jobs are running (the limit is ${maxJobs}, setting limits.max_background_jobs); wait for one with subagent_jobs (action "wait") or cancel one, then call again`,
		);
	}
	return problems.size === before;
}

/** `checkBackgroundAllowed` as one refusal message naming every reason, or `undefined` when a job may start. */
export function backgroundRefusal(host: BackgroundHost, jobs: JobRegistry, maxJobs: number): string | undefined {
	const problems = new Problems();
	return checkBackgroundAllowed(host, jobs, maxJobs, problems) ? undefined : new LaunchError(problems.list).message;
}

export interface BackgroundCall {
	mode: CallMode;
	/** `scout "find auth"`, `parallel (3 tasks)`… */
	label: string;
	/** The job's run, as `JobRegistry.start` takes it. */
	run: Parameters<JobRegistry["start"]>[2];
	caps: OutputCaps;
	artifactDir: string;
	/** From `newArtifactCallId`; the job's artifacts are `<callId>-<job id>-<child>.md`. */
	callId: string;
	/** Whether a native session id has a launch record (see `buildResultText`). */
	recorded: (nativeSessionId: string) => boolean;
	/** Setting `silent`: no job-end notice, the report is not displayed (the model still gets it). */
	silent: boolean;
}

/** Starts `call` as a job and returns the tool result that announces it. */
export function startBackground(
	delivery: JobDelivery,
	call: BackgroundCall,
	ui: ExtensionUIContext,
): AgentToolResult<JobDetails & { mode: CallMode }> {
	const notices = call.silent ? undefined : ui;
	let tracked: FleetTrack | undefined;
	const job = delivery.jobs.start(call.mode, call.label, call.run, (finished, children, error) => {
		tracked?.end(children);
		const text = error
			? `failed: ${error}`
			: buildResultText(
					call.mode,
					children,
					call.caps,
					call.artifactDir,
					`${call.callId}-${finished.id}`,
					call.recorded,
				);
		const message = jobMessage(finished, text, formatUsageTotals(sumUsage(children)));
		const details: JobDetails = {
			mode: call.mode,
			children: children.map(childDetails),
			jobId: finished.id,
			status: finished.status,
			label: finished.label,
			...(finished.cancelReason ? { cancelReason: finished.cancelReason } : {}),
		};
		// Kept for `result` even if the delivery below throws (a host that went away without shutting down).
		finished.resultText = text;
		delivery.deliverJob(finished, message, details, !call.silent);
		// Notices are best effort: after a session switch the old UI may be gone.
		try {
			notices?.notify(
				`Background job ${finished.id} (${finished.label}) ${finished.status}`,
				finished.status === "completed" ? "info" : "warning",
			);
		} catch {
			// The report itself was delivered above.
		}
		return text;
	});
	tracked = delivery.fleet?.track({
		id: job.id,
		origin: "background",
		label: call.label,
		children: () => job.children,
		running: () => job.status === "running",
	});
	return {
		content: [
			{
				type: "text",
				text: `Started background job ${job.id}: ${call.label}. Its result will arrive as a follow-up message; subagent_jobs lists, waits for, reads or cancels jobs.`,
			},
		],
		details: { mode: call.mode, children: [], jobId: job.id },
	};
}

/**
 * How a finished job's report reaches the session: a follow-up message (`JOB_MESSAGE_TYPE`) that starts a
 * turn unless the job was cancelled or stopped, its usage joining the next tool result (`jobUsage`).
 */
export function jobDelivery(
	pi: Pick<ExtensionAPI, "sendMessage">,
	jobUsage: PendingJobUsage,
	refresh: () => void,
): JobDelivery["deliverJob"] {
	return (job, text, details, display) => {
		jobUsage.add(totalUsage(details.children));
		pi.sendMessage(
			{ customType: JOB_MESSAGE_TYPE, content: text, display, details },
			// A cancelled or stopped job ended on request or with its session: report it without starting a turn.
			{ triggerTurn: job.status !== "cancelled" && job.status !== "stopped", deliverAs: "followUp" },
		);
		refresh();
	};
}

/**
 * The job registry's logger: a UI error notice while the session that started the jobs has a UI, else a
 * line on stderr (also when that session's context is stale: used after a session switch or dispose).
 * Never throws.
 */
export function jobLogger(context: () => Pick<ExtensionContext, "hasUI" | "ui"> | undefined): JobLogger {
	return {
		error(message) {
			try {
				const current = context();
				if (current?.hasUI) return current.ui.notify(message, "error");
			} catch {
				// A stale context: fall through to stderr.
			}
			process.stderr.write(`${message}\n`);
		},
	};
}
