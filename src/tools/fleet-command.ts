/**
 * `/subagents` (the fleet view) and `/subagent-jobs [cancel|stop <id>]` (docs/background-jobs.md §The fleet
 * view): the user watches, steers, stops and reads the session's children without a model turn. The
 * view is `ui/fleet-view.ts`; this module gives it the actions, over the fleet, the jobs, the input
 * channels of running calls and the interactive runs.
 */
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import type { FleetActions, FleetEntry } from "../core/fleet.ts";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import type { Harness } from "../core/launch-spec.ts";
import { Problems } from "../core/problems.ts";
import type { InteractiveRuns } from "../interactive/interactive-runs.ts";
import { describeFailure } from "../runs/delivery.ts";
import type { Fleet } from "../runs/fleet.ts";
import type { JobRegistry } from "../runs/jobs.ts";
import type { LiveInputs } from "../runs/live-inputs.ts";
import { childTitle } from "../ui/card.ts";
import { type FleetOutcome, FleetView } from "../ui/fleet-view.ts";
import { formatElapsed, outcomeCounts, receiptInWords } from "../ui/format.ts";
import { attachTerminal } from "./attach-command.ts";
import { FLEET_COMMAND, JOBS_COMMAND } from "./tool-info.ts";

/** What the fleet commands work over. */
export interface FleetDeps {
	fleet: Fleet;
	jobs: JobRegistry;
	inputs: LiveInputs;
	adapters: Partial<Record<Harness, HarnessAdapter>>;
	interactive?: InteractiveRuns;
}

export { receiptInWords };

/** The fleet view's actions over `deps`. */
export function fleetActions(deps: FleetDeps): FleetActions {
	const channel = (entry: FleetEntry) => deps.inputs.get(entry.callId)?.channels.get(entry.child.index);
	return {
		sessionFile: (entry) => {
			const id = entry.child.result?.nativeSessionId;
			return id ? deps.adapters[entry.child.harness]?.sessionFile?.(id) : undefined;
		},
		async steer(entry, text) {
			const found = channel(entry);
			if (!found) return `not sent: ${entry.key} has no input channel (it is ${entry.child.phase})`;
			return receiptInWords(await found.send(text, "steer"));
		},
		stopPrompt: (entry) => {
			const graphNode = entry.graphNode;
			if (graphNode) return `skip node "${graphNode.node}" of graph run ${graphNode.runId} (a running node is killed)`;
			return entry.origin === "background"
				? `cancel background job ${entry.callId} (${entry.callLabel}) and all its children`
				: `stop ${entry.key} (ask ${childTitle(entry.child, 30)} to end its turn)`;
		},
		async stop(entry) {
			// A graph node is skipped through its run's controls (`/graph skip`), never only its child's turn.
			if (entry.graphNode) return entry.graphNode.skip();
			if (entry.origin === "background") {
				const cancelled = await deps.jobs.cancel(entry.callId);
				return cancelled
					? `job ${entry.callId} cancelled; its children were stopped`
					: `job ${entry.callId} was not running`;
			}
			const found = channel(entry);
			if (!found) return `not stopped: ${entry.key} has no input channel (it is ${entry.child.phase})`;
			return receiptInWords(await found.stop());
		},
		result: (entry) => resultOf(deps, entry),
	};
}

/** The job's result text once it ended, else the child's answer or failure so far. */
function resultOf(deps: FleetDeps, entry: FleetEntry): string {
	const job = entry.origin === "background" ? deps.jobs.get(entry.callId) : undefined;
	if (job?.resultText) return job.resultText;
	const result = entry.child.result;
	if (!result) return entry.child.error ?? `${entry.key} has not started`;
	const answer = result.finalAnswer || "(no text answer yet)";
	if (result.status === "running" || result.status === "completed") return answer;
	return `${describeFailure(result)}\n\nPartial output:\n${answer}`;
}

/** `/subagents`: opens the fleet view; attaching closes it and hands the terminal to the child's tmux session. */
export async function handleFleetCommand(deps: FleetDeps, ctx: ExtensionCommandContext): Promise<void> {
	if (!ctx.hasUI) {
		ctx.ui.notify(`/${FLEET_COMMAND.name} needs Pi's TUI; /${JOBS_COMMAND.name} lists the background jobs`, "error");
		return;
	}
	const actions = fleetActions(deps);
	const outcome = await ctx.ui.custom<FleetOutcome>(
		(tui, theme, _keybindings, done) =>
			new FleetView(
				() => deps.fleet.entries(),
				actions,
				theme,
				{ requestRender: () => tui.requestRender(), rows: () => tui.terminal.rows },
				done,
			),
	);
	const session = outcome?.attach?.child.result?.interactive?.session;
	if (!session || !deps.interactive) return;
	const problems = new Problems(`/${FLEET_COMMAND.name}`);
	const target = await deps.interactive.attachTarget(session, problems);
	// The command's boundary: its problems become the one notice the user sees.
	if (!target) ctx.ui.notify(problems.list.join("\n"), "error");
	else await attachTerminal(target, ctx);
}

/** `/subagent-jobs`: lists the jobs; `/subagent-jobs cancel <id>` kills one, `stop <id>` stops one gracefully. */
export async function handleJobsCommand(deps: FleetDeps, args: string, ctx: ExtensionCommandContext): Promise<void> {
	const [action = "", id = "", ...rest] = args.trim().split(/\s+/);
	const name = `/${JOBS_COMMAND.name}`;
	if (action === "") {
		const jobs = deps.jobs.list();
		const lines = jobs.map((job) => {
			const took = formatElapsed((job.endedAt ?? Date.now()) - job.startedAt);
			const counts = outcomeCounts(job.children.map((child) => child.phase));
			return `${job.id} ${job.label} · ${job.status} · ${took}${counts ? ` · ${counts}` : ""}`;
		});
		ctx.ui.notify(jobs.length === 0 ? `${name}: no background jobs` : [`${name}:`, ...lines].join("\n"), "info");
		return;
	}
	if ((action !== "cancel" && action !== "stop") || !id || rest.length > 0) {
		ctx.ui.notify(`usage: ${name} [cancel <job id> | stop <job id>]`, "error");
		return;
	}
	const job = deps.jobs.get(id);
	if (job?.status !== "running") {
		ctx.ui.notify(`${name}: ${job ? `job ${id} is already ${job.status}` : `there is no job ${id}`}`, "error");
		return;
	}
	if (action === "cancel") {
		await deps.jobs.cancel(id);
		ctx.ui.notify(`${name}: job ${id} cancelled; its children were stopped`, "info");
		return;
	}
	const outcome = await deps.jobs.stop(id);
	const end = outcome?.killed
		? "children that could not be asked, or did not end their turn in time, were killed"
		: "every child ended its turn";
	ctx.ui.notify(`${name}: job ${id} stopped (${end})`, "info");
}
