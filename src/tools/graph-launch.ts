/**
 * What a new and a restored `agent_graph` run share (docs/graphs.md): the node launch environment read from
 * the calling session, and starting an accepted run in the foreground or as a background job.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { AgentScope } from "../config/agents.ts";
import type { EffectiveLimits } from "../config/effective-limits.ts";
import type { LaunchState } from "../config/extension-state.ts";
import type { ChildRun } from "../core/child-run.ts";
import type { CoordinatorCaps } from "../graph/compile-node.ts";
import type { GraphRunOutcome } from "../graph/engine.ts";
import type { NodeLaunchEnv } from "../graph/preflight.ts";
import { artifactDir, newArtifactCallId } from "../runs/artifacts.ts";
import { graphHeadline } from "../ui/graph-render.ts";
import { backgroundRefusal } from "./background.ts";
import { launchContextFor } from "./call-context.ts";
import { fleetGraphNodes } from "./graph-fleet.ts";
import { startGraphJob } from "./graph-job.ts";
import { type AcceptedGraph, finalResult, type GraphResult, graphLabel, runAccepted } from "./graph-run.ts";
import { abandonRun } from "./graph-runs.ts";
import { uiHumanHost } from "./human-host.ts";
import type { SubagentToolDeps } from "./subagent-tool.ts";

/** What node resolution reads from the calling session, read again at each use. */
export function graphLaunchEnv(
	deps: SubagentToolDeps,
	ctx: ExtensionContext,
	scope: AgentScope,
	limits: EffectiveLimits,
): NodeLaunchEnv {
	return {
		// Read again at each use: a node resolved at dispatch sees the configuration and agents as they are then.
		context: () => {
			const now = deps.state();
			return launchContextFor(deps, now, now.limits ?? limits, ctx);
		},
		rosterState: () => deps.state().roster,
		scope,
		sessions: deps.sessions,
		adapters: deps.adapters,
	};
}

/** The coordinators' caps from settings `graphs` (docs/settings.md §Graph runs). */
export function graphCaps(deps: SubagentToolDeps): CoordinatorCaps {
	const { graphs } = deps.state();
	return { maxIterations: graphs.max_iterations, maxNesting: graphs.max_nesting };
}

/**
 * What a new and a restored run check first: the configuration loaded, and (for a background run) a
 * background job allowed here (`checkBackgroundAllowed`).
 * @returns the session's state and limits, or why the run is refused (nothing started).
 */
export function graphStartCheck(
	deps: SubagentToolDeps,
	ctx: ExtensionContext,
	background: boolean,
): { state: LaunchState; limits: EffectiveLimits } | { refused: string } {
	const state = deps.state();
	const limits = state.limits;
	if (!limits) return { refused: state.refusal ?? "the configuration could not be loaded" };
	const host = { mode: ctx.mode, depth: state.depth.depth };
	const refused = background ? backgroundRefusal(host, deps.jobs, limits.maxBackgroundJobs) : undefined;
	return refused ? { refused } : { state, limits };
}

/** An accepted run from its parts, with a fresh artifact call id and the session's artifact folder. */
export function acceptGraph(parts: Omit<AcceptedGraph, "callId" | "artifacts">, sessionId: string): AcceptedGraph {
	return { ...parts, callId: newArtifactCallId(), artifacts: artifactDir(parts.deps.artifactRoot, sessionId) };
}

/** Runs an accepted graph in the foreground (its result is the tool's) or as a background job. */
export async function launchAccepted(
	accepted: AcceptedGraph,
	background: boolean,
	signal: AbortSignal | undefined,
	onUpdate: ((partial: GraphResult) => void) | undefined,
	ctx: ExtensionContext,
): Promise<GraphResult> {
	if (background) {
		const started = startGraphJob(accepted, ctx);
		// A new run that never got going is recorded as cancelled; a restored one stays as it was.
		if (started.isError && accepted.durable.initial) accepted.durable.lease.release();
		else if (started.isError) abandonRun(accepted.durable, "the background job could not start");
		return started;
	}
	const { deps, prepared } = accepted;
	let live: ChildRun[] = [];
	let nodes: ReadonlyMap<number, string> = new Map();
	// Listed while it runs, so the user can talk to its nodes' children (`/subagent-send`).
	const inputs = deps.inputs.open(accepted.callId, false, () => live);
	const label = graphLabel(prepared.name);
	const tracked = deps.fleet?.track({
		id: accepted.callId,
		origin: "graph",
		label,
		children: () => live,
		graphNode: fleetGraphNodes(accepted.durable.runs, accepted.durable.runId, () => nodes),
	});
	let outcome: GraphRunOutcome | undefined;
	try {
		outcome = await runAccepted(accepted, {
			signal,
			onChildren: (children, keys) => {
				live = children;
				nodes = keys;
			},
			onInput: inputs.onInput,
			human: uiHumanHost(ctx),
			onDetails: (details) =>
				onUpdate?.({ content: [{ type: "text", text: `agent_graph: ${graphHeadline(details.nodes)}` }], details }),
		});
	} finally {
		inputs.close();
		tracked?.end(live);
	}
	return finalResult(accepted, outcome);
}
