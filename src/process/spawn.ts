/**
 * Start a child and see it to its end (docs/rules.md §Child processes). This file is orchestration only: framing, the
 * stderr tail and group termination live in their own files.
 */
import type { Readable, Writable } from "node:stream";
import { execa, type Result } from "execa";
import { createFramer } from "./framing.ts";
import { StderrTail } from "./stderr-tail.ts";
import { GroupTerminator } from "./termination.ts";
import type {
	ChildCommand,
	ProcessEnd,
	ProcessInput,
	ProcessOptions,
	ProcessOutcome,
	RunningProcess,
} from "./types.ts";

/** setTimeout fires at once for delays above 2^31-1 ms; a "generous" timeout must not end a run early. */
const MAX_TIMER_MS = 2_147_483_647;

function timer(ms: number, fire: () => void): NodeJS.Timeout {
	return setTimeout(fire, Math.min(Math.max(0, ms), MAX_TIMER_MS));
}

/**
 * Spawns `command` and returns at once (docs/rules.md §Child processes).
 *
 * - No shell; the child leads its own process group (`detached`), so the group can be signalled as a whole.
 * - `command.env` is the complete environment (nothing of Pi's is inherited); `command.stdin` is written
 *   to stdin byte for byte and stdin is closed, or stdin is /dev/null when it is undefined.
 * - stdout is framed into `onRecord` / `onDiagnostic` calls (see framing.ts); framing faults land in
 *   `protocolFaults`. stderr is kept as a tail of `limits.stderrTailBytes` bytes.
 * - The run ends when the child has exited and stdout has drained: stdout reached EOF, or `limits.drainMs`
 *   passed since the exit (a process outside the group may hold the pipe forever). Whatever is left of
 *   the group when the leader exits is SIGKILLed.
 * - `options.signal` aborting, or `limits.timeoutMs` passing, ends the group: SIGTERM, then SIGKILL after
 *   `limits.killGraceMs` unless the leader has exited (see termination.ts). An already-aborted signal
 *   means nothing is spawned.
 * - `terminalSeen()` gives the child `limits.terminalGraceMs` to exit by itself; then the same escalation
 *   runs and the end is `killed_after_terminal`.
 *
 * Never throws; `done` never rejects. A command that cannot start resolves with `end: "spawn_failed"`
 * and a `spawnError` naming the command and cwd.
 */
