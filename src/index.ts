/**
 * pi-native-subagents: wiring only (DESIGN.md §2). Registers the tools, the command and the lifecycle
 * hooks; owns no logic.
 */
import { join } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { getAgentDir, ProjectTrustStore } from "@earendil-works/pi-coding-agent";
import pLimit from "p-limit";
import { atInheritedMaxDepth } from "./config/depth.ts";
import { ExtensionState } from "./config/extension-state.ts";
import { DEFAULT_SETTINGS } from "./config/settings.ts";
import { createClaudeAdapter } from "./harness/claude/adapter.ts";
import { claudeBypassRefusal } from "./harness/claude/command.ts";
import { codexHomeDir, createCodexAdapter } from "./harness/codex/adapter.ts";
import { CLAUDE_COMMAND_ENV, CODEX_COMMAND_ENV, resolveNativeCommand } from "./harness/native-command.ts";
import { createPiAdapter } from "./harness/pi/adapter.ts";
import { resolvePiInvocation } from "./harness/pi/invocation.ts";
import { ConsentRecord, readApproveFlag } from "./launch/trust.ts";
import { JOB_MESSAGE_TYPE, JobRegistry } from "./runs/jobs.ts";
import { LiveInputs } from "./runs/live-inputs.ts";
import { LAUNCH_RECORD_TYPE } from "./sessions/launch-record.ts";
import { LaunchRecords } from "./sessions/launch-records.ts";
import { createJobsTool } from "./tools/jobs-tool.ts";
import { createRosterTool, registerRosterCommand } from "./tools/roster-tool.ts";
import { registerSendCommand } from "./tools/send-command.ts";
import { createSubagentTool } from "./tools/subagent-tool.ts";

export default function piNativeSubagents(pi: ExtensionAPI): void {
	const agentDir = getAgentDir();
	const state = new ExtensionState(agentDir, process.env, process.cwd());
	const globalLimit = pLimit(DEFAULT_SETTINGS.limits.global_concurrency);
	const sessions = new LaunchRecords();
	const inputs = new LiveInputs();
	const jobs = new JobRegistry(inputs);
	// Nothing outlives the session: running jobs are cancelled and their children killed.
	pi.on("session_shutdown", () => jobs.close());
	pi.on("session_start", (_event, ctx) => {
		state.reload();
		sessions.rebuild(ctx.sessionManager.getBranch());
		const limits = state.toolState().limits;
		if (limits) globalLimit.concurrency = limits.globalConcurrency;
		for (const problem of state.problems) ctx.ui.notify(`pi-native-subagents: ${problem}`, "error");
	});
	pi.on("session_tree", (_event, ctx) => sessions.addFrom(ctx.sessionManager.getBranch()));
	// A child at the maximum depth could not use them: it is offered no orchestration tool at all.
	if (atInheritedMaxDepth(process.env)) return;
	pi.registerTool(
		createSubagentTool({
			adapters: {
				pi: createPiAdapter({
					invocation: () => resolvePiInvocation(),
					sessionDir: join(agentDir, "pi-native-subagents", "sessions"),
					agentDir,
				}),
				codex: createCodexAdapter({
					command: () => resolveNativeCommand(CODEX_COMMAND_ENV, "codex", process.env),
					codexHome: codexHomeDir(process.env),
				}),
				claude_code: createClaudeAdapter({
					command: () => resolveNativeCommand(CLAUDE_COMMAND_ENV, "claude", process.env),
					bypassRefusal: claudeBypassRefusal(process.env, process.getuid?.()),
				}),
			},
			globalLimit: () => globalLimit,
			state: () => state.toolState(),
			agentDir,
			baseEnv: () => process.env,
			updateIntervalMs: 100,
			sessions,
			trustStore: new ProjectTrustStore(agentDir),
			approveFlag: readApproveFlag(process.argv),
			consents: new ConsentRecord(),
			persistRecord: (record) => pi.appendEntry(LAUNCH_RECORD_TYPE, record),
			jobs,
			inputs,
			deliverJob: (job, text, details) =>
				pi.sendMessage(
					{
						customType: JOB_MESSAGE_TYPE,
						content: text,
						display: true,
						details,
					},
					// A cancelled or stopped job ended on request: report it without starting a turn.
					{ triggerTurn: job.status !== "cancelled" && job.status !== "stopped", deliverAs: "followUp" },
				),
		}),
	);
	pi.registerTool(createRosterTool(state, agentDir));
	pi.registerTool(createJobsTool(jobs));
	registerRosterCommand(pi, state);
	registerSendCommand(pi, inputs);
}
