/**
 * `agent_graph` controls (docs/graphs.md §Controls): `list`, `status`, and `cancel` / `skip` / `retry` /
 * `pause` / `resume` of one run. A run going on in this process is controlled through its engine (the
 * disposition durable before the kill); a stored run of this session that no live process drives is
 * changed in its snapshot (under its lease) and takes effect when it resumes; `resume` of such a run
 * restores it (`graph-restore.ts`). Each control answers `accepted` or `refused` with the reason, and a
 * refused control changes nothing.
 */

import { join } from "node:path";
import { describeSkip } from "../core/graph-details.ts";
import { printable } from "../core/printable.ts";
import { type ControlAction, type ControlAnswer, decideControl, decideNodeControl } from "../graph/controls.ts";
import { directoryProblem, graphsRoot, RUN_ID } from "../graph/run-dir.ts";
import { applyEvent, type GraphRunState } from "../graph/run-state.ts";
import { ownedBy, type RunSnapshot, RunStore, readSnapshot, scanRuns } from "../graph/run-store.ts";
import { compileStored, leaseRun, restoreRun } from "./graph-restore.ts";
import type { GraphResult } from "./graph-run.ts";
import type { ActionScope } from "./graph-runs.ts";
import type { GraphArgs } from "./model-parameters.ts";

function answer(text: string, isError = false, runId?: string): GraphResult {
	return { content: [{ type: "text", text }], details: { graph: "control", nodes: [], runId }, isError };
}

/** A control refused before it looked at any run (a field its action does not read): nothing changed. */
export function refusedControl(reason: string): GraphResult {
	return answer(`${reason}; nothing was changed`, true);
}

function controlAnswer(action: string, runId: string, result: ControlAnswer): GraphResult {
	const text = result.accepted
		? `agent_graph ${action} ${runId}: accepted${result.note ? ` (${result.note})` : ""}`
		: `agent_graph ${action} ${runId}: refused: ${result.reason}`;
	return answer(text, !result.accepted, runId);
}

/** Runs one non-`run` action. */
export async function graphAction(
	scope: ActionScope,
	params: GraphArgs,
	signal: AbortSignal | undefined,
	onUpdate: ((partial: GraphResult) => void) | undefined,
): Promise<GraphResult> {
	const action = params.action as Exclude<NonNullable<GraphArgs["action"]>, "run">;
	if (action === "list") return answer(listRuns(scope));
	const runId = params.run_id;
	if (runId === undefined)
		return answer(`agent_graph ${action}: refused: give run_id (action "list" shows the runs)`, true);
	const live = scope.runs.get(runId);
	if (action === "status") {
		const state = live?.handle.state();
		if (live && state) return answer(statusText(runId, live.name, state, "running here"), false, runId);
	} else if (live) {
		return controlAnswer(action, runId, await live.handle.control({ action, node: params.node }));
	}
	const stored = findStored(scope, runId);
	if ("refused" in stored) return controlAnswer(action, runId, { accepted: false, reason: stored.refused });
	const { snapshot } = stored;
	if (action === "status") {
		return answer(statusText(runId, snapshot.graph.name, snapshot.state, storedLabel(snapshot)), false, runId);
	}
	// A stored run resumes here (a paused one is unpaused first).
	if (action === "resume") return restoreRun(scope, stored, params.background === true, signal, onUpdate);
	return controlAnswer(action, runId, controlStored(scope, stored, action, params.node));
}

/** A stored run of this session by id, or why it cannot be controlled. */
export function findStored(
	scope: ActionScope,
	runId: string,
): { dir: string; snapshot: RunSnapshot } | { refused: string } {
	if (!RUN_ID.test(runId)) return { refused: `${JSON.stringify(runId)} is not a run id (a UUID v4)` };
	const dir = join(graphsRoot(scope.deps.agentDir), runId);
	// No directory is no run; a directory that is there but cannot be used is named, as is its snapshot.
	const problem = directoryProblem(dir, `no run ${runId} (action "list" shows the runs)`);
	if (problem) return { refused: problem };
	const read = readSnapshot(dir, runId);
	if ("problem" in read) return { refused: read.problem };
	if (!ownedBy(read.snapshot, scope.ctx.sessionManager.getSessionId())) {
		return { refused: read.snapshot.owner ? "the run belongs to another Pi session" : "the run has no owning session" };
	}
	return read;
}

