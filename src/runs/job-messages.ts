/**
 * The texts a background job reports with (docs/background-jobs.md §Background jobs): why a session shutdown cancelled
 * it, and its follow-up message.
 */
import type { Job } from "./jobs.ts";

/** Why running jobs are cancelled when the session shuts down (Pi's `session_shutdown` reason), for their reports. */
export function shutdownReason(reason: "quit" | "reload" | "new" | "resume" | "fork"): string {
	if (reason === "quit") return "the session ended";
	if (reason === "reload") return "the extensions were reloaded (/reload)";
	return `the session was replaced (/${reason})`;
}

/**
 * The follow-up message text of a finished job: status (and why it was cancelled) and usage line (Pi gives
 * extensions no way to add a background job's usage to the session totals, so it is stated here), then the
 * same result text a foreground call returns.
 */
export function jobMessage(job: Job, resultText: string, usageLine: string): string {
	const why = job.cancelReason ? ` (${job.cancelReason}; its children were stopped)` : "";
	return `Background job ${job.id} (${job.label}) ${job.status}${why}. Usage: ${usageLine}.\n\n${resultText}`;
}
