/**
 * The `subagent` tool (docs/tools.md §The subagent tool): argument shape, mode selection, then launch resolution,
 * scheduling and the result for the model. Logic lives in `launch/` and `runs/`; this file connects them.
 */
import type { AgentToolResult, ExtensionContext, ToolDefinition } from "@earendil-works/pi-coding-agent";
import type { LimitFunction } from "p-limit";
import type { EffectiveLimits } from "../config/effective-limits.ts";
import type { LaunchState } from "../config/extension-state.ts";
import type { ChildRun } from "../core/child-run.ts";
import type { SubagentDetails } from "../core/details.ts";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import { LaunchError } from "../core/launch-error.ts";
import type { Harness } from "../core/launch-spec.ts";
import { Problems } from "../core/problems.ts";
import { artifactDir, newArtifactCallId } from "../runs/artifacts.ts";
import { childDetails } from "../runs/child-details.ts";
import { filterEnvironment } from "../runs/child-env.ts";
import type { Fleet } from "../runs/fleet.ts";
import type { LiveInputs } from "../runs/live-inputs.ts";
import { type Plan, type RunPlanOptions, runPlan } from "../runs/run-plan.ts";
import type { WarmPool } from "../runs/warm-children.ts";
import type { LaunchRecord } from "../sessions/launch-record.ts";
import {
	type BackgroundCall,
	backgroundRefusal,
	checkBackgroundAllowed,
	type JobDelivery,
	startBackground,
} from "./background.ts";
import { checkToolArguments } from "./check-arguments.ts";
import type { subagentParameters } from "./model-parameters.ts";
import { type PlanningDeps, planCall } from "./plan-call.ts";
import { describePlan } from "./plan-label.ts";
import { throttledProgress } from "./progress.ts";
import { buildResultText, totalUsage } from "./result-text.ts";
import { type SubagentArgs, subagentSchema } from "./subagent-schema.ts";
import { subagentToolInfo } from "./tool-info.ts";
import type { WarmHolder } from "./warm-holder.ts";

/** What the tool reads at each call, so `/reload` and `/agentshell-roster` apply to the next call. */
export interface SubagentToolDeps extends JobDelivery, PlanningDeps {
	/** Shared by every call of the parent session. */
	globalLimit(): LimitFunction;
	state(): LaunchState;
	/** The parent's environment children start from. */
	baseEnv(): NodeJS.ProcessEnv;
	/** ms between live updates to the UI. */
	updateIntervalMs: number;
	/** Persists a record on the parent's branch (`pi.appendEntry`); the tool also adds it to `sessions`. */
	persistRecord(record: LaunchRecord): void;
	/** Input channels of running children; foreground calls are listed here while they run. */
	inputs: LiveInputs;
	/** The per-user artifact root (`artifactRoot()`); each parent session has a directory in it. */
	artifactRoot: string;
	/** Where the user's fleet view finds the call's children (`/subagents`). */
	fleet?: Fleet;
	/** Warm pi children (setting `warm_children`); `undefined`: never warm. */
	warm?: WarmHolder;
}

/** The `subagent` tool definition, bound to this extension load's adapters, state, records and jobs. */
export function createSubagentTool(deps: SubagentToolDeps): ToolDefinition<typeof subagentParameters, SubagentDetails> {
	return {
		...subagentToolInfo,
		async execute(_toolCallId, params, signal, onUpdate, ctx) {
			// The model's schema describes `tasks` / `chain` items as plain objects: the complete one is checked here.
			const checked = checkToolArguments("subagent", subagentSchema, params);
			if ("error" in checked) return refusal(checked.error);
			return executeSubagent(deps, checked.value, signal, onUpdate, ctx);
		},
	};
}

function refusal(message: string): AgentToolResult<SubagentDetails> {
	return {
		content: [{ type: "text", text: `subagent: nothing was started.\n${message}` }],
		details: { mode: "invalid", children: [], error: message },
		isError: true,
	};
}

/** One accepted call: what its stages share once the plan stands and its resumed sessions are claimed. */
interface AcceptedCall {
	deps: SubagentToolDeps;
	state: LaunchState;
	limits: EffectiveLimits;
	plan: Plan;
	/** Native sessions this call resumes, claimed for it. */
	resumed: string[];
	/** Unique per call (`newArtifactCallId`, never the provider's tool-call id: providers reuse them): names its artifacts. */
	callId: string;
	/** Where truncated answers are written in full. */
	artifacts: string;
	/** Warm children, when the setting is on. */
	warm: WarmPool | undefined;
}

