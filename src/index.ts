/**
 * pi-native-subagents: wiring only (docs/architecture.md). At load it registers the tools, the commands and
 * the lifecycle hooks, and imports nothing else; what a call runs is imported when it first needs it
 * (docs/design-notes.md §Start-up cost).
 */
import type { ExtensionAPI, ExtensionContext, SessionShutdownEvent } from "@earendil-works/pi-coding-agent";
import { getAgentDir, hasTrustRequiringProjectResources, ProjectTrustStore } from "@earendil-works/pi-coding-agent";
import { missingDependencies, missingDependenciesMessage } from "./config/dependencies.ts";
import { settingsFilePresent } from "./config/paths.ts";
import { deferred, loadSerially, remembered } from "./core/deferred.ts";
import { hasChildSessions, hasGraphRuns, hasLaunchRecords } from "./core/package-dirs.ts";
import { SessionStartTrust } from "./core/session-start-trust.ts";
import { artifactPruneDue, artifactRoot } from "./runs/artifact-root.ts";
import { atInheritedMaxDepth, ROSTER_FILE_ENV } from "./runs/child-env.ts";
import { AgentStartReport } from "./tools/agent-start-report.ts";
import { PendingJobUsage } from "./tools/job-usage.ts";
import {
	COMMANDS,
	deferredTool,
	graphToolInfo,
	JOB_MESSAGE_TYPE,
	jobsToolInfo,
	rosterToolInfo,
	subagentToolInfo,
} from "./tools/tool-info.ts";
import { renderJobMessage } from "./ui/job-render.ts";
import type { SetWidget } from "./ui/jobs-widget.ts";

type Branch = ReturnType<ExtensionContext["sessionManager"]["getBranch"]>;
type Runtime = Awaited<ReturnType<typeof loadRuntime>>;

/** The context of the latest session start, for the job registry's logger. */
type LatestContext = () => Pick<ExtensionContext, "hasUI" | "ui"> | undefined;

/** The modules a runtime is built from, one at a time (src/core/deferred.ts), property by property, in order. */
async function loadModules(agentDir: string) {
	return {
		jobsWidget: await import("./ui/jobs-widget.ts"),
		lifeline: await import("./process/lifeline.ts"),
		state: await import("./config/extension-state.ts"),
		settings: await import("./config/settings.ts"),
		jobs: await import("./runs/jobs.ts"),
		background: await import("./tools/background.ts"),
		live: await import("./runs/live-inputs.ts"),
		record: await import("./sessions/launch-record.ts"),
		records: await import("./sessions/launch-records.ts"),
		trust: await import("./launch/trust.ts"),
		subagent: await import("./tools/subagent-tool.ts"),
		warm: await import("./tools/warm-holder.ts"),
		adapters: (await import("./harness/adapters.ts")).createAdapters(agentDir, process.env, process.getuid?.()),
		pLimit: (await import("p-limit")).default,
		interactive: await import("./interactive/interactive-runs.ts"),
		fleet: await import("./runs/fleet.ts"),
		retention: await import("./harness/pi/session-retention.ts"),
	};
}

type Modules = Awaited<ReturnType<typeof loadModules>>;

/** What the extension load keeps for the whole session: configuration, records, jobs, inputs, tmux host. */
function buildParts(modules: Modules, agentDir: string, context: LatestContext) {
	const config = new modules.state.ExtensionState(agentDir, process.env, process.cwd());
	const inputs = new modules.live.LiveInputs();
	const logger = modules.background.jobLogger(context);
	// A parent-death watchdog that fails is reported as a job's failure is (SECURITY.md "Processes").
	modules.lifeline.reportLifelineWarnings((message) => logger.error(message));
	const jobs = new modules.jobs.JobRegistry(logger, inputs);
	// Every change of the launch records rewrites this load's hold on the child sessions it may resume.
	const hold = new modules.retention.SessionHold(modules.retention.holdsDir(agentDir));
	const sessions: InstanceType<Modules["records"]["LaunchRecords"]> = new modules.records.LaunchRecords(() =>
		hold.write(sessions.ids()),
	);
	return {
		config,
		globalLimit: modules.pLimit(modules.settings.DEFAULT_SETTINGS.limits.global_concurrency),
		hold,
		sessions,
		inputs,
		interactive: new modules.interactive.InteractiveRuns(),
		jobs,
		fleet: new modules.fleet.Fleet(),
		// Idle pi children for the next run of a launch, when the setting is on (docs/settings.md §Warm pi children).
		warm: new modules.warm.WarmHolder(),
		widget: new modules.jobsWidget.JobsWidget(
			() => jobs.list(),
			() => config.runtime.settings?.silent === true,
		),
	};
}

