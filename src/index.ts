/**
 * pi-native-subagents: wiring only (docs/architecture.md). At load it registers the tools, the commands and
 * the lifecycle hooks, and imports nothing else: what a call runs (zod configuration, launch resolution,
 * adapters, the execa process core) is imported when the first call, command or session start needs it, so
 * every Pi session and pi child pays almost nothing for it (docs/design-notes.md §Start-up cost).
 */
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import type {
	ExtensionAPI,
	ExtensionCommandContext,
	ExtensionContext,
	ToolDefinition,
} from "@earendil-works/pi-coding-agent";
import { getAgentDir, hasTrustRequiringProjectResources, ProjectTrustStore } from "@earendil-works/pi-coding-agent";
import type { TSchema } from "typebox";
import { missingDependencies, missingDependenciesMessage } from "./config/dependencies.ts";
import { settingsFilePath } from "./config/paths.ts";
import { SessionStartTrust } from "./core/session-start-trust.ts";
import type { InteractiveRuns } from "./interactive/interactive-runs.ts";
import { atInheritedMaxDepth, ROSTER_FILE_ENV } from "./runs/child-env.ts";
import { PendingJobUsage } from "./tools/job-usage.ts";
import {
	AGENTS_COMMAND,
	ATTACH_COMMAND,
	FLEET_COMMAND,
	GRAPH_COMMAND,
	graphToolInfo,
	JOB_MESSAGE_TYPE,
	JOBS_COMMAND,
	jobsToolInfo,
	ROSTER_COMMAND,
	rosterToolInfo,
	SEND_COMMAND,
	subagentToolInfo,
} from "./tools/tool-info.ts";
import { renderJobMessage } from "./ui/job-render.ts";
import type { SetWidget } from "./ui/jobs-widget.ts";

type Branch = ReturnType<ExtensionContext["sessionManager"]["getBranch"]>;
type Runtime = Awaited<ReturnType<typeof loadRuntime>>;

/** The context of the latest session start, for the job registry's logger. */
type LatestContext = () => Pick<ExtensionContext, "hasUI" | "ui"> | undefined;

/** The three harness adapters, their modules imported one at a time (see `loadRuntime`). */
async function loadAdapters(agentDir: string) {
	const claude = await import("./harness/claude/adapter.ts");
	const claudeCommand = await import("./harness/claude/command.ts");
	const codex = await import("./harness/codex/adapter.ts");
	const native = await import("./harness/native-command.ts");
	const piHarness = await import("./harness/pi/adapter.ts");
	const invocation = await import("./harness/pi/invocation.ts");
	return {
		pi: piHarness.createPiAdapter({
			invocation: () => invocation.resolvePiInvocation(),
			sessionDir: join(agentDir, "pi-native-subagents", "sessions"),
			agentDir,
		}),
		codex: codex.createCodexAdapter({
			command: () => native.resolveNativeCommand(native.CODEX_COMMAND_ENV, "codex", process.env),
			codexHome: codex.codexHomeDir(process.env),
		}),
		claude_code: claude.createClaudeAdapter({
			command: () => native.resolveNativeCommand(native.CLAUDE_COMMAND_ENV, "claude", process.env),
			bypassRefusal: claudeCommand.claudeBypassRefusal(process.env, process.getuid?.()),
		}),
	};
}

