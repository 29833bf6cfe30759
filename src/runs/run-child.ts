/**
 * Runs one child to a RunResult (docs/rules.md §Child processes, docs/harness-support.md): adapter →
 * command, process core → records, parser → RunEvents, RunState → RunResult. The final status comes from
 * the harness's verdict and how the process ended (`settleRun`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildInputChannel } from "../core/child-input.ts";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import type { LiveRun, RunResult } from "../core/run-result.ts";
import { startProcess } from "../process/start-process.ts";
import type { ProcessOutcome } from "../process/types.ts";
import { HeadlessInputChannel, NoInputChannel } from "./child-channel.ts";
import { applyEnvOverrides } from "./child-env.ts";
import { RunState } from "./run-state.ts";
import { describeCommand, type RunEnding, settleRun } from "./settle.ts";

export interface RunChildOptions {
	/** The complete base environment of the child (see `buildChildEnv`). */
	env: Record<string, string>;
	/** Aborting kills the child's whole process group; the result is `aborted` and keeps partial output. */
	signal?: AbortSignal;
	/**
	 * Called with the live run (mutated as the run goes on) whenever something visible changes; copy it
	 * if you keep it. Not throttled.
	 */
	onUpdate?: (live: LiveRun) => void;
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
	const runDir = mkdtempSync(join(tmpdir(), "pi-native-subagents-run-"));
	try {
		const command = adapter.buildCommand(spec, runDir);
		const parser = adapter.createParser(spec);
		const state = new RunState(spec, describeCommand(command.file, command.args));
		// The live run, not a copy: consumers copy at their own pace (the tool's throttled UI update).
		const emit = () => options.onUpdate?.(state.live);
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
		state.live.pid = running.pid;
		if (running.input && command.conversation) {
			const { conversation } = command;
			channel = new HeadlessInputChannel(
				spec.harness,
				running.input,
				conversation,
				state.live,
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
		return settleProcess(state, outcome, {
			commandEnv: adapter.commandEnv,
			timeoutMs: spec.limits.timeoutMs,
			stopAck: channel?.stopAck,
		});
	} finally {
		rmSync(runDir, { recursive: true, force: true });
	}
}

/** The refusal of a harness that declares no reason of its own. */
const NO_STDIN = "this child was started without an input channel";

/**
 * Copies how the process ended into the live run and settles it (see `settleRun`).
 * @param commandEnv the variable that sets the harness's command, named when it cannot start.
 * @param timeoutMs the wall-clock limit in force, ms, named when it was reached.
 */
function settleProcess(
	state: RunState,
	outcome: ProcessOutcome,
	context: { commandEnv: string; timeoutMs: number; stopAck: string | undefined },
): RunResult {
	const live = state.live;
	live.pid = outcome.pid;
	live.exitCode = outcome.exitCode;
	live.signal = outcome.signal;
	live.stderrTail = outcome.stderrTail;
	live.durationMs = outcome.durationMs;
	for (const fault of outcome.protocolFaults) state.addDiagnostic(`protocol fault: ${fault}`);
	return settleRun(state, processEnding(outcome, live.command, context), {
		holder: "process group",
		stopAck: context.stopAck,
	});
}

function processEnding(
	outcome: ProcessOutcome,
	command: string,
	context: { commandEnv: string; timeoutMs: number },
): RunEnding {
	switch (outcome.end) {
		case "spawn_failed":
			return {
				kind: "spawn_failed",
				reason: outcome.spawnError ?? `could not start ${command}`,
				commandEnv: context.commandEnv,
			};
		case "aborted":
			return { kind: "aborted" };
		case "timed_out":
			return { kind: "timed_out", durationMs: outcome.durationMs, timeoutMs: context.timeoutMs };
		case "killed_after_terminal":
			return { kind: "turn_ended" };
		case "exited":
			return {
				kind: "exited",
				exitCode: outcome.exitCode,
				signal: outcome.signal,
				protocolFaults: outcome.protocolFaults,
			};
	}
}