async function executeSubagent(
	deps: SubagentToolDeps,
	params: SubagentArgs,
	signal: AbortSignal | undefined,
	onUpdate: ((partial: AgentToolResult<SubagentDetails>) => void) | undefined,
	ctx: ExtensionContext,
): Promise<AgentToolResult<SubagentDetails>> {
	const state = deps.state();
	const limits = state.limits;
	if (!limits) return refusal(state.refusal ?? "the configuration could not be loaded");
	const problems = new Problems();
	// Before anything is resolved (no trust prompt) for a job that could not start or deliver its result.
	const host = { mode: ctx.mode, depth: state.depth.depth };
	if (params.background && !checkBackgroundAllowed(host, deps.jobs, limits.maxBackgroundJobs, problems)) {
		return refusal(new LaunchError(problems.list).message);
	}
	const plan = await planCall(deps, state, limits, params, ctx, problems);
	// The tool boundary: the collected problems become the one error the model sees.
	if (!plan) return refusal(new LaunchError(problems.list).message);
	const resumes = plan.specs.flatMap((spec) => (spec.session.kind === "resume" ? [spec.session.nativeSessionId] : []));
	const resumed = deps.sessions.claimResumes(resumes, problems);
	if (!resumed) return refusal(new LaunchError(problems.list).message);
	const call: AcceptedCall = {
		deps,
		state,
		limits,
		plan,
		resumed,
		callId: newArtifactCallId(),
		artifacts: artifactDir(deps.artifactRoot, ctx.sessionManager.getSessionId()),
		warm: await deps.warm?.forCall(state.warmChildren),
	};
	if (params.background) return startBackgroundJob(call, ctx);
	return runInForeground(call, signal, onUpdate);
}

/**
 * Starts the call as a background job and answers at once with its id; the result arrives as a follow-up
 * message. Refused (its resumed sessions released) when the job may no longer start.
 */
function startBackgroundJob(call: AcceptedCall, ctx: ExtensionContext): AgentToolResult<SubagentDetails> {
	const { deps, plan, limits } = call;
	// Again, now: calls of one turn run side by side, and another may have started a job meanwhile.
	const host = { mode: ctx.mode, depth: call.state.depth.depth };
	const refused = backgroundRefusal(host, deps.jobs, limits.maxBackgroundJobs);
	if (refused) {
		for (const id of call.resumed) deps.sessions.release(id);
		return refusal(refused);
	}
	const background: BackgroundCall = {
		mode: plan.mode,
		label: describePlan(plan),
		run: (jobSignal, update, onInput, noMoreStarts) =>
			runPlan(plan, { ...runOptions(call, jobSignal, update), onInput, noMoreStarts }),
		caps: limits.caps,
		artifactDir: call.artifacts,
		callId: call.callId,
		recorded: (id) => Boolean(deps.sessions.get(id)),
		silent: call.state.silent,
	};
	return startBackground(deps, background, ctx.ui);
}

/**
 * Runs the call to its end, sending live progress (bounded `details`) at most every `updateIntervalMs`.
 * The result text is built (and the artifacts written) before `details` are made, so they name the paths.
 */
async function runInForeground(
	call: AcceptedCall,
	signal: AbortSignal | undefined,
	onUpdate: ((partial: AgentToolResult<SubagentDetails>) => void) | undefined,
): Promise<AgentToolResult<SubagentDetails>> {
	const { plan, limits } = call;
	const progress = throttledProgress(plan.mode, call.deps.updateIntervalMs, onUpdate);
	let children: ChildRun[];
	let live: ChildRun[] = [];
	// Listed while it runs, so the user can talk to its children (`/subagent-send`).
	const inputs = call.deps.inputs.open(call.callId, false, () => live);
	const tracked = call.deps.fleet?.track({
		id: call.callId,
		origin: "foreground",
		label: describePlan(plan),
		children: () => live,
	});
	try {
		children = await runPlan(plan, {
			...runOptions(call, signal, (current) => {
				live = current;
				progress.report(current);
			}),
			onInput: inputs.onInput,
		});
	} finally {
		inputs.close();
		progress.stop();
		tracked?.end(live);
	}
	const text = buildResultText(plan.mode, children, limits.caps, call.artifacts, call.callId, (id) =>
		Boolean(call.deps.sessions.get(id)),
	);
	return {
		content: [{ type: "text", text }],
		details: { mode: plan.mode, children: children.map(childDetails) },
		usage: totalUsage(children),
		isError: children.some((child) => child.phase !== "completed"),
	};
}

function runOptions(
	call: AcceptedCall,
	signal: AbortSignal | undefined,
	onChildren: (children: ChildRun[]) => void,
): RunPlanOptions {
	const { deps } = call;
	return {
		adapters: deps.adapters as Record<Harness, HarnessAdapter>,
		baseEnv: filterEnvironment(deps.baseEnv(), call.state.environment),
		maxDepth: call.state.depth.maxDepth,
		concurrency: call.limits.concurrency,
		globalLimit: deps.globalLimit(),
		sessions: deps.sessions,
		persistRecord: deps.persistRecord,
		resumed: call.resumed,
		signal,
		onChildren,
		runInteractive: deps.interactive?.run.bind(deps.interactive),
		warm: call.warm,
	};
}
