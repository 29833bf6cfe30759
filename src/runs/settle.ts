/**
 * How every run of a child ends, headless or in a TUI: the one mapping of how it ended × the harness's
 * terminal verdict → final status and message (docs/rules.md §Child processes: an exit without a verdict is
 * a failure), and the one description of a command in messages.
 */
import type { RunResult, RunStatus } from "../core/run-result.ts";
import type { RunState } from "./run-state.ts";

/** What held the child and was killed when its run was cut short. */
export type ChildHolder = "process group" | "tmux session";

/** A headless process that exited by itself. */
export interface ProcessExit {
	kind: "exited";
	exitCode: number | null;
	signal: string | null;
	/** Framing problems of its stdout, named when no verdict came. */
	protocolFaults: readonly string[];
}

/** How a run ended, whatever ran it. */
export type RunEnding =
	| ProcessExit
	/** The harness's records ended the turn; the child was then ended (or kept open, `stay_open`). */
	| { kind: "turn_ended" }
	/** A TUI exited before its records showed the end of the turn; `exitStatus` when it exited normally. */
	| { kind: "tui_exited"; exitStatus: number | undefined }
	/** The harness could not be started; `reason` says why, `commandEnv` names the variable that chooses it. */
	| { kind: "spawn_failed"; reason: string; commandEnv?: string }
	| { kind: "aborted" }
	/** The wall-clock limit (`timeoutMs`, ms) was reached after `durationMs` ms. */
	| { kind: "timed_out"; durationMs: number; timeoutMs: number }
	/** The TUI's screen did not change for `idleMs` ms (`inactivity_timeout_ms`). */
	| { kind: "inactive"; idleMs: number; keptOpen: boolean }
	/** A first-run dialog (`waitingOn`) stayed on the TUI's screen for `idleMs` ms; `screen` is what it showed. */
	| { kind: "dialog"; waitingOn: string; idleMs: number; screen: string };

/**
 * The settled run's context: what held it, a last check of a completed result, and the acknowledgement of
 * a stop the caller asked for.
 */
export interface SettleContext {
	holder: ChildHolder;
	/**
	 * Checks a run that otherwise completed (its structured result, docs/structured-output.md); may set
	 * result fields, and returns why the run fails instead, or `undefined`.
	 */
	checkCompleted?: (result: RunResult) => string | undefined;
	/** Set when the child acknowledged a stop request: an unfinished run is then `aborted` on request. */
	stopAck?: string;
}

/**
 * Settles `state`'s answer and returns the RunResult for how the run ended.
 * @returns the final RunResult; `error` says why for every status but `completed`.
 */
export function settleRun(state: RunState, ending: RunEnding, context: SettleContext): RunResult {
	state.settleAnswer();
	const result = state.finish(...outcome(state, ending, context.holder));
	const failure = result.status === "completed" ? context.checkCompleted?.(result) : undefined;
	if (failure) fail(result, "failed", failure);
	if (context.stopAck && result.status !== "completed") {
		fail(result, "aborted", `stopped on request (${context.stopAck}); ${result.error ?? "the run ended"}`);
	}
	return result;
}

function fail(result: RunResult, status: Exclude<RunStatus, "completed">, error: string): void {
	result.status = status;
	result.error = error;
}

function outcome(state: RunState, ending: RunEnding, holder: ChildHolder): [RunStatus, string?] {
	const killed = `the child's ${holder} was killed`;
	const harness = state.live.harness;
	switch (ending.kind) {
		case "spawn_failed":
			if (!ending.commandEnv) return ["failed", `the ${harness} child was not started: ${ending.reason}`];
			return ["failed", `the ${harness} harness ${ending.reason} (set ${ending.commandEnv} to choose its command)`];
		case "aborted":
			return ["aborted", `aborted by the caller; ${killed}${lastReported(state)}`];
		case "timed_out":
			return [
				"timed_out",
				`timed out after ${Math.round(ending.durationMs)} ms (the limit is ${ending.timeoutMs} ms, setting limits.timeout_ms); ${killed}${lastReported(state)}`,
			];
		case "inactive": {
			const what = ending.keptOpen ? "the tmux session was kept open (stay_open)" : killed;
			return ["timed_out", `no change on the child's screen for ${ending.idleMs} ms (inactivity_timeout_ms); ${what}`];
		}
		case "dialog":
			return [
				"failed",
				`the ${harness} TUI waited on ${ending.waitingOn} for ${ending.idleMs} ms (interactive.dialog_timeout_ms); ${killed}. Answer it once in the harness run by hand in that directory, or trust the project in Pi. Its screen:\n${ending.screen}`,
			];
		case "tui_exited": {
			const status = ending.exitStatus === undefined ? "" : ` with status ${ending.exitStatus}`;
			return ["failed", `the ${harness} TUI exited${status} before its records showed the end of the turn`];
		}
		case "turn_ended":
		case "exited":
			return byVerdict(state, ending.kind === "exited" ? ending : undefined);
	}
}

/** The harness's verdict, checked against the process's exit when the process exited by itself. */
function byVerdict(state: RunState, exit: ProcessExit | undefined): [RunStatus, string?] {
	const verdict = state.terminal;
	const how = exit?.signal ? `was killed by ${exit.signal}` : `exited with code ${exit?.exitCode}`;
	if (verdict?.status === "completed") {
		// The stream said success but the process said otherwise: trust neither silently.
		if (exit && exit.exitCode !== 0) return ["failed", `the child reported success but ${how}`];
		return ["completed"];
	}
	if (verdict) return [verdict.status, verdict.error ?? state.lastError ?? `the child reported ${verdict.status}`];
	if (!exit) return ["failed", state.lastError ?? "the child reported no verdict"];
	// What a wrong command override prints instead of the harness's records.
	const stdout = state.stdoutLines.describe();
	if (exit.exitCode === 0) {
		const faults = exit.protocolFaults.length > 0 ? ` (${exit.protocolFaults.join("; ")})` : "";
		return ["failed", `protocol: the child ${how} without a terminal event${faults}${stdout}`];
	}
	const ended = `the child ${how}${stdout}`;
	return ["failed", state.lastError ? `${state.lastError}; ${ended}` : ended];
}

/**
 * `; the last error it reported: …` for a child ended before its terminal event (a harness retrying a
 * connection it cannot make says so only in its error events), or "" when it reported none.
 */
function lastReported(state: RunState): string {
	return state.lastError ? `; the last error it reported: ${state.lastError}` : "";
}

/**
 * `file arg…` for messages: long arguments elided, arguments with spaces or quotes JSON-quoted.
 * @param elideLast the last argument is the task (a TUI's first prompt): shown as `<task>`.
 */
export function describeCommand(file: string, args: readonly string[], elideLast = false): string {
	return [file, ...(elideLast ? [...args.slice(0, -1), "<task>"] : args)]
		.map((part) => (part.length > 120 ? `${part.slice(0, 60)}…` : part))
		.map((part) => (/[\s"'\\$]/.test(part) ? JSON.stringify(part) : part))
		.join(" ");
}
