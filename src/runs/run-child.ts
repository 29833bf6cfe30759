/**
 * Runs one child to a RunResult (docs/rules.md §Child processes, docs/harness-support.md): adapter →
 * command, process core → records, parser → RunEvents, RunState → RunResult. Decides the final status
 * from the harness's verdict and how the process ended.
 */
import { rmSync } from "node:fs";
import type { ChildInputChannel } from "../core/child-input.ts";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import type { RunResult } from "../core/run-result.ts";
import { startProcess } from "../process/start-process.ts";
import type { ProcessOutcome } from "../process/types.ts";
import { HeadlessInputChannel, NoInputChannel } from "./child-channel.ts";
import { applyEnvOverrides } from "./child-env.ts";
import { makeOwnedTempDir, RUN_DIR_PREFIX } from "./leftovers.ts";
import { RunState } from "./run-state.ts";

export interface RunChildOptions {
	/** The complete base environment of the child (see `buildChildEnv`). */
	env: Record<string, string>;
	/** Aborting kills the child's whole process group; the result is `aborted` and keeps partial output. */
	signal?: AbortSignal;
	/**
	 * Called with the live result (mutated as the run goes on) whenever something visible changes; copy it
	 * if you keep it. Not throttled.
	 */
	onUpdate?: (partial: RunResult) => void;
	/** Called once the child has started, with its input channel (refusing channel when it takes no input). */
	onInput?: (channel: ChildInputChannel) => void;
	/** How long a send waits for the harness's acknowledgement, ms (default `ACK_TIMEOUT_MS`). */
	ackTimeoutMs?: number;
}

/**
 * Runs `spec` with `adapter` and resolves with its RunResult. Never rejects for child failures:
 * spawn errors, crashes, timeouts and protocol faults become a non-`completed` status with a reason.
 *
 * `spec` must have passed its adapter's `validate` (the tool checks every child before any starts).
 * @throws LaunchError when the command cannot be built (a resumed pi session's file has gone since validation).
 */
export async function runChild(
	spec: LaunchSpec,
	adapter: HarnessAdapter,
	options: RunChildOptions,
): Promise<RunResult> {
	const runDir = makeOwnedTempDir(RUN_DIR_PREFIX);
	try {
		const command = adapter.buildCommand(spec, runDir);
		const parser = adapter.createParser(spec);
		const state = new RunState(spec, describeCommand(command.file, command.args));
		// The live result, not a copy: consumers copy at their own pace (the tool's throttled UI update).
		const emit = () => options.onUpdate?.(state.result);
		let channel: HeadlessInputChannel | undefined;
		const running = startProcess(
			{
				file: command.file,
				args: command.args,
				cwd: spec.cwd,
				env: applyEnvOverrides(options.env, command.env),
				stdin: command.stdin,
				openStdin: command.conversation !== undefined,
			},
			{
				limits: spec.limits,
				signal: options.signal,
				onRecord(record) {
					channel?.observe(record);
					let changed = false;
					for (const event of parser.parse(record)) {
						if (state.apply(event)) changed = true;
						// An open conversation ends when the harness's turn does, unless queued input starts another.
						if (event.type === "done" && (channel?.turnEnded() ?? true)) running.terminalSeen();
					}
					if (changed) emit();
				},
				onDiagnostic(line) {
					state.addDiagnostic(line);
				},
			},
		);
		// Known from the start, so live results (and job listings) name the process group to watch.
		state.result.pid = running.pid;
		if (running.input && command.conversation) {
			const { conversation } = command;
			channel = new HeadlessInputChannel(
				spec.harness,
				running.input,
				conversation,
				state.result,
				emit,
				options.ackTimeoutMs,
			);
			channel.start();
		}
		if (running.pid !== undefined) {
			options.onInput?.(channel ?? new NoInputChannel(spec.harness, adapter.inputRefusal ?? NO_STDIN));
		}
		const outcome = await running.done;
		channel?.processEnded();
		for (const event of parser.finish?.() ?? []) state.apply(event);
		settle(state, outcome, adapter.commandEnv, spec.limits.timeoutMs);
		const stopAck = channel?.stopAck;
		if (stopAck && state.result.status !== "completed") {
			state.setStatus("aborted", `stopped on request (${stopAck}); ${state.result.error ?? "the run ended"}`);
		}
		return state.result;
	} finally {
		rmSync(runDir, { recursive: true, force: true });
	}
}

/** The refusal of a harness that declares no reason of its own. */
const NO_STDIN = "this child was started without an input channel";

/**
 * Final status from the process outcome and the harness's terminal verdict (docs/rules.md §Child processes:
 * exit 0 without one is a failure).
 */
/**
 * @param commandEnv the variable that sets the harness's command, named when it cannot start.
 * @param timeoutMs the wall-clock limit in force, ms, named when it was reached.
 */
function settle(state: RunState, outcome: ProcessOutcome, commandEnv: string, timeoutMs: number): void {
	const result = state.result;
	result.pid = outcome.pid;
	result.exitCode = outcome.exitCode;
	result.signal = outcome.signal;
	result.stderrTail = outcome.stderrTail;
	result.durationMs = outcome.durationMs;
	for (const fault of outcome.protocolFaults) state.addDiagnostic(`protocol fault: ${fault}`);
	state.settleAnswer();
	const verdict = state.terminal;
	switch (outcome.end) {
		case "spawn_failed":
			state.setStatus(
				"failed",
				`the ${result.harness} harness ${outcome.spawnError ?? `could not start ${result.command}`} (set ${commandEnv} to choose its command)`,
			);
			return;
		case "aborted":
			state.setStatus("aborted", "aborted by the caller; the child's process group was killed");
			return;
		case "timed_out":
			state.setStatus(
				"timed_out",
				`timed out after ${Math.round(outcome.durationMs)} ms (the limit is ${timeoutMs} ms, setting limits.timeout_ms); the child's process group was killed`,
			);
			return;
		case "killed_after_terminal":
		case "exited":
			break;
	}
	if (verdict) {
		if (verdict.status === "completed") {
			if (outcome.end === "exited" && outcome.exitCode !== 0) {
				// The stream said success but the process said otherwise: trust neither silently.
				const how = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.exitCode}`;
				state.setStatus("failed", `the child reported success but ${how}`);
				return;
			}
			state.setStatus("completed");
			return;
		}
		state.setStatus(verdict.status, verdict.error ?? state.lastError ?? `the child reported ${verdict.status}`);
		return;
	}
	const how = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.exitCode}`;
	if (outcome.exitCode === 0) {
		const faults = outcome.protocolFaults.length > 0 ? ` (${outcome.protocolFaults.join("; ")})` : "";
		state.setStatus("failed", `protocol: the child ${how} without a terminal event${faults}`);
	} else {
		state.setStatus("failed", state.lastError ? `${state.lastError}; the child ${how}` : `the child ${how}`);
	}
}

/** `file arg…` for messages; long arguments are elided. */
function describeCommand(file: string, args: string[]): string {
	return [file, ...args]
		.map((part) => (part.length > 120 ? `${part.slice(0, 60)}…` : part))
		.map((part) => (/[\s"'\\$]/.test(part) ? JSON.stringify(part) : part))
		.join(" ");
}