type Parts = ReturnType<typeof buildParts>;
type ToolDeps = Parameters<Modules["subagent"]["createSubagentTool"]>[0];

/** What the `subagent` and `agent_graph` tools share over `parts`; finished jobs report to `pi` and add to `jobUsage`. */
function buildToolDeps(
	pi: ExtensionAPI,
	modules: Modules,
	parts: Parts,
	load: { agentDir: string; jobUsage: PendingJobUsage; startTrust: SessionStartTrust },
): ToolDeps {
	const { trust } = modules;
	return {
		adapters: modules.adapters.loaded,
		loadAdapters: modules.adapters.load,
		globalLimit: () => parts.globalLimit,
		state: () => parts.config.toolState(),
		agentDir: load.agentDir,
		baseEnv: () => process.env,
		updateIntervalMs: 100,
		sessions: parts.sessions,
		trustStore: new ProjectTrustStore(load.agentDir),
		approveFlag: trust.readApproveFlag(process.argv),
		startTrust: load.startTrust,
		consents: new trust.ConsentRecord(),
		persistRecord: (launch) => pi.appendEntry(modules.record.LAUNCH_RECORD_TYPE, launch),
		artifactRoot: artifactRoot(),
		jobs: parts.jobs,
		fleet: parts.fleet,
		warm: parts.warm,
		inputs: parts.inputs,
		interactive: parts.interactive,
		deliverJob: modules.background.jobDelivery(pi, load.jobUsage, () => parts.widget.refresh()),
	};
}

/**
 * What only some calls need, each imported with its first use: the `agent_graph` tool and `/graph` (all of
 * src/graph), and the other tools and the commands (jobs, roster, fleet view, catalogue). Graphs and the
 * commands may meet any harness's children: every adapter is made before them.
 */
