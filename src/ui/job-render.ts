/**
 * Background jobs drawn with the same cards as a foreground result (docs/background-jobs.md §Background
 * jobs): the follow-up message that reports a finished job (a message renderer) and the results of
 * `subagent_jobs`, collapsed and expanded.
 */
import type {
	AgentToolResult,
	MessageRenderOptions,
	Theme,
	ToolRenderResultOptions,
} from "@earendil-works/pi-coding-agent";
import { Container, Spacer, Text, TruncatedText } from "@earendil-works/pi-tui";
import type { JobDetails, JobStatus, JobSummary, JobsToolDetails } from "../core/details.ts";
import { renderCards } from "./card.ts";
import { formatElapsed, receiptInWords } from "./format.ts";

type Color = Parameters<Theme["fg"]>[0];

const STATUS_STYLE: Record<JobStatus, { icon: string; color: Color }> = {
	running: { icon: "⏳", color: "warning" },
	completed: { icon: "✓", color: "success" },
	failed: { icon: "✗", color: "error" },
	cancelled: { icon: "⊘", color: "error" },
	stopped: { icon: "⊘", color: "warning" },
};

/** `✓ background job 1a2b3c4d scout "find auth" completed · 12.5s` (the reason of a cancellation appended). */
export function jobHeadline(
	job: Pick<JobSummary, "id" | "label" | "status" | "cancelReason"> & { durationMs?: number },
	theme: Theme,
): string {
	const style = STATUS_STYLE[job.status];
	const why = job.cancelReason ? ` (${job.cancelReason})` : "";
	const took = job.durationMs === undefined ? "" : ` · ${formatElapsed(job.durationMs)}`;
	return `${theme.fg(style.color, style.icon)} ${theme.fg("toolTitle", theme.bold("background job"))} ${theme.fg("accent", job.id)} ${job.label} ${theme.fg("muted", `${job.status}${why}${took}`)}`;
}

/** Renders a finished job's follow-up message (`customType` JOB_MESSAGE_TYPE) as its children's cards. */
export function renderJobMessage(
	message: { content: unknown; details?: unknown },
	options: Pick<MessageRenderOptions, "expanded" | "outputPad">,
	theme: Theme,
): Container {
	const details = message.details as JobDetails | undefined;
	const container = new Container();
	if (!details?.status) {
		// An older report without a status: its text, as sent.
		const text = typeof message.content === "string" ? message.content : "(background job report)";
		container.addChild(new Text(text, options.outputPad, 0));
		return container;
	}
	const headline = jobHeadline(
		{
			id: details.jobId,
			label: details.label ?? details.mode,
			status: details.status,
			cancelReason: details.cancelReason,
		},
		theme,
	);
	container.addChild(new TruncatedText(headline, options.outputPad, 0));
	container.addChild(renderCards(details.children, { expanded: options.expanded, now: Date.now() }, theme));
	if (!options.expanded) container.addChild(new Text(theme.fg("muted", "(Ctrl+O to expand)"), 0, 0));
	return container;
}

/**
 * `renderResult` of `subagent_jobs`: the first line of the tool's answer (what it did or why it refused),
 * then each job concerned with its headline and its children's cards.
 */
export function renderJobsResult(
	result: AgentToolResult<JobsToolDetails | undefined>,
	options: ToolRenderResultOptions,
	theme: Theme,
): Container {
	const container = new Container();
	const first = result.content[0];
	const text = first?.type === "text" ? first.text : "";
	const jobs = result.details?.jobs ?? [];
	const receipt = result.details?.receipt;
	// A send's receipt in words; otherwise the answer's first line, unless it only lists the jobs below.
	const summary = receipt
		? receiptInWords(receipt)
		: jobs.length > 0 && text.startsWith("- ")
			? ""
			: (text.split("\n")[0] ?? "");
	if (summary) container.addChild(new TruncatedText(theme.fg("muted", summary), 0, 0));
	const now = Date.now();
	for (const [i, job] of jobs.entries()) {
		if (i > 0 || summary) container.addChild(new Spacer(1));
		const durationMs = (job.endedAt ?? now) - job.startedAt;
		container.addChild(new TruncatedText(jobHeadline({ ...job, durationMs }, theme), 0, 0));
		container.addChild(renderCards(job.children, { expanded: options.expanded, now }, theme));
	}
	if (jobs.length === 0 && !summary) container.addChild(new Text(theme.fg("muted", "No background jobs."), 0, 0));
	return container;
}
