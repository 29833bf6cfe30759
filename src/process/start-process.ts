/**
 * Start a child and see it to its end (SECURITY.md, "Processes"). Orchestration only, as a list of
 * stages: spawn (spawn.ts), reading and drain (drain.ts), deadlines (deadlines.ts), termination
 * (termination.ts), with one explicit phase: running → stopping → exited → settled.
 */
import { childInput } from "./child-input.ts";
import { Deadlines } from "./deadlines.ts";
import { OutputReader } from "./drain.ts";
import { lifeline as defaultLifeline } from "./lifeline.ts";
import { type Spawned, spawnChild } from "./spawn.ts";
import { GroupTerminator } from "./termination.ts";
import type { ChildCommand, ProcessEnd, ProcessOptions, ProcessOutcome, RunningProcess } from "./types.ts";

/** Why we ended the group. */
type StopReason = Exclude<ProcessEnd, "exited" | "spawn_failed">;
type Exit = { code: number | null; signal: NodeJS.Signals | null };

/**
 * - `running`: the leader is alive and nobody asked it to stop;
 * - `stopping`: we are ending the group (`reason`), the leader has not exited yet;
 * - `exited`: the leader exited (`reason` set if we had stopped it); output is draining;
 * - `settled`: `done` has resolved; nothing more happens.
 */
type Phase =
	| { name: "running" }
	| { name: "stopping"; reason: StopReason }
	| { name: "exited"; reason: StopReason | undefined; exit: Exit }
	| { name: "settled" };

/**
 * Spawns `command` and returns at once.
 *
 * - No shell; the child leads its own process group (`detached`), so the group can be signalled as a whole,
 *   and the group is registered with the lifeline, so it dies with Pi however Pi dies.
 * - `command.env` plus the run marker (`PI_NATIVE_SUBAGENTS_RUN`) is the complete environment;
 *   `command.stdin` is written to stdin byte for byte and stdin is closed, or stdin is kept open
 *   with `command.openStdin` (the caller writes lines through `input`), or stdin is /dev/null.
 * - stdout is framed into `onRecord` / `onDiagnostic` calls (see framing.ts); framing faults land in
 *   `protocolFaults`. With `options.stdoutTailBytes` (`RawStdout`) it is not framed: the outcome's
 *   `stdoutTail` holds its last bytes. stderr is kept as a tail of `limits.stderrTailBytes` bytes.
 * - The run ends when the child has exited and stdout has drained: stdout reached EOF, or `limits.drainMs`
 *   (ms) passed since the exit. Whatever is left of the child's processes when the leader exits (its group,
 *   its members' descendants, processes carrying its run marker) is SIGKILLed.
 * - `options.signal` aborting, or `limits.timeoutMs` (ms) passing, ends the group: SIGTERM, then SIGKILL
 *   after `limits.killGraceMs` (ms) unless the leader has exited. An already-aborted signal means nothing
 *   is spawned.
 * - `terminalSeen()` gives the child `limits.terminalGraceMs` (ms) to exit by itself; then the same
 *   escalation runs and the end is `killed_after_terminal`.
 *
 * - `options.adopt`: nothing is spawned; the run is that child, started ahead with the same command and
 *   already registered (standby.ts), and everything above applies to it from this call on.
 *
 * Never throws; `done` never rejects. A command that cannot start resolves with `end: "spawn_failed"`
 * and a `spawnError` naming the command and cwd.
 */
