/**
 * What gates need from the session that runs the graph (docs/graphs.md §Command gates, §Human gates): where
 * a command runs and with which environment, and a UI to ask a person. The tool provides them; a graph run
 * without a UI (print mode, a background job after the session's UI is gone) gives `hasUI() === false`.
 */
import type { RunLimits } from "../core/launch-spec.ts";

/** Where command gates run: the session's cwd, a child's environment and the run limits. */
export interface CommandHost {
	context(): { cwd: string; env: Record<string, string>; limits: RunLimits };
}

/** One question to a person; `id` is unique per request (a late or duplicate answer is refused by it). */
export interface HumanRequest {
	id: string;
	node: string;
	question: string;
	choices?: string[];
	/** The answer's JSON Schema (`output_schema`), when the gate has one. */
	schema?: Record<string, unknown>;
	/** The message of the previous answer that did not validate, when asking again. */
	invalid?: string;
}

/** What the person did: answered (text or a choice), or refused (Escape). */
export type HumanReply = { answer: string } | { declined: true };

export interface HumanHost {
	/** False when there is no UI to ask (headless). */
	hasUI(): boolean;
	/** Asks in the UI; `signal` dismisses the dialog (the run was cancelled). */
	ask(request: HumanRequest, signal: AbortSignal): Promise<HumanReply>;
}

export interface GateHosts {
	command?: CommandHost;
	human?: HumanHost;
}
