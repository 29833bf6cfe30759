/**
 * What a finished graph run gives back (docs/graphs.md "Results"): the graph's `outputs` (JSON), one line
 * per node (status, harness, model from its own assistant messages, duration, usage, the reason of a
 * failure or skip, the native session id to resume it with `subagent`), and the bounded `details`.
 */
import type { ChildRun } from "../core/child-run.ts";
import {
	type BudgetStop,
	describeSkip,
	type GraphDetails,
	type GraphNodeDetails,
	type GraphPartDetails,
} from "../core/graph-details.ts";
import { printable } from "../core/printable.ts";
import { formatElapsed, formatUsage, sessionLine, unrecordedSessionLine } from "../ui/format.ts";
import { describeBudgetStop } from "./budget.ts";
import { nodeProgress, partDetails } from "./node-progress.ts";
import type { GraphRunState, NodeState } from "./run-state.ts";
import type { CompiledGraph } from "./validate.ts";
import { fillTemplate, type RefScope } from "./value-refs.ts";

/** Longest JSON of the outputs kept in `details`, bytes; the model's text always has them whole. */
export const MAX_DETAILS_OUTPUT_BYTES = 16_384;

/** The graph's outputs, and a note per output that has no value (its node did not complete). */
export function graphOutputs(
	graph: CompiledGraph,
	state: GraphRunState,
): { outputs: Record<string, unknown>; notes: string[] } {
	const scope: RefScope = { inputs: graph.inputs ?? {}, outputs: {} };
	for (const [key, node] of Object.entries(state.nodes)) {
		if (node.status === "completed") (scope.outputs as Record<string, unknown>)[key] = node.output;
	}
	const outputs: Record<string, unknown> = {};
	const notes: string[] = [];
	for (const { name, parts } of graph.outputs) {
		const filled = fillTemplate(parts, scope);
		if ("missing" in filled) notes.push(`outputs.${name}: no value (${filled.missing.join(", ")} not available)`);
		else outputs[name] = filled.raw;
	}
	return { outputs, notes };
}

/** One node's `details` entry, from its state and, while it runs, its child's live activity. */
export function nodeDetails(
	key: string,
	node: NodeState,
	graph: CompiledGraph,
	state: GraphRunState,
	children: ReadonlyMap<string, ChildRun>,
): GraphNodeDetails {
	const child = children.get(key);
	const compiled = graph.nodes.find((n) => n.key === key);
	const waitingOn =
		node.status === "waiting"
			? compiled?.dependsOn.filter((dep) => state.nodes[dep].status !== "completed")
			: undefined;
	const reason = node.status === "skipped" && node.skip ? describeSkip(node.skip) : node.error;
	const endedAt = node.endedAt;
	return {
		key,
		status: node.status,
		waitingOn: waitingOn && waitingOn.length > 0 ? waitingOn : undefined,
		reason,
		harness: node.harness ?? child?.harness,
		agent: node.agent ?? child?.agent,
		model: node.model,
		usage: node.usage,
		startedAt: node.startedAt,
		durationMs: node.startedAt !== undefined && endedAt !== undefined ? endedAt - node.startedAt : undefined,
		activity: node.status === "running" ? child?.result?.activity : undefined,
		nativeSessionId: node.nativeSessionId,
		attempts: node.attempts,
		kind: compiled && compiled.node.kind !== "agent" ? compiled.node.kind : undefined,
		progress: nodeProgress(compiled, node),
		parts: partDetails(key, node, children),
		note: node.note,
	};
}

/** The `details` of a graph run, live or final (bounded: nodes carry no answers). */
export function graphDetails(
	name: string,
	graph: CompiledGraph,
	state: GraphRunState,
	children: ReadonlyMap<string, ChildRun>,
	outputs?: Record<string, unknown>,
): GraphDetails {
	const nodes = Object.entries(state.nodes).map(([key, node]) => nodeDetails(key, node, graph, state, children));
	const json = outputs === undefined ? undefined : JSON.stringify(outputs);
	const bounded =
		json !== undefined && Buffer.byteLength(json) > MAX_DETAILS_OUTPUT_BYTES
			? { truncated: `${json.slice(0, MAX_DETAILS_OUTPUT_BYTES)}…` }
			: outputs;
	return {
		graph: name,
		nodes,
		outputs: bounded,
		budgetStop: state.budgetStop,
		error: state.infrastructureError,
	};
}

