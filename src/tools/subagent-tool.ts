/**
 * The `subagent` tool (DESIGN.md §1): argument shape, mode selection, then launch resolution,
 * scheduling and the result for the model. Logic lives in `launch/` and `runs/`; this file connects them.
 */
import { randomUUID } from "node:crypto";
import type { AgentToolResult, ExtensionContext, ToolDefinition } from "@earendil-works/pi-coding-agent";
import type { LimitFunction } from "p-limit";
import type { HarnessAdapter } from "../harness/adapter.ts";
import { buildChildEnv } from "../launch/child-env.ts";
import type { DepthState } from "../launch/depth.ts";
import type { LaunchContext } from "../launch/launch-context.ts";
import { LaunchError } from "../launch/launch-error.ts";
import type { Harness, LaunchSpec, RunLimits } from "../launch/launch-spec.ts";
import { resolveAgentTasks } from "../launch/resolve-agent.ts";
import { artifactDir } from "../runs/artifacts.ts";
import type { OutputCaps } from "../runs/delivery.ts";
import { type CallMode, type ChildRun, runCall } from "../runs/scheduler.ts";
import { renderSubagentCall, renderSubagentResult } from "../ui/render.ts";
import { buildResultText, totalUsage } from "./result-text.ts";
import { type CallLimits, selectMode } from "./select-mode.ts";
import { prepareSubagentArguments, type SubagentArgs, subagentSchema } from "./subagent-schema.ts";

/** `details` of every `subagent` result, partial or final. */
export interface SubagentDetails {
	mode: CallMode | "invalid";
	children: ChildRun[];
	/** Set when the call was refused before anything started. */
	error?: string;
}

/** Settings the tool reads at each call (so `/reload` and settings edits apply). */
export interface SubagentToolConfig {
	limits: RunLimits;
	caps: OutputCaps;
	callLimits: CallLimits;
	/** Children running at once within one call. */
	concurrency: number;
	/** ms between live updates to the UI. */
	updateIntervalMs: number;
}

export interface SubagentToolDeps {
	adapters: Partial<Record<Harness, HarnessAdapter>>;
	/** Shared by every call of the parent session. */
	globalLimit: LimitFunction;
	config(): SubagentToolConfig;
	depth(): DepthState;
	agentDir: string;
	/** The parent's environment children start from. */
	baseEnv(): NodeJS.ProcessEnv;
}

export function createSubagentTool(deps: SubagentToolDeps): ToolDefinition<typeof subagentSchema, SubagentDetails> {
	return {
		name: "subagent",
		label: "Subagent",
		description: [
			"Delegate work to sub-agents that run as separate native processes (pi, codex or claude), each with its own context.",
			"Modes (give exactly one): single { agent, task }; parallel { tasks: [{ agent, task }, ...] }; chain { chain: [{ agent, task }, ...] } where {previous} in a step's task is replaced by the prior step's final answer.",
			"Agents are Markdown definitions in the user's agents directory (agentScope 'project' or 'both' adds the project's .pi/agents).",
		].join(" "),
		promptSnippet:
			"Delegate tasks to sub-agents running as separate pi/codex/claude processes (single, parallel, chain)",
		parameters: subagentSchema,
		prepareArguments: prepareSubagentArguments,
		async execute(toolCallId, params, signal, onUpdate, ctx) {
			return executeSubagent(deps, toolCallId, params, signal, onUpdate, ctx);
		},
		renderCall: renderSubagentCall,
		renderResult: renderSubagentResult,
	};
}

async function executeSubagent(
	deps: SubagentToolDeps,
	toolCallId: string,
	params: SubagentArgs,
	signal: AbortSignal | undefined,
	onUpdate: ((partial: AgentToolResult<SubagentDetails>) => void) | undefined,
	ctx: ExtensionContext,
): Promise<AgentToolResult<SubagentDetails>> {
	const config = deps.config();
	let mode: CallMode;
	let specs: LaunchSpec[];
	try {
		const call = selectMode(params, config.callLimits);
		mode = call.mode;
		const depth = deps.depth();
		const context: LaunchContext = {
			cwd: ctx.cwd,
			agentDir: deps.agentDir,
			projectTrusted: ctx.isProjectTrusted(),
			confirm: ctx.hasUI ? (title, message) => ctx.ui.confirm(title, message) : undefined,
			depth: depth.depth,
			maxDepth: depth.maxDepth,
			limits: config.limits,
		};
		specs = await resolveAgentTasks(call.tasks, params.agentScope ?? "user", context);
		const problems: string[] = [];
		for (const spec of specs) {
			const adapter = deps.adapters[spec.harness];
			if (!adapter) {
				problems.push(`harness "${spec.harness}" is not available in this version`);
				continue;
			}
			try {
				adapter.validate(spec);
			} catch (error) {
				problems.push(...(error instanceof LaunchError ? error.problems : [(error as Error).message]));
			}
		}
		if (problems.length > 0) throw new LaunchError(problems);
	} catch (error) {
		if (!(error instanceof LaunchError)) throw error;
		return {
			content: [{ type: "text", text: `subagent: nothing was started.\n${error.message}` }],
			details: { mode: "invalid", children: [], error: error.message },
			isError: true,
		};
	}

	const depth = deps.depth();
	const baseEnv = deps.baseEnv();
	let lastUpdate = 0;
	let latest: ChildRun[] = [];
	let pending: ReturnType<typeof setTimeout> | undefined;
	const flush = () => {
		pending = undefined;
		lastUpdate = Date.now();
		onUpdate?.({
			content: [{ type: "text", text: progressLine(latest) }],
			details: { mode, children: structuredClone(latest) },
		});
	};
	const children = await runCall(mode, specs, {
		adapters: deps.adapters as Record<Harness, HarnessAdapter>,
		envFor: (spec) =>
			buildChildEnv(baseEnv, { depth: spec.depth, maxDepth: depth.maxDepth, rosterFile: spec.rosterFile }),
		concurrency: config.concurrency,
		globalLimit: deps.globalLimit,
		signal,
		onUpdate(current) {
			if (!onUpdate) return;
			latest = current;
			const wait = config.updateIntervalMs - (Date.now() - lastUpdate);
			if (wait <= 0) flush();
			else pending ??= setTimeout(flush, wait);
		},
	});
	if (pending) clearTimeout(pending);

	const sessionId = ctx.sessionManager.getSessionId();
	const text = buildResultText(mode, children, config.caps, artifactDir(sessionId), toolCallId || randomUUID());
	const failed = children.some((child) => child.phase !== "completed");
	return {
		content: [{ type: "text", text }],
		details: { mode, children },
		usage: totalUsage(children),
		isError: failed,
	};
}

function progressLine(children: ChildRun[]): string {
	const count = (phase: string) => children.filter((c) => c.phase === phase).length;
	const done = children.length - count("pending") - count("running");
	return `subagent: ${done}/${children.length} done, ${count("running")} running, ${count("pending")} pending`;
}