/** Builds everything the tools and the command work with; runs once per extension load, on first need. */
async function loadRuntime(
	pi: ExtensionAPI,
	agentDir: string,
	jobUsage: PendingJobUsage,
	context: LatestContext,
	startTrust: SessionStartTrust,
) {
	const jobsWidget = await import("./ui/jobs-widget.ts");
	// One at a time: Pi's loader (jiti) can hand out a half-evaluated module when imports overlap.
	const state = await import("./config/extension-state.ts");
	const settings = await import("./config/settings.ts");
	const jobs = await import("./runs/jobs.ts");
	const artifacts = await import("./runs/artifacts.ts");
	const background = await import("./tools/background.ts");
	const live = await import("./runs/live-inputs.ts");
	const record = await import("./sessions/launch-record.ts");
	const records = await import("./sessions/launch-records.ts");
	const trust = await import("./launch/trust.ts");
	const tools = await import("./tools/tools.ts");
	const adapters = await loadAdapters(agentDir);
	const config = new state.ExtensionState(agentDir, process.env, process.cwd());
	const globalLimit = (await import("p-limit")).default(settings.DEFAULT_SETTINGS.limits.global_concurrency);
	const sessions = new records.LaunchRecords();
	const inputs = new live.LiveInputs();
	const interactive = new (await import("./interactive/interactive-runs.ts")).InteractiveRuns();
	const registry = new jobs.JobRegistry(background.jobLogger(context), inputs);
	const fleet = new (await import("./runs/fleet.ts")).Fleet();
	const widget = new jobsWidget.JobsWidget(
		() => registry.list(),
		() => config.runtime.settings?.silent === true,
	);
	const deps: Parameters<typeof tools.createSubagentTool>[0] = {
		adapters,
		globalLimit: () => globalLimit,
		state: () => config.toolState(),
		agentDir,
		baseEnv: () => process.env,
		updateIntervalMs: 100,
		sessions,
		trustStore: new ProjectTrustStore(agentDir),
		approveFlag: trust.readApproveFlag(process.argv),
		startTrust,
		consents: new trust.ConsentRecord(),
		persistRecord: (launch) => pi.appendEntry(record.LAUNCH_RECORD_TYPE, launch),
		artifactRoot: artifacts.artifactRoot(),
		jobs: registry,
		fleet,
		inputs,
		interactive,
		deliverJob: background.jobDelivery(pi, jobUsage, () => widget.refresh()),
	};
	const subagent = tools.createSubagentTool(deps);
	const graphs = tools.graphRuntime(deps);
	const fleetDeps = { fleet, jobs: registry, inputs, adapters, interactive };
	return {
		config,
		sessions,
		jobs: registry,
		interactive,
		widget,
		tools: {
			subagent,
			graph: graphs.tool,
			roster: tools.createRosterTool(config, agentDir),
			jobs: tools.createJobsTool(registry),
		},
		commands: { ...commandHandlers(tools, config, agentDir, fleetDeps), [GRAPH_COMMAND.name]: graphs.command },
		graphs,
		newAgentProblems: agentProblemReporter(tools, agentDir),
		/** Rereads settings and the roster; returns the problems a user should see. */
		reload(branch: Branch, visited: readonly Branch[]): string[] {
			config.reload();
			sessions.rebuild(branch);
			for (const other of visited) sessions.addFrom(other);
			const limits = config.toolState().limits;
			if (limits) globalLimit.concurrency = limits.globalConcurrency;
			return config.problems;
		},
	};
}

type CommandHandler = (args: string, ctx: ExtensionCommandContext) => Promise<void> | void;
type Tools = typeof import("./tools/tools.ts");
type FleetDeps = Parameters<Tools["handleFleetCommand"]>[0] & { interactive: InteractiveRuns };

/** The commands registered in `piNativeSubagents`, in that order (then `/graph`). */
const COMMANDS = [ROSTER_COMMAND, SEND_COMMAND, AGENTS_COMMAND, ATTACH_COMMAND, FLEET_COMMAND, JOBS_COMMAND];

/** The handler of each command, by name. */
function commandHandlers(
	tools: Tools,
	config: Parameters<Tools["toggleRosterCommand"]>[0],
	agentDir: string,
	deps: FleetDeps,
): Record<string, CommandHandler> {
	return {
		[ROSTER_COMMAND.name]: (_args, ctx) => tools.toggleRosterCommand(config, ctx),
		[SEND_COMMAND.name]: (args, ctx) => tools.handleSendCommand(deps.inputs, args, ctx),
		[AGENTS_COMMAND.name]: (_args, ctx) => tools.agentsCommand({ cwd: ctx.cwd, agentDir }, ctx),
		[ATTACH_COMMAND.name]: (args, ctx) => tools.handleAttachCommand(deps.interactive, args, ctx),
		[FLEET_COMMAND.name]: (_args, ctx) => tools.handleFleetCommand(deps, ctx),
		[JOBS_COMMAND.name]: (args, ctx) => tools.handleJobsCommand(deps, args, ctx),
	};
}

/** The session-start report of broken agent files: problems not reported before in this process (each once). */
function agentProblemReporter(tools: Tools, agentDir: string): (cwd: string) => string[] {
	const reported = new Set<string>();
	return (cwd) => {
		const fresh = tools.agentLoadProblems({ cwd, agentDir }).filter((line) => !reported.has(line));
		for (const line of fresh) reported.add(line);
		return fresh;
	};
}

/** A registered tool whose `execute` runs `pick(runtime)`'s, loading the runtime first. */
function deferredTool<P extends TSchema, D>(
	info: Omit<ToolDefinition<P, D>, "execute">,
	runtime: () => Promise<Runtime>,
	pick: (loaded: Runtime) => ToolDefinition<P, D>,
): ToolDefinition<P, D> {
	return {
		...info,
		execute: async (toolCallId, params, signal, onUpdate, ctx) =>
			pick(await runtime()).execute(toolCallId, params, signal, onUpdate, ctx),
	};
}

