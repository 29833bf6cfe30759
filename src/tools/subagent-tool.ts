/**
 * The `subagent` tool (README.md "The subagent tool"): argument shape, mode selection, then launch resolution,
 * scheduling and the result for the model. Logic lives in `launch/` and `runs/`; this file connects them.
 */
import { randomUUID } from "node:crypto";
import type { AgentToolResult, ExtensionContext, ToolDefinition } from "@earendil-works/pi-coding-agent";
import type { LimitFunction } from "p-limit";
import type { EffectiveLimits } from "../config/effective-limits.ts";
import type { LaunchState } from "../config/extension-state.ts";
import type { ChildRun } from "../core/child-run.ts";
import type { SubagentDetails } from "../core/details.ts";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import { LaunchError } from "../core/launch-error.ts";
import type { Harness, LaunchSpec } from "../core/launch-spec.ts";
import { Problems } from "../core/problems.ts";
import type { SessionStartTrust } from "../core/session-start-trust.ts";
import type { LaunchContext } from "../launch/launch-context.ts";
import { resolveChildCalls } from "../launch/resolve-calls.ts";
import { type ConsentRecord, type TrustStore, trustPolicy } from "../launch/trust.ts";
import { checkHarnessesAccept } from "../launch/validate-specs.ts";
import { artifactDir } from "../runs/artifacts.ts";
import { filterEnvironment } from "../runs/child-env.ts";
import { type Job, type JobRegistry, jobMessage } from "../runs/jobs.ts";
import type { LiveInputs } from "../runs/live-inputs.ts";
import { type Plan, type RunPlanOptions, runPlan } from "../runs/run-plan.ts";
import type { LaunchRecord } from "../sessions/launch-record.ts";
import type { LaunchRecords } from "../sessions/launch-records.ts";
import { formatUsageTotals } from "../ui/format.ts";
import { throttledProgress } from "./progress.ts";
import { buildResultText, sumUsage, totalUsage } from "./result-text.ts";
import { selectMode } from "./select-mode.ts";
import type { SubagentArgs, subagentSchema } from "./subagent-schema.ts";
import { subagentToolInfo } from "./tool-info.ts";

/** What the tool reads at each call, so `/reload` and `/agentshell-roster` apply to the next call. */
export interface SubagentToolDeps {
	adapters: Partial<Record<Harness, HarnessAdapter>>;
	/** Shared by every call of the parent session. */
	globalLimit(): LimitFunction;
	state(): LaunchState;
	agentDir: string;
	/** The parent's environment children start from. */
	baseEnv(): NodeJS.ProcessEnv;
	/** ms between live updates to the UI. */
	updateIntervalMs: number;
	/** Launch records known to this extension load, and the native sessions running now. */
	sessions: LaunchRecords;
	/** Persists a record on the parent's branch (`pi.appendEntry`); the tool also adds it to `sessions`. */
	persistRecord(record: LaunchRecord): void;
	/** Background jobs of this extension load. */
	jobs: JobRegistry;
	/** Input channels of running children; foreground calls are listed here while they run. */
	inputs: LiveInputs;
	/** Pi's trust store (`<agent dir>/trust.json`). */
	trustStore: TrustStore;
	/** The parent Pi's `--approve` / `--no-approve`, if given (see `readApproveFlag`). */
	approveFlag: boolean | undefined;
	/** Whether Pi had a trust decision to make for the session's cwd when the session started. */
	startTrust: SessionStartTrust;
	/** Confirmations of project-controlled definitions given in this Pi process. */
	consents: ConsentRecord;
	/** Delivers a finished background job's message (status, usage, result text) to the parent session. */
	deliverJob(job: Job, message: string, details: SubagentDetails): void;
}

