/**
 * The `subagent` tool (README.md "The subagent tool"): argument shape, mode selection, then launch resolution,
 * scheduling and the result for the model. Logic lives in `launch/` and `runs/`; this file connects them.
 */
import {
	type AgentToolResult,
	type ExtensionContext,
	hasTrustRequiringProjectResources,
	type ToolDefinition,
} from "@earendil-works/pi-coding-agent";
import type { LimitFunction } from "p-limit";
import type { EffectiveLimits } from "../config/effective-limits.ts";
import type { LaunchState } from "../config/extension-state.ts";
import type { ChildRun } from "../core/child-run.ts";
import type { SubagentDetails } from "../core/details.ts";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import { LaunchError } from "../core/launch-error.ts";
import type { Harness } from "../core/launch-spec.ts";
import type { LaunchContext } from "../launch/launch-context.ts";
import { resolveChildCalls } from "../launch/resolve-calls.ts";
import { type ConsentRecord, type TrustStore, trustPolicy } from "../launch/trust.ts";
import { assertHarnessesAccept } from "../launch/validate-specs.ts";
import { artifactDir, newArtifactCallId } from "../runs/artifacts.ts";
import { childDetails } from "../runs/child-details.ts";
import { filterEnvironment } from "../runs/child-env.ts";
import type { LiveInputs } from "../runs/live-inputs.ts";
import { type Plan, type RunPlanOptions, runPlan } from "../runs/run-plan.ts";
import type { LaunchRecord } from "../sessions/launch-record.ts";
import type { LaunchRecords } from "../sessions/launch-records.ts";
import { backgroundRefusal, type JobDelivery, startBackground } from "./background.ts";
import { buildResultText, totalUsage } from "./result-text.ts";
import { selectMode } from "./select-mode.ts";
import type { SubagentArgs, subagentSchema } from "./subagent-schema.ts";
import { subagentToolInfo } from "./tool-info.ts";

/** What the tool reads at each call, so `/reload` and `/agentshell-roster` apply to the next call. */
export interface SubagentToolDeps extends JobDelivery {
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
	/** Input channels of running children; foreground calls are listed here while they run. */
	inputs: LiveInputs;
	/** Pi's trust store (`<agent dir>/trust.json`). */
	trustStore: TrustStore;
	/** The parent Pi's `--approve` / `--no-approve`, if given (see `readApproveFlag`). */
	approveFlag: boolean | undefined;
	/** Confirmations of project-controlled definitions given in this Pi process. */
	consents: ConsentRecord;
	/** The per-user artifact root (`artifactRoot()`); each parent session has a directory in it. */
	artifactRoot: string;
}

