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
import { acquireLease, type Lease } from "../graph/run-dir.ts";
import { pruneRuns } from "../graph/run-retention.ts";
import { applyEvent, isSettled } from "../graph/run-state.ts";
import { ownedBy, type RunSnapshot, RunStore, readSnapshot, scanRuns } from "../graph/run-store.ts";
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
 * Resumes a stored, unfinished run of this session in this process (foreground, or as a job). A paused run is
 * unpaused first, unless `automatic` (the session start's resume): a run paused since it was listed stays so.
 * @returns the run's result, or a refusal (nothing started) naming why.
 */
export async function restoreRun(
	scope: ActionScope,
	stored: { dir: string; snapshot: RunSnapshot },
	background: boolean,
	signal: AbortSignal | undefined,
	onUpdate: ((partial: GraphResult) => void) | undefined,
	automatic = false,
): Promise<GraphResult> {
	const { deps, ctx } = scope;
	const seen = stored.snapshot;
	const refuse = (why: string) => graphRefusal(`run ${seen.runId} cannot resume: ${why}`, seen.graph.name);
	const sessionId = ctx.sessionManager.getSessionId();
	const unusable = (snapshot: RunSnapshot) => {
		if (snapshot.finished) return "the run has ended";
		if (!ownedBy(snapshot, sessionId)) return "the run belongs to another Pi session";
		if (snapshot.graph.cwd !== ctx.cwd) return `it ran in ${printable(snapshot.graph.cwd)}; resume it from there`;
		if (automatic && snapshot.state.paused)
			return `it was paused meanwhile; resume it with ${resumeHint(snapshot.runId)}`;
		return undefined;
	};
	const early = unusable(seen);
	if (early) return refuse(early);
	const checked = graphStartCheck(deps, ctx, background);
	if ("refused" in checked) return refuse(checked.refused);
	const { state, limits } = checked;
	const problems = new Problems();
	// What another process recorded since `seen` was read (a run it finished meanwhile) is what resumes.
	const leased = leaseRun(stored.dir, seen.runId, sessionId);
	if ("refused" in leased) return refuse(leased.refused);
	const { lease, snapshot } = leased;
	const now = unusable(snapshot);
	if (now) {
		lease.release();
		return refuse(now);
	}
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
 * Takes run directory `dir`'s lease and reads its snapshot again under it, so that the caller acts on what is
 * recorded now, not on an earlier read another process has since overtaken (docs/graphs.md §Durability).
 * @returns the lease and the snapshot, or why not: the lease is held or cannot be written (naming its file), or
 * the snapshot cannot be read (naming it).
 */
export function leaseRun(
	dir: string,
	runId: string,
	sessionId: string,
): { lease: Lease; snapshot: RunSnapshot } | { refused: string } {
	let lease: ReturnType<typeof acquireLease>;
	try {
		lease = acquireLease(dir, sessionId);
	} catch (error) {
		return { refused: `could not take the run's lease: ${(error as Error).message}` };
	}
	if ("refused" in lease) return lease;
	const read = readSnapshot(dir, runId);
	if ("problem" in read) {
		lease.release();
		return { refused: read.problem };
	}
	return { lease, snapshot: read.snapshot };
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

/** How to resume run `runId`, by the tool and by the command. */
const resumeHint = (runId: string) => `agent_graph({ action: "resume", run_id: "${runId}" }) or /graph resume ${runId}`;

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
		// One run that fails here (a full disk at its lease) is reported alone; the others still go on.
		await restoreAtStart(scope, read, report).catch((error: unknown) =>
			report.problems.push(`graph run ${read.snapshot.runId} not restored (${read.dir}): ${(error as Error).message}`),
		);
	}
	const { graphs } = deps.state();
	pruneRuns(deps.agentDir, {
		sessionId,
		maxAgeMs: graphs.max_age_days * 24 * 60 * 60 * 1000,
		maxTotalBytes: graphs.max_total_bytes,
	});
	return report;
}

/** One stored run at session start: skipped (not this session's, finished, running here), offered or resumed. */
async function restoreAtStart(
	scope: ActionScope,
	read: { dir: string; snapshot: RunSnapshot },
	report: StartReport,
): Promise<void> {
	const { deps, ctx } = scope;
	const { snapshot } = read;
	if (!ownedBy(snapshot, ctx.sessionManager.getSessionId()) || snapshot.finished || scope.runs.get(snapshot.runId))
		return;
	const hint = resumeHint(snapshot.runId);
	// The name is the caller's or a file's (SECURITY.md "Text from files and children").
	const name = printable(snapshot.graph.name);
	if (snapshot.state.paused || !deps.state().graphs.auto_resume || ctx.mode === "print" || ctx.mode === "json") {
		report.notices.push(`graph run ${snapshot.runId} "${name}" is unfinished; resume it with ${hint}`);
		return;
	}
	const started = await restoreRun(scope, read, true, undefined, undefined, true);
	const text = started.content.map((part) => (part.type === "text" ? part.text : "")).join("");
	if (started.isError) report.problems.push(text);
	else report.notices.push(`resuming graph run ${snapshot.runId} "${name}": ${text}`);
}
