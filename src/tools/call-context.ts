/**
 * The launch context of one tool call (`subagent`, `agent_graph`): what the launch layer needs to know
 * about the calling Pi session, built from the tool's deps, the configuration in force and Pi's `ctx`.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { EffectiveLimits } from "../config/effective-limits.ts";
import type { LaunchState } from "../config/extension-state.ts";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import type { Harness } from "../core/launch-spec.ts";
import type { SessionStartTrust } from "../core/session-start-trust.ts";
import type { LaunchContext } from "../launch/launch-context.ts";
import { type ConsentRecord, type TrustStore, trustPolicy } from "../launch/trust.ts";

/** What the launch context reads from a tool's deps (see `SubagentToolDeps`). */
export interface CallContextDeps {
	agentDir: string;
	adapters: Partial<Record<Harness, HarnessAdapter>>;
	trustStore: TrustStore;
	approveFlag: boolean | undefined;
	startTrust: SessionStartTrust;
	consents: ConsentRecord;
}

/**
 * What the launch context reads of the tool call's context: its cwd, Pi's trust of it, a UI to confirm in,
 * and the parent's session file.
 */
export type CallContext = Pick<ExtensionContext, "cwd" | "isProjectTrusted" | "hasUI"> & {
	ui: Pick<ExtensionContext["ui"], "confirm">;
	sessionManager: Pick<ExtensionContext["sessionManager"], "getSessionFile">;
};

/** The launch context for a call in `ctx`, under the configuration `state` and its `limits`. */
export function launchContextFor(
	deps: CallContextDeps,
	state: LaunchState,
	limits: EffectiveLimits,
	ctx: CallContext,
): LaunchContext {
	return {
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
		interactiveDefaults: limits.interactive,
		parentSessionFile: ctx.sessionManager.getSessionFile(),
	};
}
