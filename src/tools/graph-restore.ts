/**
 * Restoring a graph run after a restart (docs/graphs.md §Durability): when the owning Pi session starts
 * again its unfinished runs are resumed (setting `graphs.auto_resume`, with a notice) or offered, and
 * `agent_graph({ action: "resume", run_id })` resumes one. Before anything runs the stored definition is
 * validated again and every node that still has to run is pre-flighted again against the current trust,
 * depth, roster and agent files (a node now refused fails the resume, before any spawn); settled nodes keep
 * their outcome and outputs. Runs of other sessions and ownerless ones are skipped silently; unreadable,
 * corrupt or unknown-version snapshots and refused run directories are reported, naming the file.
 */
import { dirname, resolve } from "node:path";
import { contentDigest } from "../config/agents.ts";
import { LaunchError } from "../core/launch-error.ts";
import { printable } from "../core/printable.ts";
import { Problems } from "../core/problems.ts";
import type { GraphDefinition } from "../graph/definition.ts";
import type { GraphOrigin } from "../graph/loader.ts";
import { parseGraphDefinition } from "../graph/parse-graph.ts";
import { prepareGraph } from "../graph/prepare.ts";
import { acquireLease } from "../graph/run-dir.ts";
import { pruneRuns } from "../graph/run-retention.ts";
import { applyEvent, isSettled } from "../graph/run-state.ts";
import { ownedBy, type RunSnapshot, RunStore, scanRuns } from "../graph/run-store.ts";
import { type CompiledGraph, compileGraph } from "../graph/validate.ts";
import { acceptGraph, graphCaps, graphLaunchEnv, graphStartCheck, launchAccepted } from "./graph-launch.ts";
import type { GraphResult } from "./graph-run.ts";
import { graphRefusal } from "./graph-run.ts";
import type { ActionScope } from "./graph-runs.ts";

/** A stored run's definition compiled again (no pre-flight: controls on a stored run only need its shape). */
export function compileStored(snapshot: RunSnapshot): { graph: CompiledGraph } | { refused: string } {
	const problems = new Problems();
	const definition = parseGraphDefinition(snapshot.graph.definition, problems);
	const subgraphs = new Map<string, { definition: GraphDefinition; file: string }>();
	for (const [name, raw] of Object.entries(snapshot.graph.subgraphs ?? {})) {
		const sub = parseGraphDefinition(raw, problems.at(`graph "${name}"`));
		if (sub) subgraphs.set(name, { definition: sub, file: `graph "${name}"` });
	}
	const graph = definition && compileGraph(definition, snapshot.graph.inputs, problems, { subgraphs });
	return graph ? { graph } : { refused: `the stored definition no longer validates: ${problems.list.join("; ")}` };
}

/**
 * Resumes a stored, unfinished run of this session in this process (foreground, or as a job).
 * @returns the run's result, or a refusal (nothing started) naming why.
 */