/** The `subagent` tool definition, bound to this extension load's adapters, state, records and jobs. */
export function createSubagentTool(deps: SubagentToolDeps): ToolDefinition<typeof subagentSchema, SubagentDetails> {
	return {
		...subagentToolInfo,
		async execute(_toolCallId, params, signal, onUpdate, ctx) {
			return executeSubagent(deps, params, signal, onUpdate, ctx);
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

/** Resolves the call into specs and checks each with its adapter; throws LaunchError with every problem. */
async function planCall(
	deps: SubagentToolDeps,
	state: LaunchState,
	limits: EffectiveLimits,
	params: SubagentArgs,
	ctx: ExtensionContext,
): Promise<Plan> {
	const call = selectMode(params, { maxParallelTasks: limits.maxParallelTasks, maxChainSteps: limits.maxChainSteps });
	const context: LaunchContext = {
		cwd: ctx.cwd,
		agentDir: deps.agentDir,
		trust: trustPolicy({
			parentCwd: ctx.cwd,
			parentTrusted: ctx.isProjectTrusted(),
			parentHadDecision: hasTrustRequiringProjectResources(ctx.cwd),
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
	);
	assertHarnessesAccept(specs, call.labels, deps.adapters);
	return { mode: call.mode, specs };
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
	const backgroundProblem = params.background ? backgroundRefusal(ctx, deps.jobs, limits.maxBackgroundJobs) : undefined;
	if (backgroundProblem) return refusal(backgroundProblem);
	let plan: Plan;
	try {
		plan = await planCall(deps, state, limits, params, ctx);
	} catch (error) {
		if (!(error instanceof LaunchError)) throw error;
		return refusal(error.message);
	}
	const claim = claimResumes(deps.sessions, plan);
	if ("refused" in claim) return claim.refused;
	const resumed = claim.resumed;
	// Artifact names come from this package, never from the provider's tool-call id (providers reuse them).
	const callId = newArtifactCallId();
	const artifacts = artifactDir(deps.artifactRoot, ctx.sessionManager.getSessionId());
	if (params.background) {
		// Again, now: calls of one turn run side by side, and another may have started a job meanwhile.
		const late = backgroundRefusal(ctx, deps.jobs, limits.maxBackgroundJobs);
		if (late) {
			for (const id of resumed) deps.sessions.release(id);
			return refusal(late);
		}
		return startBackground(
			deps,
			{
				mode: plan.mode,
				label: describePlan(plan),
				run: (jobSignal, update, onInput, noMoreStarts) =>
					runPlan(plan, { ...runOptions(deps, state, limits, resumed, jobSignal, update), onInput, noMoreStarts }),
				caps: limits.caps,
				artifactDir: artifacts,
				callId,
				silent: state.silent,
			},
			ctx.ui,
		);
	}

	return runForeground(
		deps,
		plan,
		callId,
		(onChildren) => runOptions(deps, state, limits, resumed, signal, onChildren),
		onUpdate,
		(children) => buildResultText(plan.mode, children, limits.caps, artifacts, callId),
	);
}

/**
 * Claims every session the plan resumes, atomically: a session that runs (or is about to) is refused, and
 * then nothing stays claimed.
 */
function claimResumes(
	sessions: LaunchRecords,
	plan: Plan,
): { resumed: string[] } | { refused: AgentToolResult<SubagentDetails> } {
	const resumed: string[] = [];
	const busy: string[] = [];
	for (const spec of plan.specs) {
		if (spec.session.kind !== "resume") continue;
		const id = spec.session.nativeSessionId;
		if (sessions.tryClaim(id)) resumed.push(id);
		else busy.push(id);
	}
	if (busy.length === 0) return { resumed };
	for (const id of resumed) sessions.release(id);
	return {
		refused: refusal(
			[...new Set(busy)]
				.map(
					(id) =>
						`resume_session_id "${id}": that session is running now (or is resumed twice in this call); resume it after it has finished`,
				)
				.join("\n"),
		),
	};
}

/**
 * Runs the plan now, streaming throttled progress (bounded `details`) to `onUpdate`, and returns the final
 * result. `resultText` builds the model's text (and writes the artifacts) before `details` are made, so
 * they name the artifact paths.
 */
async function runForeground(
	deps: SubagentToolDeps,
	plan: Plan,
	callId: string,
	options: (onChildren: (children: ChildRun[]) => void) => RunPlanOptions,
	onUpdate: ((partial: AgentToolResult<SubagentDetails>) => void) | undefined,
	resultText: (children: ChildRun[]) => string,
): Promise<AgentToolResult<SubagentDetails>> {
	let lastUpdate = 0;
	let latest: ChildRun[] = [];
	let pending: ReturnType<typeof setTimeout> | undefined;
	const flush = () => {
		pending = undefined;
		lastUpdate = Date.now();
		onUpdate?.({
			content: [{ type: "text", text: progressLine(latest) }],
			details: { mode: plan.mode, children: latest.map(childDetails) },
		});
	};
	let children: ChildRun[];
	let live: ChildRun[] = [];
	// Listed while it runs, so the user can talk to its children (`/subagent-send`).
	const inputs = deps.inputs.open(callId, false, () => live);
	try {
		children = await runPlan(plan, {
			...options((current) => {
				live = current;
				if (!onUpdate) return;
				latest = current;
				const wait = deps.updateIntervalMs - (Date.now() - lastUpdate);
				if (wait <= 0) flush();
				else pending ??= setTimeout(flush, wait);
			}),
			onInput: inputs.onInput,
		});
	} finally {
		inputs.close();
		if (pending) clearTimeout(pending);
	}
	const text = resultText(children);
	return {
		content: [{ type: "text", text }],
		details: { mode: plan.mode, children: children.map(childDetails) },
		usage: totalUsage(children),
		isError: children.some((child) => child.phase !== "completed"),
	};
}

function runOptions(
	deps: SubagentToolDeps,
	state: LaunchState,
	limits: EffectiveLimits,
	resumed: readonly string[],
	signal: AbortSignal | undefined,
	onChildren: (children: ChildRun[]) => void,
): RunPlanOptions {
	return {
		adapters: deps.adapters as Record<Harness, HarnessAdapter>,
		baseEnv: filterEnvironment(deps.baseEnv(), state.environment),
		maxDepth: state.depth.maxDepth,
		concurrency: limits.concurrency,
		globalLimit: deps.globalLimit(),
		sessions: deps.sessions,
		persistRecord: deps.persistRecord,
		resumed,
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

function progressLine(children: ChildRun[]): string {
	const count = (phase: string) => children.filter((c) => c.phase === phase).length;
	const done = children.length - count("pending") - count("running");
	return `subagent: ${done}/${children.length} done, ${count("running")} running, ${count("pending")} pending`;
}
