/**
 * Shapes shared by the process layer. The layer is harness-agnostic: it spawns a
 * command, frames stdout into JSON records (or keeps its raw tail), keeps a stderr tail and ends the
 * process group cleanly.
 */

import type { Readable, Writable } from "node:stream";
import type { Lifeline } from "./lifeline.ts";
import type { GroupTerminator } from "./termination.ts";

/** A fully resolved command. `env` is the complete child environment (nothing else is inherited). */
export interface ChildCommand {
	/** Executable path or name; spawned without a shell. */
	file: string;
	args: string[];
	/** Absolute working directory. */
	cwd: string;
	env: Record<string, string>;
	/** Text written to stdin, which is then closed. `undefined`: stdin is ignored (/dev/null). */
	stdin?: string;
	/** Keep stdin open as a pipe: `RunningProcess.input` writes lines and ends it (`stdin` is ignored). */
	openStdin?: boolean;
}

/** The open stdin of a child started with `openStdin`. Never throws for a child that is gone. */
export interface ProcessInput {
	/** Writes `line` plus LF. Returns false (writing nothing) once input has ended or the child has exited. */
	writeLine(line: string): boolean;
	/** Closes stdin: the orderly end of the child's input. Idempotent. */
	end(): void;
	/** False once `end()` was called or the child has exited. */
	readonly open: boolean;
}

export interface ProcessCallbacks {
	/** One parsed JSON value per stdout line. */
	onRecord(record: unknown): void;
	/** A stdout line that is not JSON (kept as a diagnostic, never a crash). */
	onDiagnostic(line: string): void;
	/**
	 * A framing fault (a record dropped for being over `maxLineBytes`, output cut off mid-record), in stream
	 * order with the records; it is in the outcome's `protocolFaults` too.
	 */
	onFault?(fault: string): void;
}

/**
 * The bounds the process layer enforces on one process (its own shape; callers pass their run limits).
 * Durations in ms, sizes in bytes: `timeoutMs` from spawn to kill, `killGraceMs` from SIGTERM to SIGKILL,
 * `terminalGraceMs` from `terminalSeen()` to kill, `drainMs` of stdout reading after exit,
 * `maxLineBytes` per stdout record, `stderrTailBytes` of stderr kept.
 */
export interface ProcessLimits {
	timeoutMs: number;
	killGraceMs: number;
	terminalGraceMs: number;
	drainMs: number;
	maxLineBytes: number;
	stderrTailBytes: number;
}

/**
 * stdout read as bytes, not records: nothing is framed, and the outcome's `stdoutTail` holds its last
 * `stdoutTailBytes` bytes, an unterminated last line included (a command gate's output, docs/graphs.md
 * §Command gates). Memory stays within that size plus one chunk.
 */
export interface RawStdout {
	/** Size of the kept stdout tail, bytes. */
	stdoutTailBytes: number;
}

/** How `startProcess` runs a process; stdout goes to `ProcessCallbacks` as records, or is kept as a `RawStdout` tail. */
export type ProcessOptions = ProcessSettings & (ProcessCallbacks | RawStdout);

export interface ProcessSettings {
	limits: ProcessLimits;
	/** Aborting kills the whole process group (SIGTERM, then SIGKILL after `killGraceMs`). */
	signal?: AbortSignal;
	/** Where the child is registered for cleanup on Pi's death; default the watchdog-backed `lifeline`. */
	lifeline?: Lifeline;
	/**
	 * A child started ahead of this run (`StandbyProcess.adopt`) to run instead of spawning `command`: it is
	 * the same command, already registered with its lifeline; limits and deadlines count from now.
	 */
	adopt?: AdoptedProcess;
}

/**
 * How the process ended, from the process layer's point of view:
 * - `exited`: it exited by itself (any code or signal);
 * - `killed_after_terminal`: the caller reported a terminal event and the child did not exit within `terminalGraceMs`;
 * - `aborted`: the abort signal fired first;
 * - `timed_out`: `timeoutMs` passed first;
 * - `spawn_failed`: the command could not be started (`spawnError` says why).
 */
export type ProcessEnd = "exited" | "killed_after_terminal" | "aborted" | "timed_out" | "spawn_failed";

export interface ProcessOutcome {
	end: ProcessEnd;
	exitCode: number | null;
	/** Signal name that ended the process, e.g. "SIGTERM". */
	signal: string | null;
	spawnError?: string;
	/** `spawn_failed` without trying: this package refused to start it (`spawnError` says why; no command is at fault). */
	startRefused?: boolean;
	/** Last `stderrTailBytes` bytes of stderr, decoded as UTF-8. */
	stderrTail: string;
	/** With `RawStdout`: the last `stdoutTailBytes` bytes of stdout, decoded as UTF-8 (absent when nothing started). */
	stdoutTail?: string;
	/** Framing problems: over-long records, output cut off mid-record. */
	protocolFaults: string[];
	/** Wall time from spawn to the end of the drain, ms. */
	durationMs: number;
	pid?: number;
}

export interface RunningProcess {
	/** pid of the child, which is also its process-group id. `undefined` if the spawn failed. */
	pid: number | undefined;
	/** Tell the layer the harness emitted its terminal event: the child gets `terminalGraceMs` to exit. */
	terminalSeen(): void;
	/** Resolves once the child has exited (or been killed) and stdout has drained. Never rejects. */
	done: Promise<ProcessOutcome>;
	/** Set when the child was started with `openStdin`; closed at the latest when the child exits. */
	input?: ProcessInput;
}

/** What `startProcess` needs of a child it adopts instead of spawning one (see `ProcessOptions.adopt`). */
export interface AdoptedProcess {
	pid: number;
	stdout: Readable;
	stderr: Readable;
	stdin: Writable;
	onExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
	terminator: GroupTerminator;
}