export function startProcess(command: ChildCommand, options: ProcessOptions): RunningProcess {
	const { limits, signal } = options;
	const startedAt = performance.now();
	const elapsed = () => Math.round(performance.now() - startedAt);

	// Queue-safety: a run aborted while it waited must not start at all.
	if (signal?.aborted) {
		return notStarted({ ...emptyOutcome("aborted"), durationMs: 0 });
	}

	const subprocess = execa(command.file, command.args, {
		cwd: command.cwd,
		env: command.env,
		extendEnv: false,
		detached: true,
		buffer: false,
		reject: false,
		encoding: "buffer",
		...(command.openStdin
			? { stdin: "pipe" as const }
			: command.stdin === undefined
				? { stdin: "ignore" as const }
				: { input: command.stdin }),
		stdout: "pipe",
		stderr: "pipe",
		// Termination is ours (group-wide); execa's would signal the leader only.
		forceKillAfterDelay: false,
	});
	// With `reject: false` the promise resolves even on failure; it is still awaited only for spawn errors.
	const settled = subprocess.then(
		(result) => result,
		(error: unknown) => error as Result,
	);

	const pid = subprocess.pid;
	if (pid === undefined) {
		return notStarted(
			settled.then((result) => ({
				...emptyOutcome("spawn_failed"),
				spawnError: describeSpawnError(command, result),
				durationMs: elapsed(),
			})),
		);
	}

	const child = subprocess.nodeChildProcess;
	const stdout = child.stdout as Readable;
	const stderr = child.stderr as Readable;
	const terminator = new GroupTerminator(pid, limits.killGraceMs);
	const protocolFaults: string[] = [];
	const stderrTail = new StderrTail(limits.stderrTailBytes);

	/** Why we ended the group, when we did; `undefined` while it runs on its own. */
	let stopReason: Exclude<ProcessEnd, "exited" | "spawn_failed"> | undefined;
	let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
	let terminalTimer: NodeJS.Timeout | undefined;
	let drainTimer: NodeJS.Timeout | undefined;
	let drainCut = false;
	let finished = false;

	const framer = createFramer({
		maxLineBytes: limits.maxLineBytes,
		onRecord: options.onRecord,
		onDiagnostic: options.onDiagnostic,
		onFault: (fault) => protocolFaults.push(fault),
	});
	const stdoutDone = new Promise<void>((resolve) => framer.once("finish", resolve));
	const stderrDone = new Promise<void>((resolve) => stderr.once("close", resolve));
	stdout.pipe(framer);
	stderr.on("data", (chunk: Buffer) => stderrTail.push(chunk));

	const stop = (reason: NonNullable<typeof stopReason>): void => {
		if (exit !== undefined || stopReason !== undefined) return;
		stopReason = reason;
		clearTimeout(timeoutTimer);
		clearTimeout(terminalTimer);
		terminator.terminate();
	};
	const onAbort = (): void => {
		// After the exit there is nothing left to signal; an abort only cuts the drain short.
		if (exit !== undefined) cutDrain();
		else stop("aborted");
	};
	signal?.addEventListener("abort", onAbort, { once: true });
	const timeoutTimer = timer(limits.timeoutMs, () => stop("timed_out"));

	/**
	 * Stops reading after the drain window. Bytes Node has already read are still framed; then the streams
	 * are destroyed, which releases our end of pipes a stray process may keep open.
	 */
	const cutDrain = (): void => {
		if (drainCut) return;
		drainCut = true;
		clearTimeout(drainTimer);
		if (!stdout.readableEnded) {
			stdout.unpipe(framer);
			for (let chunk = stdout.read() as Buffer | null; chunk !== null; chunk = stdout.read() as Buffer | null) {
				framer.write(chunk);
			}
			framer.end();
		}
		stdout.destroy();
		stderr.destroy();
	};

	let resolveDone!: (outcome: ProcessOutcome) => void;
	const done = new Promise<ProcessOutcome>((resolve) => {
		resolveDone = resolve;
	});

	const finish = (): void => {
		if (finished || exit === undefined) return;
		finished = true;
		clearTimeout(drainTimer);
		signal?.removeEventListener("abort", onAbort);
		resolveDone({
			end: stopReason ?? "exited",
			exitCode: exit.code,
			signal: exit.signal,
			stderrTail: stderrTail.text(),
			protocolFaults,
			durationMs: elapsed(),
			pid,
		});
	};

	// The leader's real exit, not `close`: a grandchild can hold stdout open long after the leader is gone.
	child.once("exit", (code, exitSignal) => {
		exit = { code, signal: exitSignal };
		clearTimeout(timeoutTimer);
		clearTimeout(terminalTimer);
		terminator.leaderExited();
		drainTimer = timer(limits.drainMs, cutDrain);
		void Promise.all([stdoutDone, stderrDone]).then(finish);
	});

	return {
		pid,
		input: command.openStdin ? openInput(child.stdin as Writable, () => exit !== undefined) : undefined,
		terminalSeen() {
			if (exit !== undefined || stopReason !== undefined || terminalTimer !== undefined) return;
			terminalTimer = timer(limits.terminalGraceMs, () => stop("killed_after_terminal"));
		},
		done,
	};
}

/** Line writer over an open stdin; a write after the child is gone is refused, and EPIPE is swallowed. */
function openInput(stdin: Writable, exited: () => boolean): ProcessInput {
	let ended = false;
	stdin.on("error", () => {
		ended = true;
	});
	return {
		writeLine(line) {
			if (ended || exited() || stdin.destroyed) return false;
			stdin.write(`${line}\n`);
			return true;
		},
		end() {
			if (ended) return;
			ended = true;
			stdin.end();
		},
		get open() {
			return !ended && !exited() && !stdin.destroyed;
		},
	};
}

function notStarted(outcome: ProcessOutcome | Promise<ProcessOutcome>): RunningProcess {
	return { pid: undefined, terminalSeen() {}, done: Promise.resolve(outcome) };
}

function emptyOutcome(end: ProcessEnd): ProcessOutcome {
	return { end, exitCode: null, signal: null, stderrTail: "", protocolFaults: [], durationMs: 0 };
}

/** "could not start <file> in <cwd>: <reason>", with execa's multi-line reason on one line. */
function describeSpawnError(command: ChildCommand, result: Result): string {
	const reason = (result.originalMessage || result.shortMessage || String(result.cause ?? "unknown error"))
		.split("\n")
		.filter((line) => line.trim() !== "")
		.join("; ");
	const notFound = command.file.includes("/") ? " (no such executable)" : " (executable not found on the child's PATH)";
	const hint = result.code === "ENOENT" && !reason.includes('"cwd"') ? notFound : "";
	return `could not start ${command.file} in ${command.cwd}: ${reason}${hint}`;
}
