/**
 * Runs one child to a RunResult (docs/rules.md §Child processes, docs/harness-support.md): adapter →
 * command, process core → records, parser → RunEvents, RunState → RunResult. The final status comes from
 * the harness's verdict and how the process ended (`settleRun`).
 */
import { rmSync } from "node:fs";
import type { ChildInputChannel } from "../core/child-input.ts";
import type { HarnessAdapter, HarnessCommand } from "../core/harness-adapter.ts";
import { LaunchError } from "../core/launch-error.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import type { LiveRun, RunResult } from "../core/run-result.ts";
import type { AdoptedProcess } from "../process/standby.ts";
import { startProcess } from "../process/start-process.ts";
import type { ChildCommand, ProcessOutcome } from "../process/types.ts";
import { HeadlessInputChannel, NoInputChannel } from "./child-channel.ts";
import { applyEnvOverrides } from "./child-env.ts";
import { makeOwnedTempDir, RUN_DIR_PREFIX } from "./leftovers.ts";
import { writeOutputFile } from "./output-file.ts";
import { RunState } from "./run-state.ts";
import { describeCommand, type RunEnding, type SettleContext, settleRun } from "./settle.ts";
import { StructuredResult } from "./structured-result.ts";
import type { TakenChild, WarmPool } from "./warm-children.ts";

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
	/**
	 * Warm children (setting `warm_children`, docs/settings.md §Warm pi children): the run adopts an idle child
	 * of its exact launch when one waits, and leaves a fresh one for the next run.
	 */
	warm?: WarmPool;
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
	let taken: TakenChild | undefined;
	try {
		const command = adapter.buildCommand(spec, runDir);
		const child = childCommand(spec, command, options.env);
		const launch = options.warm?.launchOf(spec, adapter, command, child, runDir);
		// A run aborted before it starts spawns nothing (startProcess): it leaves the warm child to the next run.
		taken = launch && !options.signal?.aborted ? options.warm?.take(launch) : undefined;
		const state = new RunState(spec, describeCommand(command.file, taken?.args ?? command.args));
		const structured = structuredResultOf(spec, adapter);
		const life: ProcessLife = { spec, adapter, command, state, structured, options, lost: {}, adopt: taken?.adopted };
		let outcome = await runProcess(life, true);
		// A launch that ran (its process started) leaves a warm child for the next run of it.
		if (launch && outcome.pid !== undefined) options.warm?.prepare(launch);
		// Without an open conversation the repair turn is a resume of the same session (codex exec resume).
		const sessionId = state.live.nativeSessionId;
		const repair =
			!command.conversation && outcome.end === "exited" && state.terminal?.status === "completed" && sessionId
				? structured?.takeRepair()
				: undefined;
		if (repair && sessionId) {
			const first = outcome;
			// limits.timeout_ms is per child: the repair process gets what the first one left of it.
			const limits = { ...spec.limits, timeoutMs: Math.max(1, spec.limits.timeoutMs - first.durationMs) };
			const session = { kind: "resume", nativeSessionId: sessionId } as const;
			const resumed: LaunchSpec = { ...spec, task: repair, session, limits };
			state.reopenTurn();
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
			checkCompleted: (result) => lostAnswer(result, life.lost.afterAnswer) ?? structured?.verdict(result),
		});
		writeOutputFile(spec, result);
		return result;
	} finally {
		rmSync(runDir, { recursive: true, force: true });
		taken?.release();
	}
}

/** The complete command of one process of the run (the harness's overrides applied to the child environment). */
function childCommand(spec: LaunchSpec, command: HarnessCommand, env: Record<string, string>): ChildCommand {
	return {
		file: command.file,
		args: command.args,
		cwd: spec.cwd,
		env: applyEnvOverrides(env, command.env),
		stdin: command.stdin,
		openStdin: command.conversation !== undefined,
	};
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
	/** The last framing fault after the child's last answer (its final text or structured result), if any. */
	lost: { afterAnswer?: string };
	/** A warm child of this launch to run instead of spawning (the first process only). */
	adopt?: AdoptedProcess;
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
	const running = startProcess(childCommand(spec, command, options.env), {
		limits: spec.limits,
		signal: options.signal,
		adopt: first ? life.adopt : undefined,
		onRecord(record) {
			life.channel?.observe(record);
			let changed = false;
			for (const event of parser.parse(record)) {
				if (state.apply(event)) changed = true;
				if ((event.type === "assistant_text" && event.final) || event.type === "structured_output")
					life.lost.afterAnswer = undefined;
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
			state.stdoutLines.add(line);
			state.addDiagnostic(line);
		},
		onFault(fault) {
			life.lost.afterAnswer = fault;
		},
	});
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
 * A run the child reported complete, but a record after its last answer was lost (over `maxLineBytes`): that
 * record may have held the answer or the structured result, so the run fails rather than pass off an
 * earlier or partial text as the answer (docs/rules.md §Child processes); what it has is kept.
 * @returns why the completed run fails, or `undefined`.
 */
function lostAnswer(result: RunResult, fault: string | undefined): string | undefined {
	if (!fault) return undefined;
	const kept = result.finalAnswer ? "; the answer text before it is kept" : "";
	return `protocol: a record after the child's last answer was lost (${fault})${kept}`;
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
				// Refused before any command was tried: choosing another command would not help.
				commandEnv: outcome.startRefused ? undefined : context.commandEnv,
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
