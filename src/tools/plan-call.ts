/**
 * Planning one `subagent` call (docs/tools.md §The subagent tool): the mode, the launch resolution with the
 * trust gate, and each harness's check of its spec, before anything starts. The tool runs it for every call;
 * the benchmarks build their baselines with it (bench/launch.ts), so both launch a child the same way.
 */
import type { EffectiveLimits } from "../config/effective-limits.ts";
import type { LaunchState } from "../config/extension-state.ts";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import { HARNESSES, type Harness, type LaunchSpec } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import type { SessionStartTrust } from "../core/session-start-trust.ts";
import type { InteractiveRuns } from "../interactive/interactive-runs.ts";
import { resolveChildCalls } from "../launch/resolve-calls.ts";
import type { ConsentRecord, TrustStore } from "../launch/trust.ts";
import { checkHarnessesAccept } from "../launch/validate-specs.ts";
import type { Plan } from "../runs/run-plan.ts";
import type { LaunchRecords } from "../sessions/launch-records.ts";
import { type CallContext, launchContextFor } from "./call-context.ts";
import { selectMode } from "./select-mode.ts";
import type { SubagentArgs } from "./subagent-schema.ts";

/** What planning reads of the tool's dependencies (part of `SubagentToolDeps`). */
export interface PlanningDeps {
	/** The adapters made so far (`HarnessAdapters.loaded`): planning loads the ones a call needs first. */
	adapters: Partial<Record<Harness, HarnessAdapter>>;
	/** Makes the adapters of `harnesses` (`HarnessAdapters.load`), so `adapters` holds them. */
	loadAdapters(harnesses: Iterable<Harness>): Promise<void>;
	agentDir: string;
	/** Launch records known to this extension load, and the native sessions running now. */
	sessions: LaunchRecords;
	/** Pi's trust store (`<agent dir>/trust.json`). */
	trustStore: TrustStore;
	/** The parent Pi's `--approve` / `--no-approve`, if given (see `readApproveFlag`). */
	approveFlag: boolean | undefined;
	/** Whether Pi had a trust decision to make for the session's cwd when the session started. */
	startTrust: SessionStartTrust;
	/** Confirmations of project-controlled definitions given in this Pi process. */
	consents: ConsentRecord;
	/** Interactive (tmux) runs of this parent session; `undefined`: `interactive: true` is refused. */
	interactive?: InteractiveRuns;
}

/** What planning reads of the tool call's context. */
export type PlanningContext = CallContext;

/**
 * Selects the mode, resolves the call into specs and checks each with its adapter.
 * @returns the plan, or `undefined` with every problem added to `problems`.
 */
export async function planCall(
	deps: PlanningDeps,
	state: LaunchState,
	limits: EffectiveLimits,
	params: SubagentArgs,
	ctx: PlanningContext,
	problems: Problems,
): Promise<Plan | undefined> {
	const limitsOfCall = { maxParallelTasks: limits.maxParallelTasks, maxChainSteps: limits.maxChainSteps };
	const call = selectMode(params, limitsOfCall, problems);
	if (!call) return undefined;
	const context = launchContextFor(deps, state, limits, ctx);
	// A resume without a launch record asks its harness where the session lives while it is resolved.
	if (call.calls.some((child) => child.kind === "resume" && !deps.sessions.get(child.resumeSessionId))) {
		await deps.loadAdapters(HARNESSES);
	}
	const interactive = deps.interactive;
	const checkInteractive = interactive && ((spec: LaunchSpec, found: Problems) => interactive.check(spec, found));
	// Checked before any trust prompt: a launch the harness refuses is not asked about.
	const accepts = async (specs: LaunchSpec[], labels: string[]) => {
		await deps.loadAdapters(specs.map((spec) => spec.harness));
		if (!checkHarnessesAccept(specs, labels, deps.adapters, problems, checkInteractive)) return false;
		// Sessions whose TUI was kept open (`stay_open`) and may still run cannot be resumed yet.
		return !interactive || (await interactive.checkRetained(specs, problems));
	};
	// A refused call's other children are still resolved for their problems; with a problem listed, no one is asked.
	const specs = await resolveChildCalls(
		call.calls,
		call.labels,
		params.agentScope ?? "user",
		context,
		state.roster,
		deps.sessions,
		problems,
		accepts,
	);
	return specs && !call.refused ? { mode: call.mode, specs } : undefined;
}
