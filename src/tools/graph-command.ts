/**
 * `/graph <action> [run_id] [node]`: the `agent_graph` controls for the user (docs/graphs.md §Controls).
 * The answer is shown as a notification (an error for a refusal); `/graph resume <id>` of a stored run
 * resumes it as a background job (its result arrives as a follow-up message).
 */
import type { ExtensionCommandContext, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { graphAction } from "./graph-actions.ts";
import { graphsAtSessionStart } from "./graph-restore.ts";
import { type ActionScope, GraphRuns } from "./graph-runs.ts";
import { createGraphTool } from "./graph-tool.ts";
import { GRAPH_ACTION_FIELDS, GRAPH_ACTIONS, type GraphAction } from "./model-parameters.ts";
import type { SubagentToolDeps } from "./subagent-tool.ts";
import { GRAPH_COMMAND } from "./tool-info.ts";

const USAGE = `usage: /${GRAPH_COMMAND.name} list | status <run_id> | cancel <run_id> | skip <run_id> <node> | retry <run_id> <node> | pause <run_id> | resume <run_id>`;

/** How many words after the action it reads: its `run_id`, then its `node` (GRAPH_ACTION_FIELDS). */
const words = (action: GraphAction) =>
	GRAPH_ACTION_FIELDS[action].filter((field) => field === "run_id" || field === "node").length;

/** The command's handler. */
export async function handleGraphCommand(
	deps: SubagentToolDeps,
	runs: GraphRuns,
	args: string,
	ctx: ExtensionCommandContext,
): Promise<void> {
	const [action = "list", runId, node, ...rest] = args.trim().split(/\s+/).filter(Boolean);
	if (!GRAPH_ACTIONS.includes(action as GraphAction) || action === "run") {
		ctx.ui.notify(`${GRAPH_COMMAND.name}: ${USAGE}`, "error");
		return;
	}
	// A word the action does not read is refused, not ignored (`/graph cancel <id> <node>` cancels the whole run).
	const extra = [runId, node, ...rest].slice(words(action as GraphAction)).filter(Boolean);
	if (extra.length > 0) {
		ctx.ui.notify(`${GRAPH_COMMAND.name}: ${action} does not take "${extra.join(" ")}"; ${USAGE}`, "error");
		return;
	}
	const scope: ActionScope = { deps, runs, ctx };
	const result = await graphAction(
		scope,
		{ action: action as GraphAction, run_id: runId, node, background: true },
		undefined,
		undefined,
	);
	const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
	ctx.ui.notify(text, result.isError ? "error" : "info");
}

/**
 * The graph runs of one extension load: the `agent_graph` tool, `/graph`, and the session-start restore
 * (its notices and problems shown with `ctx.ui.notify`), sharing one registry of live runs.
 */
export function graphRuntime(deps: SubagentToolDeps) {
	const runs = new GraphRuns();
	return {
		tool: createGraphTool(deps, runs),
		command: (args: string, ctx: ExtensionCommandContext) => handleGraphCommand(deps, runs, args, ctx),
		/** At session shutdown, before jobs are cancelled (`GraphRuns.interrupt`). */
		interrupt: () => runs.interrupt(),
		/**
		 * Starts the session-start restore and returns at once: a restore may ask the user (a trust
		 * confirmation), and Pi's host takes no answer before its session start is over.
		 */
		atSessionStart(ctx: ExtensionContext): void {
			void graphsAtSessionStart({ deps, runs, ctx }).then(
				(report) => {
					for (const line of report.notices) ctx.ui.notify(`pi-native-subagents: ${line}`, "info");
					for (const line of report.problems) ctx.ui.notify(`pi-native-subagents: ${line}`, "error");
				},
				(error: unknown) =>
					ctx.ui.notify(`pi-native-subagents: graph runs at session start: ${String(error)}`, "error"),
			);
		},
	};
}