export function startProcess(command: ChildCommand, options: ProcessOptions): RunningProcess {
	const startedAt = performance.now();
	const elapsed = () => Math.round(performance.now() - startedAt);
	// Queue-safety: a run aborted while it waited must not start at all (an adopted child is ended unused).
	if (options.signal?.aborted) {
		options.adopt?.terminator.terminate();
		return notStarted(emptyOutcome("aborted"));
	}
	const spawned = options.adopt ?? spawnTerminable(command, options);
	if (spawned.pid === undefined) return notStarted(failedStart(spawned, elapsed));
	const { pid, stdin, terminator } = spawned;
	const { limits, signal } = options;
	const output = new OutputReader(spawned.stdout, spawned.stderr, limits, options);
	const deadlines = new Deadlines();
	let phase: Phase = { name: "running" };
	let resolveDone!: (outcome: ProcessOutcome) => void;
	const done = new Promise<ProcessOutcome>((resolve) => {
		resolveDone = resolve;
	});

	const stop = (reason: StopReason): void => {
		if (phase.name !== "running") return;
		phase = { name: "stopping", reason };
		deadlines.clearRunning();
		terminator.terminate();
	};
	const onAbort = (): void => {
		// After the exit there is nothing left to signal; an abort only cuts the drain short.
		if (phase.name === "exited") output.cut();
		else stop("aborted");
	};
	const settle = (): void => {
		if (phase.name !== "exited") return;
		const { reason, exit } = phase;
		phase = { name: "settled" };
		deadlines.clearAll();
		signal?.removeEventListener("abort", onAbort);
		const stdoutTail = output.stdoutText();
		resolveDone({
			end: reason ?? "exited",
			exitCode: exit.code,
			signal: exit.signal,
			stderrTail: output.stderrText(),
			...(stdoutTail === undefined ? {} : { stdoutTail }),
			protocolFaults: output.protocolFaults,
			durationMs: elapsed(),
			pid,
		});
	};

	signal?.addEventListener("abort", onAbort, { once: true });
	deadlines.startTimeout(limits.timeoutMs, () => stop("timed_out"));
	// The leader's real exit, not `close`: a grandchild can hold stdout open long after the leader is gone.
	spawned.onExit((code, exitSignal) => {
		phase = {
			name: "exited",
			reason: phase.name === "stopping" ? phase.reason : undefined,
			exit: { code, signal: exitSignal },
		};
		deadlines.clearRunning();
		stdin?.destroy();
		terminator.leaderExited();
		deadlines.startDrain(limits.drainMs, () => output.cut());
		void output.drained.then(settle);
	});

	return {
		pid,
		terminalSeen() {
			if (phase.name !== "running") return;
			deadlines.startTerminalGrace(limits.terminalGraceMs, () => stop("killed_after_terminal"));
		},
		done,
		...(stdin ? { input: childInput(stdin) } : {}),
	};
}

/** Spawns `command` (spawn.ts) and, once it runs, puts its group under a terminator registered with the lifeline. */
function spawnTerminable(
	command: ChildCommand,
	options: ProcessOptions,
): (Spawned & { pid: number; terminator: GroupTerminator }) | (Spawned & { pid: undefined }) {
	const lifeline = options.lifeline ?? defaultLifeline;
	const marker = lifeline.nextMarker();
	const spawned = spawnChild(command, marker);
	if (spawned.pid === undefined) {
		marker.settle();
		return spawned;
	}
	return { ...spawned, terminator: new GroupTerminator(spawned.pid, options.limits.killGraceMs, marker, lifeline) };
}

/** The outcome of a command that did not start: why, and whether this package refused it (nothing was tried). */
async function failedStart(spawned: Spawned & { pid: undefined }, elapsed: () => number): Promise<ProcessOutcome> {
	const spawnError = await spawned.spawnError;
	const refused = spawned.refused ? { startRefused: true } : {};
	return { ...emptyOutcome("spawn_failed"), spawnError, ...refused, durationMs: elapsed() };
}

function notStarted(outcome: ProcessOutcome | Promise<ProcessOutcome>): RunningProcess {
	return { pid: undefined, terminalSeen() {}, done: Promise.resolve(outcome) };
}

function emptyOutcome(end: ProcessEnd): ProcessOutcome {
	return { end, exitCode: null, signal: null, stderrTail: "", protocolFaults: [], durationMs: 0 };
}