export default function piNativeSubagents(pi: ExtensionAPI): void {
	const agentDir = getAgentDir();
	const jobUsage = new PendingJobUsage();
	const startTrust = new SessionStartTrust();
	let loaded: Runtime | undefined;
	// Where the background jobs widget draws: the session's UI, when it has one.
	let setWidget: SetWidget | undefined;
	let loading: Promise<Runtime> | undefined;
	let context: ExtensionContext | undefined;
	// The branch of the last session start and the branches visited since, until the runtime exists.
	let branch: Branch = [];
	const visited: Branch[] = [];
	const notify = (ctx: ExtensionContext, problems: readonly string[]) => {
		for (const problem of problems) ctx.ui.notify(`pi-native-subagents: ${problem}`, "error");
	};
	// A clone without `npm install`: one line with the install command, never a module-not-found stack.
	const missing = missingDependencies();
	const missingMessage = missing.length > 0 ? missingDependenciesMessage(missing) : undefined;
	const runtime = (ctx?: ExtensionContext): Promise<Runtime> => {
		if (missingMessage) return Promise.reject(new Error(missingMessage));
		loading ??= loadRuntime(pi, agentDir, jobUsage, () => context, startTrust).then((built) => {
			const problems = built.reload(branch, visited);
			built.widget.attach(setWidget);
			visited.length = 0;
			loaded = built;
			if (ctx) notify(ctx, problems);
			return built;
		});
		return loading;
	};
	// Nothing outlives the session: running jobs are cancelled, their children killed, and each job's
	// cancellation is reported to the session that started it (it is still bound while this runs); the
	// tmux server of interactive children goes too. Graph runs stop recording first, so they stay resumable.
	pi.on("session_shutdown", async (event) => {
		if (!loaded) return;
		loaded.widget.close();
		loaded.graphs.interrupt();
		const { shutdownReason } = await import("./runs/job-messages.ts");
		await Promise.all([loaded.jobs.close(shutdownReason(event.reason)), loaded.interactive.close()]);
	});
	pi.on("session_start", async (event, ctx) => {
		// First: whether Pi had a trust decision to make for this cwd, as it decided it (SECURITY.md "Trust").
		startTrust.record(ctx.cwd, event.reason, hasTrustRequiringProjectResources(ctx.cwd));
		context = ctx;
		await sweepAtSessionStart(ctx.sessionManager.getSessionId());
		setWidget = ctx.hasUI ? (key, lines) => ctx.ui.setWidget(key, lines) : undefined;
		loaded?.widget.attach(setWidget);
		branch = ctx.sessionManager.getBranch();
		visited.length = 0;
		if (missingMessage) return notify(ctx, [missingMessage]);
		if (loaded) notify(ctx, loaded.reload(branch, []));
		// Configuration present: read it now, so a malformed file is reported when the session starts.
		else if (process.env[ROSTER_FILE_ENV] || existsSync(settingsFilePath(agentDir))) await runtime(ctx);
		// With a UI, agent files that fail to load are reported once, when the session starts.
		if (ctx.hasUI) notify(ctx, (await runtime()).newAgentProblems(ctx.cwd));
		// Graph runs to restore or prune: only when some were ever recorded under this agent dir.
		if (existsSync(join(agentDir, "pi-native-subagents", "graphs"))) (await runtime(ctx)).graphs.atSessionStart(ctx);
	});
	// Finished background jobs' usage joins the next tool result, which Pi counts in the session's totals.
	pi.on("tool_result", (event) => {
		// A background job may have started or been cancelled by this call.
		loaded?.widget.refresh();
		const usage = jobUsage.takeInto(event.usage);
		return usage ? { usage } : undefined;
	});
	pi.on("session_tree", (_event, ctx) => {
		if (loaded) loaded.sessions.addFrom(ctx.sessionManager.getBranch());
		else visited.push(ctx.sessionManager.getBranch());
	});
	// A background job's report is drawn as the same cards as a foreground result.
	pi.registerMessageRenderer(JOB_MESSAGE_TYPE, renderJobMessage);
	// A child at the maximum depth could not use them: it is offered no orchestration tool at all.
	if (!atInheritedMaxDepth(process.env)) registerToolsAndCommands(pi, runtime);
}

/** The three tools and the user commands, each loading the runtime on first use. */
function registerToolsAndCommands(pi: ExtensionAPI, runtime: (ctx?: ExtensionContext) => Promise<Runtime>): void {
	pi.registerTool(deferredTool(subagentToolInfo, runtime, (r) => r.tools.subagent));
	pi.registerTool(deferredTool(graphToolInfo, runtime, (r) => r.tools.graph));
	pi.registerTool(deferredTool(rosterToolInfo, runtime, (r) => r.tools.roster));
	pi.registerTool(deferredTool(jobsToolInfo, runtime, (r) => r.tools.jobs));
	for (const command of [...COMMANDS, GRAPH_COMMAND]) {
		pi.registerCommand(command.name, {
			description: command.description,
			handler: async (args, ctx) => (await runtime(ctx)).commands[command.name]?.(args, ctx),
		});
	}
}

/**
 * What goes at a session start: old and excess artifact directories (docs/tools.md §Artifacts; this
 * session's stays), and the run and tmux directories a killed parent left (SECURITY.md "Data").
 */
async function sweepAtSessionStart(sessionId: string): Promise<void> {
	const artifacts = await import("./runs/artifacts.ts");
	const root = artifacts.artifactRoot();
	artifacts.pruneArtifacts(root, { keep: basename(artifacts.artifactDir(root, sessionId)) });
	(await import("./runs/leftovers.ts")).sweepLeftovers();
}