function laterParts(deps: ToolDeps, parts: Parts, adapters: Modules["adapters"], agentDir: string) {
	let graphRuntime: ReturnType<typeof import("./tools/graph-command.ts").graphRuntime> | undefined;
	const graphModule = deferred(() => import("./tools/graph-command.ts"));
	const graphs = remembered(async () => {
		await adapters.all();
		graphRuntime = (await graphModule()).graphRuntime(deps);
		return graphRuntime;
	});
	const tools = deferred(() => import("./tools/tools.ts"));
	const { config, fleet, jobs, inputs, interactive } = parts;
	return {
		graphs,
		/** At session shutdown: graph runs stop recording, when any ran (`GraphRuns.interrupt`). */
		interruptGraphs: () => graphRuntime?.interrupt(),
		roster: remembered(async () => (await tools()).createRosterTool(config, agentDir)),
		jobs: remembered(async () => (await tools()).createJobsTool(jobs)),
		commands: remembered(async () => {
			const running = { fleet, jobs, inputs, adapters: await adapters.all(), interactive };
			return (await tools()).commandHandlers(config, agentDir, running, async (a, c) => (await graphs()).command(a, c));
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
	const modules = await loadSerially(() => loadModules(agentDir));
	const parts = buildParts(modules, agentDir, context);
	const { config, sessions, globalLimit } = parts;
	const deps = buildToolDeps(pi, modules, parts, { agentDir, jobUsage, startTrust });
	const later = laterParts(deps, parts, modules.adapters, agentDir);
	return {
		config,
		sessions,
		jobs: parts.jobs,
		interactive: parts.interactive,
		widget: parts.widget,
		warm: parts.warm,
		subagent: modules.subagent.createSubagentTool(deps),
		later,
		/** This session has ended: its hold on child sessions goes. */
		release: () => parts.hold.release(),
		/** Rereads settings and the roster, applies the child-session retention; returns the problems a user should see. */
		reload(branch: Branch, visited: readonly Branch[]): string[] {
			config.reload();
			sessions.rebuild(branch);
			for (const other of visited) sessions.addFrom(other);
			modules.retention.applyRetention(agentDir, config.runtime.settings?.child_sessions, sessions.ids());
			const limits = config.toolState().limits;
			if (limits) globalLimit.concurrency = limits.globalConcurrency;
			return config.problems;
		},
	};
}

/** The session ends: the widget, running jobs (each reporting its cancellation), tmux, and this load's hold. */
async function shutDown(loaded: Runtime, reason: SessionShutdownEvent["reason"]) {
	loaded.widget.close();
	// A graph run interrupted by the session's end stays resumable (docs/graphs.md §Durability).
	loaded.later.interruptGraphs();
	const { shutdownReason } = await import("./runs/job-messages.ts");
	// Warm children end with the session (and so with each `/reload`), their files removed.
	await Promise.all([loaded.jobs.close(shutdownReason(reason)), loaded.interactive.close(), loaded.warm.close()]);
	loaded.release();
}

export default function piNativeSubagents(pi: ExtensionAPI): void {
	const agentDir = getAgentDir();
	const jobUsage = new PendingJobUsage();
	const startTrust = new SessionStartTrust();
	const startReport = new AgentStartReport(agentDir);
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
	// Nothing outlives the session: jobs cancelled (each reported), children killed, tmux gone; graph runs stay resumable.
	pi.on("session_shutdown", async (event) => {
		// A runtime still loading (started at session start, not awaited) is shut down once it is built.
		const built = loaded ?? (await loading?.catch(() => undefined));
		if (built) await shutDown(built, event.reason);
	});
	pi.on("session_start", async (event, ctx) => {
		// First: whether Pi had a trust decision to make for this cwd, as it decided it (SECURITY.md "Trust").
		startTrust.record(ctx.cwd, event.reason, hasTrustRequiringProjectResources(ctx.cwd));
		context = ctx;
		// The hourly upkeep (artifact prune, leftovers sweep, child-session retention): its modules load only when due.
		const sweep =
			artifactPruneDue(artifactRoot()) && (await loadSerially(() => import("./runs/session-start-sweep.ts")));
		if (sweep) sweep.sweepAtSessionStart(ctx.sessionManager.getSessionId());
		setWidget = ctx.hasUI ? (key, lines) => ctx.ui.setWidget(key, lines) : undefined;
		loaded?.widget.attach(setWidget);
		branch = ctx.sessionManager.getBranch();
		visited.length = 0;
		if (missingMessage) return notify(ctx, [missingMessage]);
		if (loaded) notify(ctx, loaded.reload(branch, []));
		// Configuration present: read it now, so a malformed file is reported when the session starts.
		else if (process.env[ROSTER_FILE_ENV] || settingsFilePresent(agentDir)) await runtime(ctx);
		// Launch records: the runtime holds their sessions (not awaited); else hourly retention (docs/rules.md §Child sessions).
		else if (hasLaunchRecords(branch)) runtime(ctx).catch(() => undefined);
		else if (sweep && hasChildSessions(agentDir))
			(await loadSerially(() => import("./harness/pi/session-retention.ts"))).retainAtSessionStart(agentDir);
		// Agent files that fail to load: notified now with a UI, else in the first subagent result.
		notify(ctx, await startReport.atSessionStart(ctx.cwd, ctx.hasUI));
		// Graph runs to restore or prune: only when some were ever recorded under this agent dir.
		if (hasGraphRuns(agentDir)) (await (await runtime(ctx)).later.graphs()).atSessionStart(ctx);
	});
	// Finished jobs' usage joins the next tool result (Pi counts it); the widget shows jobs this call started or cancelled.
	pi.on("tool_result", (event) => {
		loaded?.widget.refresh();
		const usage = jobUsage.takeInto(event.usage);
		return usage ? { usage } : undefined;
	});
	// A visited branch's launch records join the hold: with some, the runtime loads (docs/rules.md §Child sessions).
	pi.on("session_tree", (_event, ctx) => {
		const tree = ctx.sessionManager.getBranch();
		if (loaded) return loaded.sessions.addFrom(tree);
		visited.push(tree);
		if (hasLaunchRecords(tree)) runtime(ctx).catch(() => undefined);
	});
	// A background job's report is drawn as the same cards as a foreground result.
	pi.registerMessageRenderer(JOB_MESSAGE_TYPE, renderJobMessage);
	// A child at the maximum depth could not use them: it is offered no orchestration tool at all.
	if (!atInheritedMaxDepth(process.env)) registerToolsAndCommands(pi, runtime, startReport);
}

/** The tools and the user commands, each loading the runtime on first use. */
function registerToolsAndCommands(
	pi: ExtensionAPI,
	runtime: (ctx?: ExtensionContext) => Promise<Runtime>,
	startReport: AgentStartReport,
): void {
	const subagent = deferredTool(subagentToolInfo, runtime, async (r) => r.subagent);
	pi.registerTool({ ...subagent, execute: async (...args) => startReport.appendTo(await subagent.execute(...args)) });
	pi.registerTool(deferredTool(graphToolInfo, runtime, async (r) => (await r.later.graphs()).tool));
	pi.registerTool(deferredTool(rosterToolInfo, runtime, (r) => r.later.roster()));
	pi.registerTool(deferredTool(jobsToolInfo, runtime, (r) => r.later.jobs()));
	for (const command of COMMANDS) {
		pi.registerCommand(command.name, {
			description: command.description,
			handler: async (args, ctx) => (await (await runtime(ctx)).later.commands())[command.name]?.(args, ctx),
		});
	}
}
