/**
 * What the launch layer needs to know about the calling Pi session. Built by the tool layer from the
 * tool's `ctx`; plain data plus one callback, so resolution is testable without a Pi runtime.
 */
import type { Harness, InteractiveOptions, RunLimits } from "../core/launch-spec.ts";
import type { ConsentRecord, TrustPolicy } from "./trust.ts";

export interface LaunchContext {
	/** The tool context's cwd (absolute): ad-hoc `cwd` resolves against it. */
	cwd: string;
	/** Pi's agent directory (`PI_CODING_AGENT_DIR` or `~/.pi/agent`). */
	agentDir: string;
	/** Whether a directory is explicitly trusted (SECURITY.md "Trust"); decides each child's own cwd. */
	trust: TrustPolicy;
	/** Confirmations of project-controlled definitions given in this Pi process. */
	consents: ConsentRecord;
	/** Asks the user a yes/no question; `undefined` when there is no UI (print/json mode). */
	confirm?: (title: string, message: string) => Promise<boolean>;
	/** Depth of the calling session: 0 at the root. */
	depth: number;
	/** Maximum delegation depth in force (from the root's settings, inherited by children). */
	maxDepth: number;
	limits: RunLimits;
	/**
	 * The directory a native session was started in, from the harness's own records (see
	 * `HarnessAdapter.sessionCwd`); `undefined` when unknown. Used for a resume without a launch record.
	 */
	sessionCwd?: (harness: Harness, nativeSessionId: string) => string | undefined;
	/** The parent's session file (absolute), when it is saved: what `defaultContext: fork` forks. */
	parentSessionFile?: string;
	/** Environment read for the agent directories (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`); default `process.env`. */
	env?: Record<string, string | undefined>;
	/** Settings `interactive` defaults for calls that omit them; absent: stay_open false, no inactivity timeout. */
	interactiveDefaults?: InteractiveOptions;
}
