/**
 * The session-start report of agent files that fail to load (docs/agent-libraries.md §Catalogue; issue 20
 * item 4): with a UI, notifications when the session starts; without one (print and JSON mode), the same
 * lines appended to the first `subagent` result of the session. Each problem is reported once per Pi
 * process. Light at start: when no searched directory holds an agent file (a fresh install), nothing but
 * Node's `readdirSync` runs (the listing of the agent dirs is imported with the extension); the parsers (zod,
 * yaml, smol-toml) load only when there are files to check.
 */
import type { AgentToolResult } from "@earendil-works/pi-coding-agent";
import { hasAgentFiles } from "../config/agent-dirs.ts";
import { loadSerially } from "../core/deferred.ts";

/** The heading of the lines appended to a tool result in a session without a UI. */
export const START_REPORT_HEADING = "pi-native-subagents: agent files that failed to load (reported once):";

export class AgentStartReport {
	private readonly reported = new Set<string>();
	private readonly agentDir: string;
	/** The cwd of a session start without a UI whose report is still to be given. */
	private pendingCwd: string | undefined;

	/** @param agentDir Pi's agent directory (`getAgentDir()`). */
	constructor(agentDir: string) {
		this.agentDir = agentDir;
	}

	/**
	 * At a session start in `cwd`: with a UI, the problems to notify now; without one, `[]`, and the report
	 * waits for the session's first `subagent` result ({@link appendTo}).
	 */
	async atSessionStart(cwd: string, hasUI: boolean): Promise<string[]> {
		if (hasUI) {
			this.pendingCwd = undefined;
			return this.fresh(cwd);
		}
		this.pendingCwd = cwd;
		return [];
	}

	/** Appends the pending report, if any, to `result` (once per session start without a UI). */
	async appendTo<D>(result: AgentToolResult<D>): Promise<AgentToolResult<D>> {
		const cwd = this.pendingCwd;
		if (cwd === undefined) return result;
		this.pendingCwd = undefined;
		const lines = await this.fresh(cwd);
		if (lines.length === 0) return result;
		const text = [START_REPORT_HEADING, ...lines.map((line) => `- ${line}`)].join("\n");
		return { ...result, content: [...result.content, { type: "text", text }] };
	}

	/** Problems of every scope's agent files not reported before in this process. */
	private async fresh(cwd: string): Promise<string[]> {
		// Queued behind a runtime load that may be running (src/core/deferred.ts).
		if (!hasAgentFiles({ cwd, agentDir: this.agentDir, scope: "both", builtinDir: null })) return [];
		const { agentLoadProblems } = await loadSerially(() => import("./agent-catalogue.ts"));
		const fresh = agentLoadProblems({ cwd, agentDir: this.agentDir }).filter((line) => !this.reported.has(line));
		for (const line of fresh) this.reported.add(line);
		return fresh;
	}
}