export async function restoreRun(
	scope: ActionScope,
	stored: { dir: string; snapshot: RunSnapshot },
	background: boolean,
	signal: AbortSignal | undefined,
	onUpdate: ((partial: GraphResult) => void) | undefined,
): Promise<GraphResult> {
	const { deps, ctx } = scope;
	const { snapshot } = stored;
	const refuse = (why: string) => graphRefusal(`run ${snapshot.runId} cannot resume: ${why}`, snapshot.graph.name);
	if (snapshot.finished) return refuse("the run has ended");
	if (snapshot.graph.cwd !== ctx.cwd) return refuse(`it ran in ${printable(snapshot.graph.cwd)}; resume it from there`);
	const checked = graphStartCheck(deps, ctx, background);
	if ("refused" in checked) return refuse(checked.refused);
	const { state, limits } = checked;
	const problems = new Problems();
	const sessionId = ctx.sessionManager.getSessionId();
	const lease = acquireLease(stored.dir, sessionId);
	if ("refused" in lease) return refuse(lease.refused);
	const env = graphLaunchEnv(deps, ctx, snapshot.graph.agentScope, limits);
	const remaining = (key: string) => !isSettled(snapshot.state.nodes[key]?.status ?? "waiting");
	const prepared = await prepareGraph(
		{
			graph: snapshot.graph.definition,
			inputs: snapshot.graph.inputs,
			preflight: remaining,
			caps: graphCaps(deps),
			origin: storedOrigin(snapshot, deps.agentDir),
		},
		env,
		problems,
	).catch((error: unknown) => {
		problems.add(String(error));
		return undefined;
	});
	const keys = prepared?.compiled.nodes.map((node) => node.key).sort();
	if (!prepared || JSON.stringify(keys) !== JSON.stringify(Object.keys(snapshot.state.nodes).sort())) {
		lease.release();
		return refuse(problems.size > 0 ? new LaunchError(problems.list).message : "its nodes changed");
	}
	const store = new RunStore(stored.dir, snapshot);
	let initial = snapshot.state;
	try {
		if (initial.paused) {
			initial = applyEvent(initial, { type: "resume" });
			store.commit([{ type: "resume" }], initial);
		}
	} catch (error) {
		lease.release();
		return refuse(`could not write the run: ${(error as Error).message}`);
	}
	const durable = { runId: snapshot.runId, store, lease, initial, runs: scope.runs, sessionId };
	const named = { ...prepared, name: snapshot.graph.name, file: snapshot.graph.file };
	const accepted = acceptGraph({ prepared: named, env, deps, state, limits, durable }, sessionId);
	return launchAccepted(accepted, background, signal, onUpdate, ctx);
}

/**
 * Where a stored run's graph came from, told by its file rather than by anything else the snapshot says: no
 * file is an inline graph; a file directly in `<agent dir>/graphs/` a user graph; any other a project graph,
 * which passes the trust gate again before it resumes. The digest is the file's as admitted, or, in a snapshot
 * written before it was kept, the stored definition's (a confirmation given in this process is then asked again).
 */
function storedOrigin(snapshot: RunSnapshot, agentDir: string): GraphOrigin {
	const { file, name, digest, definition } = snapshot.graph;
	if (file === undefined) return { source: "inline" };
	const source = dirname(resolve(file)) === resolve(agentDir, "graphs") ? "user" : "project";
	return { source, name, file, digest: digest ?? contentDigest(JSON.stringify(definition)) };
}

/** What a session start found: notices to show, and problems (reported as errors). */
export interface StartReport {
	notices: string[];
	problems: string[];
}

/**
 * At session start: reports unusable run directories, then resumes (as background jobs) or offers this
 * session's unfinished runs that no process drives; last, old finished runs are pruned (`pruneRuns`).
 */
export async function graphsAtSessionStart(scope: ActionScope): Promise<StartReport> {
	const { deps, ctx } = scope;
	const sessionId = ctx.sessionManager.getSessionId();
	const report: StartReport = { notices: [], problems: [] };
	for (const read of scanRuns(deps.agentDir)) {
		if ("problem" in read) {
			report.problems.push(`graph run not restored: ${read.problem}`);
			continue;
		}
		const { snapshot } = read;
		if (!ownedBy(snapshot, sessionId) || snapshot.finished || scope.runs.get(snapshot.runId)) continue;
		const hint = `agent_graph({ action: "resume", run_id: "${snapshot.runId}" }) or /graph resume ${snapshot.runId}`;
		// The name is the caller's or a file's (SECURITY.md "Text from files and children").
		const name = printable(snapshot.graph.name);
		if (snapshot.state.paused || !deps.state().graphs.auto_resume || ctx.mode === "print" || ctx.mode === "json") {
			report.notices.push(`graph run ${snapshot.runId} "${name}" is unfinished; resume it with ${hint}`);
			continue;
		}
		const started = await restoreRun(scope, read, true, undefined, undefined);
		const text = started.content.map((part) => (part.type === "text" ? part.text : "")).join("");
		if (started.isError) report.problems.push(text);
		else report.notices.push(`resuming graph run ${snapshot.runId} "${name}": ${text}`);
	}
	const { graphs } = deps.state();
	pruneRuns(deps.agentDir, {
		sessionId,
		maxAgeMs: graphs.max_age_days * 24 * 60 * 60 * 1000,
		maxTotalBytes: graphs.max_total_bytes,
	});
	return report;
}