/** A control applied to a stored run's snapshot, under its lease (refused while a live process drives it). */
function controlStored(
	scope: ActionScope,
	stored: { dir: string; snapshot: RunSnapshot },
	action: ControlAction,
	node: string | undefined,
): ControlAnswer {
	// Read again under the lease: another process may have changed the run since `stored` was read.
	const leased = leaseRun(stored.dir, stored.snapshot.runId, scope.ctx.sessionManager.getSessionId());
	if ("refused" in leased) return { accepted: false, reason: leased.refused };
	const { lease, snapshot } = leased;
	try {
		const compiled = compileStored(snapshot);
		if ("refused" in compiled) return { accepted: false, reason: compiled.refused };
		const state = snapshot.state;
		// A finished run reopens for a retry (unless it was cancelled: a cancel is terminal).
		const reopen = action === "retry" && state.cancelled === undefined && state.infrastructureError === undefined;
		const decision = reopen
			? decideNodeControl(state, compiled.graph, "retry", node)
			: decideControl(state, compiled.graph, { action, node });
		if ("refused" in decision) return { accepted: false, reason: decision.refused };
		let next: GraphRunState = state;
		for (const event of decision.events) next = applyEvent(next, event);
		new RunStore(stored.dir, snapshot).commit(decision.events, next);
		const note =
			action === "cancel" ? undefined : `stored; takes effect when the run resumes (action "resume", run_id)`;
		return { accepted: true, note };
	} catch (error) {
		return { accepted: false, reason: `could not write the run: ${(error as Error).message}` };
	} finally {
		lease.release();
	}
}

function storedLabel(snapshot: RunSnapshot): string {
	if (snapshot.finished) return "finished";
	return snapshot.state.paused ? "paused, not running" : "unfinished, not running";
}

/** This session's runs: live ones first, then stored ones. */
export function listRuns(scope: ActionScope): string {
	const sessionId = scope.ctx.sessionManager.getSessionId();
	const lines = scope.runs
		.list()
		.filter((run) => run.sessionId === sessionId)
		.map((run) => `- ${run.runId} "${run.name}": ${run.handle.state().paused ? "paused" : "running"} here`);
	for (const read of scanRuns(scope.deps.agentDir)) {
		if (!("snapshot" in read) || !ownedBy(read.snapshot, sessionId) || scope.runs.get(read.snapshot.runId)) continue;
		const s = read.snapshot;
		lines.push(`- ${s.runId} "${s.graph.name}": ${storedLabel(s)} (updated ${new Date(s.updatedAt).toISOString()})`);
	}
	// A graph's name is a file's or the caller's: each line is one line (SECURITY.md "Text from files and children").
	return lines.length === 0
		? "agent_graph list: no runs in this session"
		: ["agent_graph runs:", ...lines.map(printable)].join("\n");
}

/**
 * One run's nodes: status, attempts, reason; the head and each node one line (`printable`: a reason holds
 * text a command or a file chose, SECURITY.md "Text from files and children").
 */
export function statusText(runId: string, name: string, state: GraphRunState, where: string): string {
	const head = [`agent_graph run ${runId} "${name}": ${where}`];
	if (state.paused) head.push("paused");
	if (state.cancelled) head.push(`cancelled (${state.cancelled})`);
	if (state.infrastructureError) head.push(`infrastructure error: ${state.infrastructureError}`);
	const nodes = Object.entries(state.nodes).map(([key, node]) => {
		const reason =
			node.status === "skipped" && node.skip ? ` (${describeSkip(node.skip)})` : node.error ? `: ${node.error}` : "";
		const pending = node.disposition ? `, ${node.disposition} pending` : "";
		return `- ${key}: ${node.status}${reason} · attempts ${node.attempts}${pending}`;
	});
	return [head.join("; "), ...nodes].map(printable).join("\n");
}
