/**
 * The `agent_graph` tool (docs/graphs.md): the graph is prepared (definition, wiring, inputs, every node
 * pre-flighted through the launch layer `subagent` uses) and refused with every problem before anything
 * runs; then it runs in the foreground (live view, Escape cancels) or as a background job. Each node's
 * child runs through the same scheduler path as a `subagent` child: the session's one global limit,
 * launch records for resume, claimed native sessions.
 */
import type { ExtensionContext, ToolDefinition } from "@earendil-works/pi-coding-agent";
import type { Static } from "typebox";
import type { ChildRun } from "../core/child-run.ts";
import type { GraphDetails } from "../core/graph-details.ts";
import { LaunchError } from "../core/launch-error.ts";
import { Problems } from "../core/problems.ts";
import type { GraphRunOutcome } from "../graph/engine.ts";
import type { NodeLaunchEnv } from "../graph/preflight.ts";
import { prepareGraph } from "../graph/prepare.ts";
import { artifactDir, newArtifactCallId } from "../runs/artifacts.ts";
import { graphHeadline } from "../ui/graph-render.ts";
import { checkBackgroundAllowed } from "./background.ts";
import { launchContextFor } from "./call-context.ts";
import { startGraphJob } from "./graph-job.ts";
import { type AcceptedGraph, finalResult, type GraphResult, graphRefusal, runAccepted } from "./graph-run.ts";
import type { SubagentToolDeps } from "./subagent-tool.ts";
import { type graphSchema, graphToolInfo } from "./tool-info.ts";

type GraphArgs = Static<typeof graphSchema>;

/** The `agent_graph` tool definition, bound to this extension load (the same deps as `subagent`). */
export function createGraphTool(deps: SubagentToolDeps): ToolDefinition<typeof graphSchema, GraphDetails | undefined> {
	return {
		...graphToolInfo,
		async execute(_toolCallId, params, signal, onUpdate, ctx) {
			return executeGraph(deps, params, signal, onUpdate, ctx);
		},
	};
}

async function executeGraph(
	deps: SubagentToolDeps,
	params: GraphArgs,
	signal: AbortSignal | undefined,
	onUpdate: ((partial: GraphResult) => void) | undefined,
	ctx: ExtensionContext,
): Promise<GraphResult> {
	const state = deps.state();
	const limits = state.limits;
	if (!limits) return graphRefusal(state.refusal ?? "the configuration could not be loaded");
	const problems = new Problems();
	if (
		params.background &&
		!checkBackgroundAllowed({ mode: ctx.mode, depth: state.depth.depth }, deps.jobs, limits.maxBackgroundJobs, problems)
	) {
		return graphRefusal(new LaunchError(problems.list).message);
	}
	const env: NodeLaunchEnv = {
		// Read again at each use: a node resolved at dispatch sees the configuration and agents as they are then.
		context: () => {
			const now = deps.state();
			return launchContextFor(deps, now, now.limits ?? limits, ctx);
		},
		rosterState: () => deps.state().roster,
		scope: params.agentScope ?? "user",
		sessions: deps.sessions,
		adapters: deps.adapters,
	};
	const prepared = await prepareGraph({ graph: params.graph, name: params.name, inputs: params.inputs }, env, problems);
	if (!prepared) return graphRefusal(new LaunchError(problems.list).message);
	const accepted: AcceptedGraph = {
		prepared,
		env,
		deps,
		state,
		limits,
		callId: newArtifactCallId(),
		artifacts: artifactDir(deps.artifactRoot, ctx.sessionManager.getSessionId()),
	};
	if (params.background) return startGraphJob(accepted, ctx);
	let live: ChildRun[] = [];
	// Listed while it runs, so the user can talk to its nodes' children (`/subagent-send`).
	const inputs = deps.inputs.open(accepted.callId, false, () => live);
	const label = `graph "${prepared.name}"`;
	const tracked = deps.fleet?.track({ id: accepted.callId, origin: "graph", label, children: () => live });
	let outcome: GraphRunOutcome | undefined;
	try {
		outcome = await runAccepted(accepted, {
			signal,
			onChildren: (children) => {
				live = children;
			},
			onInput: inputs.onInput,
			onDetails: (details) =>
				onUpdate?.({ content: [{ type: "text", text: `agent_graph: ${graphHeadline(details.nodes)}` }], details }),
		});
	} finally {
		inputs.close();
		tracked?.end(live);
	}
	return finalResult(accepted, outcome);
}
