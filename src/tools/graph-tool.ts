/**
 * The `agent_graph` tool (docs/graphs.md): the graph is prepared (definition, wiring, inputs, every node
 * pre-flighted through the launch layer `subagent` uses) and refused with every problem before anything
 * runs; then it gets its durable run directory and runs in the foreground (live view, Escape cancels) or as
 * a background job. Each node's child runs through the same scheduler path as a `subagent` child: the
 * session's one global limit, launch records for resume, claimed native sessions. `action` other than
 * `run` is a control of a run (`graph-actions.ts`).
 */
import type { ExtensionContext, ToolDefinition } from "@earendil-works/pi-coding-agent";
import type { GraphDetails } from "../core/graph-details.ts";
import { LaunchError } from "../core/launch-error.ts";
import { Problems } from "../core/problems.ts";
import { prepareGraph } from "../graph/prepare.ts";
import { unreadFields } from "./action-fields.ts";
import { graphAction, refusedControl } from "./graph-actions.ts";
import { acceptGraph, graphCaps, graphLaunchEnv, graphStartCheck, launchAccepted } from "./graph-launch.ts";
import type { GraphResult } from "./graph-run.ts";
import { graphRefusal } from "./graph-run.ts";
import { type DurableRun, type GraphRuns, openNewRun } from "./graph-runs.ts";
import { GRAPH_ACTION_FIELDS, type GraphArgs, type graphParameters } from "./model-parameters.ts";
import type { SubagentToolDeps } from "./subagent-tool.ts";
import { graphToolInfo } from "./tool-info.ts";

/** The `agent_graph` tool definition, bound to this extension load (the same deps as `subagent`). */
export function createGraphTool(
	deps: SubagentToolDeps,
	runs: GraphRuns,
): ToolDefinition<typeof graphParameters, GraphDetails | undefined> {
	return {
		...graphToolInfo,
		async execute(_toolCallId, params, signal, onUpdate, ctx) {
			const action = params.action ?? "run";
			const unread = unreadFields("agent_graph", action, params, GRAPH_ACTION_FIELDS[action]);
			if (unread) return action === "run" ? graphRefusal(unread) : refusedControl(unread);
			if (params.action !== undefined && params.action !== "run") {
				return graphAction({ deps, runs, ctx }, params, signal, onUpdate);
			}
			return executeGraph(deps, runs, params, signal, onUpdate, ctx);
		},
	};
}

async function executeGraph(
	deps: SubagentToolDeps,
	runs: GraphRuns,
	params: GraphArgs,
	signal: AbortSignal | undefined,
	onUpdate: ((partial: GraphResult) => void) | undefined,
	ctx: ExtensionContext,
): Promise<GraphResult> {
	const checked = graphStartCheck(deps, ctx, params.background === true);
	if ("refused" in checked) return graphRefusal(checked.refused);
	const { state, limits } = checked;
	const problems = new Problems();
	const scope = params.agentScope ?? "user";
	const env = graphLaunchEnv(deps, ctx, scope, limits);
	const request = { graph: params.graph, name: params.name, inputs: params.inputs, caps: graphCaps(deps) };
	const prepared = await prepareGraph(request, env, problems);
	if (!prepared) return graphRefusal(new LaunchError(problems.list).message);
	const sessionId = ctx.sessionManager.getSessionId();
	let durable: DurableRun;
	try {
		durable = openNewRun(prepared, { agentDir: deps.agentDir, sessionId, cwd: ctx.cwd, agentScope: scope, runs });
	} catch (error) {
		return graphRefusal(`the run could not be recorded: ${(error as Error).message}`, prepared.name);
	}
	const accepted = acceptGraph({ prepared, env, deps, state, limits, durable }, sessionId);
	return launchAccepted(accepted, params.background === true, signal, onUpdate, ctx);
}
