/**
 * Runs one child to a RunResult (docs/rules.md §Child processes, docs/harness-support.md): adapter →
 * command, process core → records, parser → RunEvents, RunState → RunResult. The final status comes from
 * the harness's verdict and how the process ended (`settleRun`).
 */
import { mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "../core/atomic-write.ts";
import type { ChildInputChannel } from "../core/child-input.ts";
import type { HarnessAdapter, HarnessCommand } from "../core/harness-adapter.ts";
import { LaunchError } from "../core/launch-error.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import type { LiveRun, RunResult } from "../core/run-result.ts";
import { startProcess } from "../process/start-process.ts";
import type { ProcessOutcome } from "../process/types.ts";
import { HeadlessInputChannel, NoInputChannel } from "./child-channel.ts";
import { applyEnvOverrides } from "./child-env.ts";
import { makeOwnedTempDir, RUN_DIR_PREFIX } from "./leftovers.ts";
import { RunState } from "./run-state.ts";
import { describeCommand, type RunEnding, type SettleContext, settleRun } from "./settle.ts";
import { StructuredResult } from "./structured-result.ts";

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
 * With an `outputSchema`, the child's result is validated at the end of its turn and a missing or invalid
 * one gets one repair turn (docs/structured-output.md): the next turn of its open conversation (pi,
 * claude), or a resume of its session (codex), folded into the same result.
 * @throws LaunchError when the command cannot be built (a resumed pi session's file has gone since
 *   validation), or the harness has no structured result mechanism for an `outputSchema`.
 */
export async function runChild(
	spec: LaunchSpec,
	adapter: HarnessAdapter,
	options: RunChildOptions,
): Promise<RunResult> {
	const runDir = makeOwnedTempDir(RUN_DIR_PREFIX);
	try {
		const command = adapter.buildCommand(spec, runDir);
		const state = new RunState(spec, describeCommand(command.file, command.args));
		const structured = structuredResultOf(spec, adapter);
		const life: ProcessLife = { spec, adapter, command, state, structured, options };
		let outcome = await runProcess(life, true);
		// Without an open conversation the repair turn is a resume of the same session (codex exec resume).
		const sessionId = state.live.nativeSessionId;
		const repair =
			!command.conversation && outcome.end === "exited" && state.terminal?.status === "completed" && sessionId
				? structured?.takeRepair()
				: undefined;
		if (repair && sessionId) {
			const resumed: LaunchSpec = { ...spec, task: repair, session: { kind: "resume", nativeSessionId: sessionId } };
			state.reopenTurn();
			const first = outcome;
			const second = await runProcess(
				{ ...life, spec: resumed, command: adapter.buildCommand(resumed, runDir) },
				false,
			);
			outcome = { ...second, durationMs: first.durationMs + second.durationMs };
		}
		const result = settleProcess(state, outcome, {
			commandEnv: adapter.commandEnv,
			timeoutMs: spec.limits.timeoutMs,
			stopAck: life.channel?.stopAck,
			checkCompleted: structured && ((result) => structured.verdict(result)),
		});
		writeOutputFile(spec, result);
		return result;
	} finally {
		rmSync(runDir, { recursive: true, force: true });
	}
}

/** What one process of a run needs; `channel` is set once a conversation's stdin is open. */
interface ProcessLife {
	spec: LaunchSpec;
	adapter: HarnessAdapter;
	command: HarnessCommand;
	state: RunState;
	structured: StructuredResult | undefined;
	options: RunChildOptions;
	channel?: HeadlessInputChannel;
}

/** The structured result of a spec with an `outputSchema` (its adapter passed validation, so it has a mechanism). */
function structuredResultOf(spec: LaunchSpec, adapter: HarnessAdapter): StructuredResult | undefined {
	if (!spec.outputSchema) return undefined;
	if (!adapter.structuredResult) throw new LaunchError(`${spec.harness} harness: output_schema is not supported`);
	return new StructuredResult(spec.outputSchema, adapter.structuredResult);
}

/**
 * Runs one process of the run (the first, or a repair turn's resume) to its outcome, folding its records
 * into `life.state`. `first`: the process whose input channel the caller gets.
 */
async function runProcess(life: ProcessLife, first: boolean): Promise<ProcessOutcome> {
	const { spec, adapter, command, state, structured, options } = life;
	const parser = adapter.createParser(spec);
	// The live run, not a copy: consumers copy at their own pace (the tool's throttled UI update).
	const emit = () => options.onUpdate?.(state.live);
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
				life.channel?.observe(record);
				let changed = false;
				for (const event of parser.parse(record)) {
					if (state.apply(event)) changed = true;
					if (event.type === "structured_output") structured?.submitted(event.value);
					if (event.type !== "done") continue;
					if (event.status === "completed" && structured && !structured.turnEnded(state.live.finalAnswer)) {
						// The repair turn of an open conversation: the child's next turn, in the same session.
						const repair = life.channel?.open ? structured.takeRepair() : undefined;
						if (repair && life.channel?.startTurn(repair)) {
							state.reopenTurn();
							continue;
						}
					}
					// An open conversation ends when the harness's turn does, unless queued input starts another.
					if (life.channel?.turnEnded() ?? true) running.terminalSeen();
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
		life.channel = new HeadlessInputChannel(
			spec.harness,
			running.input,
			command.conversation,
			state.live,
			emit,
			options.ackTimeoutMs,
		);
		life.channel.start();
	}
	if (first && running.pid !== undefined) {
		options.onInput?.(life.channel ?? new NoInputChannel(spec.harness, adapter.inputRefusal ?? NO_STDIN));
	}
	const outcome = await running.done;
	life.channel?.processEnded();
	for (const event of parser.finish?.() ?? []) state.apply(event);
	return outcome;
}

/**
 * An agent's `output` file (pi-subagents; docs/agent-libraries.md): a completed run's final answer is also
 * written there, atomically, and the result names it (`outputFile`, or `outputError` when the write failed).
 */
function writeOutputFile(spec: LaunchSpec, result: RunResult): void {
	if (!spec.outputFile || result.status !== "completed") return;
	try {
		mkdirSync(dirname(spec.outputFile), { recursive: true });
		writeFileAtomic(spec.outputFile, result.finalAnswer, 0o644);
		result.outputFile = spec.outputFile;
	} catch (error) {
		result.outputError = `the answer could not be written to ${spec.outputFile}: ${(error as Error).message}`;
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
	context: {
		commandEnv: string;
		timeoutMs: number;
		stopAck: string | undefined;
		checkCompleted: SettleContext["checkCompleted"];
	},
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
		checkCompleted: context.checkCompleted,
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