/** The `subagent` tool definition, bound to this extension load's adapters, state, records and jobs. */
export function createSubagentTool(deps: SubagentToolDeps): ToolDefinition<typeof subagentSchema, SubagentDetails> {
	return {
		...subagentToolInfo,
		async execute(toolCallId, params, signal, onUpdate, ctx) {
			return executeSubagent(deps, toolCallId, params, signal, onUpdate, ctx);
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

/**
 * Selects the mode, resolves the call into specs and checks each with its adapter.
 * @returns the plan, or `undefined` with every problem added to `problems`.
 */
async function planCall(
	deps: SubagentToolDeps,
	state: LaunchState,
	limits: EffectiveLimits,
	params: SubagentArgs,
	ctx: ExtensionContext,
	problems: Problems,
): Promise<Plan | undefined> {
	const limitsOfCall = { maxParallelTasks: limits.maxParallelTasks, maxChainSteps: limits.maxChainSteps };
	const call = selectMode(params, limitsOfCall, problems);
	if (!call) return undefined;
	const context: LaunchContext = {
		cwd: ctx.cwd,
		agentDir: deps.agentDir,
		trust: trustPolicy({
			parentCwd: ctx.cwd,
			parentTrusted: ctx.isProjectTrusted(),
			parentHadDecision: deps.startTrust.hadDecision(ctx.cwd),
			approveFlag: deps.approveFlag,
			store: deps.trustStore,
		}),
		consents: deps.consents,
		sessionCwd: (harness, id) => deps.adapters[harness]?.sessionCwd?.(id),
		confirm: ctx.hasUI ? (title, message) => ctx.ui.confirm(title, message) : undefined,
		depth: state.depth.depth,
		maxDepth: state.depth.maxDepth,
		limits: limits.run,
	};
	const specs = await resolveChildCalls(
		call.calls,
		call.labels,
		params.agentScope ?? "user",
		context,
		state.roster,
		deps.sessions,
		problems,
	);
	if (!specs || !checkHarnessesAccept(specs, call.labels, deps.adapters, problems)) return undefined;
	return { mode: call.mode, specs };
}

/** One accepted call: what its stages share once the plan stands and its resumed sessions are claimed. */
interface AcceptedCall {
	deps: SubagentToolDeps;
	state: LaunchState;
	limits: EffectiveLimits;
	plan: Plan;
	/** Native sessions this call resumes, claimed for it. */
	resumed: string[];
	/** Unique per call: names its artifacts. */
	callId: string;
	/** Where truncated answers are written in full. */
	artifacts: string;
}

async function executeSubagent(
	deps: SubagentToolDeps,
	toolCallId: string,
	params: SubagentArgs,
	signal: AbortSignal | undefined,
	onUpdate: ((partial: AgentToolResult<SubagentDetails>) => void) | undefined,
	ctx: ExtensionContext,
): Promise<AgentToolResult<SubagentDetails>> {
	const state = deps.state();
	const limits = state.limits;
	if (!limits) return refusal(state.refusal ?? "the configuration could not be loaded");
	const problems = new Problems();
	const plan = await planCall(deps, state, limits, params, ctx, problems);
	// The tool boundary: the collected problems become the one error the model sees.
	if (!plan) return refusal(new LaunchError(problems.list).message);
	const claimed = claimResumedSessions(deps.sessions, plan.specs);
	if ("busy" in claimed) return refusal(claimed.busy);
	const call: AcceptedCall = {
		deps,
		state,
		limits,
		plan,
		resumed: claimed.resumed,
		callId: toolCallId || randomUUID(),
		artifacts: artifactDir(ctx.sessionManager.getSessionId()),
	};
	if (params.background) return startBackgroundJob(call);
	return runInForeground(call, signal, onUpdate);
}

/**
 * Claims every session the plan resumes, atomically: a session that runs (or is about to) is refused, and
 * then nothing stays claimed.
 * @returns the claimed ids, or `busy`: one line per refused session.
 */
function claimResumedSessions(
	sessions: LaunchRecords,
	specs: readonly LaunchSpec[],
): { resumed: string[] } | { busy: string } {
	const resumed: string[] = [];
	const busy: string[] = [];
	for (const spec of specs) {
		if (spec.session.kind !== "resume") continue;
		const id = spec.session.nativeSessionId;
		if (sessions.tryClaim(id)) resumed.push(id);
		else busy.push(id);
	}
	if (busy.length === 0) return { resumed };
	for (const id of resumed) sessions.release(id);
	const lines = [...new Set(busy)].map(
		(id) =>
			`resume_session_id "${id}": that session is running now (or is resumed twice in this call); resume it after it has finished`,
	);
	return { busy: lines.join("\n") };
}

/** Starts the call as a background job and answers at once with its id; the result arrives as a follow-up message. */
function startBackgroundJob(call: AcceptedCall): AgentToolResult<SubagentDetails> {
	const { deps, plan, limits } = call;
	if (deps.jobs.closed) return refusal("the session is shutting down; no background job can start");
	const job = deps.jobs.start(
		plan.mode,
		describePlan(plan),
		(jobSignal, update, onInput, noMoreStarts) =>
			runPlan(plan, { ...runOptions(call, jobSignal, update), onInput, noMoreStarts }),
		(finished, children, error) => {
			const text = error
				? `failed: ${error}`
				: buildResultText(plan.mode, children, limits.caps, call.artifacts, `${call.callId}-${finished.id}`);
			const message = jobMessage(finished, text, formatUsageTotals(sumUsage(children)));
			deps.deliverJob(finished, message, { mode: plan.mode, children, jobId: finished.id });
		},
	);
	return {
		content: [
			{
				type: "text",
				text: `Started background job ${job.id}: ${describePlan(plan)}. Its result will arrive as a follow-up message; subagent_jobs lists or cancels jobs.`,
			},
		],
		details: { mode: plan.mode, children: [], jobId: job.id },
	};
}

/** Runs the call to its end, sending live progress at most every `updateIntervalMs`. */
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
	}
	return {
		content: [{ type: "text", text: buildResultText(plan.mode, children, limits.caps, call.artifacts, call.callId) }],
		details: { mode: plan.mode, children },
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
	};
}

/** `scout`, `parallel (3 tasks)` or `chain (2 steps)`, for job listings. */
function describePlan(plan: Plan): string {
	if (plan.mode === "parallel") return `parallel (${plan.specs.length} tasks)`;
	if (plan.mode === "chain") return `chain (${plan.specs.length} steps)`;
	const spec = plan.specs[0];
	const who = spec.provenance.rosterEntry ?? spec.provenance.agentName ?? spec.harness;
	return spec.taskName ? `${who} "${spec.taskName}"` : who;
}
