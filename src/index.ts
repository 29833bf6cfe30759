/**
 * pi-native-subagents: wiring only (DESIGN.md §2). Registers the tools and lifecycle hooks; owns no logic.
 */
import { join } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { getAgentDir } from "@earendil-works/pi-coding-agent";
import pLimit from "p-limit";
import { createPiAdapter } from "./harness/pi.ts";
import { resolvePiInvocation } from "./harness/pi-invocation.ts";
import { readDepthState } from "./launch/depth.ts";
import { createSubagentTool, type SubagentToolConfig } from "./tools/subagent-tool.ts";

const DEFAULT_CONFIG: SubagentToolConfig = {
	limits: {
		timeoutMs: 30 * 60_000,
		killGraceMs: 3_000,
		terminalGraceMs: 2_000,
		drainMs: 1_000,
		maxLineBytes: 16 * 1024 * 1024,
		stderrTailBytes: 16 * 1024,
	},
	caps: { maxBytes: 50 * 1024, maxLines: 2_000 },
	callLimits: { maxParallelTasks: 8, maxChainSteps: 16 },
	concurrency: 4,
	updateIntervalMs: 100,
};

export default function piNativeSubagents(pi: ExtensionAPI): void {
	const agentDir = getAgentDir();
	const globalLimit = pLimit(4);
	pi.registerTool(
		createSubagentTool({
			adapters: {
				pi: createPiAdapter({
					invocation: resolvePiInvocation(),
					sessionDir: join(agentDir, "pi-native-subagents", "sessions"),
					agentDir,
				}),
			},
			globalLimit,
			config: () => DEFAULT_CONFIG,
			depth: () => readDepthState(process.env, 1),
			agentDir,
			baseEnv: () => process.env,
		}),
	);
}