/** `failed (exhausted)`, `failed (declined)`: a failure whose reason names its kind; else the status. */
function statusText(node: { status: string; reason?: string }): string {
	if (node.status === "skipped") return `skipped (${node.reason})`;
	const named = node.status === "failed" ? /^(exhausted|declined)\b/.exec(node.reason ?? "") : null;
	return named ? `failed (${named[1]})` : node.status;
}

/** The child parts of a line (escaped with the line): who ran, the model, duration, usage, attempts and the session to resume. */
function childParts(run: GraphNodeDetails | GraphPartDetails, started: boolean): string[] {
	const parts: string[] = [];
	if (run.harness) parts.push(run.agent ? `${run.harness} ${run.agent}` : run.harness);
	if (started) parts.push(`model ${run.model ?? "unknown"}`);
	if (run.durationMs !== undefined) parts.push(formatElapsed(run.durationMs));
	const usage = run.usage ? formatUsage(run.usage) : "";
	if (usage) parts.push(usage);
	if ((run.attempts ?? 0) > 1) parts.push(`attempt ${run.attempts}`);
	// A node is never a resume, so its session has a launch record exactly when it completed.
	const id = run.nativeSessionId;
	if (id) parts.push(run.status === "completed" ? sessionLine(id) : unrecordedSessionLine(id, run.harness ?? "pi"));
	return parts;
}

/**
 * `- scan: completed · pi scout · model m · 2.1s · ↑1k ↓200 · session: <id>`; a coordinator's line gives
 * its progress (`5/5 ✓`, `round 3/5`) and note, then one indented line per part. Each line is `printable`
 * whole: a reason, progress (a parked question), note or name holds text a file or a command chose.
 */
function nodeLines(node: GraphNodeDetails): string[] {
	const coordinator = node.parts !== undefined;
	const parts = [statusText(node), ...(node.progress ? [node.progress] : [])];
	if (coordinator) {
		if (node.durationMs !== undefined) parts.push(formatElapsed(node.durationMs));
		const usage = node.usage ? formatUsage(node.usage) : "";
		if (usage) parts.push(usage);
	} else parts.push(...childParts(node, node.startedAt !== undefined && node.harness !== undefined));
	if (node.note) parts.push(node.note);
	const why = node.status === "failed" || node.status === "cancelled" ? (node.reason ? `: ${node.reason}` : "") : "";
	const rows = (node.parts ?? []).map((part) => {
		const reason = part.reason && part.status !== "completed" ? `: ${part.reason}` : "";
		const line = [statusText(part), ...childParts(part, part.harness !== undefined)].join(" · ");
		return printable(`  - ${part.name}: ${line}${reason}`);
	});
	return [printable(`- ${node.key}: ${parts.join(" · ")}${why}`), ...rows];
}

/**
 * The text the model receives for a finished run; `outputsText` is the outputs' JSON (bounded by the caller).
 * The head, each note and each node line are one line each (`printable`, SECURITY.md "Text from files and
 * children"); the outputs are the children's, passed on as JSON.
 */
export function graphResultText(
	details: GraphDetails,
	outputsText: string,
	notes: readonly string[],
	stops: Pick<GraphRunState, "cancelled" | "stopped" | "nodes">,
): string {
	const count = (status: string) => details.nodes.filter((node) => node.status === status).length;
	const done = count("completed");
	const head = [`agent_graph "${details.graph}": ${done}/${details.nodes.length} nodes completed`];
	if (details.error) head.push(`stopped by an infrastructure error: ${details.error}`);
	if (stops.cancelled) head.push(`cancelled (${stops.cancelled})`);
	else if (stops.stopped) head.push("stopped by request: no further node started");
	if (details.budgetStop) head.push(stopLine(details.budgetStop));
	const parked = Object.keys(stops.nodes).filter((key) => stops.nodes[key].parked);
	if (parked.length > 0) {
		head.push(
			`parked: ${parked.join(", ")} wait for an answer; the run stays unfinished until a session with a UI resumes it (agent_graph action "resume" with its run_id)`,
		);
	}
	const run = details.runId ? [`run_id: ${details.runId}`] : [];
	return [
		printable(head.join("; ")),
		"",
		`outputs: ${outputsText}`,
		...notes.map(printable),
		"",
		"nodes:",
		...details.nodes.flatMap(nodeLines),
		...run,
	].join("\n");
}

function stopLine(stop: BudgetStop): string {
	return `${describeBudgetStop(stop)}: no further node started`;
}
