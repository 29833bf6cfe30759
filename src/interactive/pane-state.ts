/**
 * What tmux reports about a session's only pane (`list-panes -F`, tmux(1) FORMATS). tmux marks a pane dead
 * when it closes the pane's terminal, which happens when it reads the terminal's end (all of the process's
 * handles on it closed, as at its exit) or when it reaps the process (SIGCHLD); the exit status and signal
 * are known only from the reaping on. So a pane whose process just exited can be dead a moment before its
 * status is reported, and one whose process closed its terminal but still runs stays dead without one.
 */

/** What tmux reports about a session's only pane. */
export interface PaneState {
	/** pid of the pane's own process (the harness TUI). */
	pid: number;
	/** tmux has closed the pane's terminal (the pane is kept: `remain-on-exit`); see the file. */
	dead: boolean;
	/** tmux has reaped the pane's process: `exitStatus` (a normal exit) or `exitSignal` is known. */
	reaped: boolean;
	/** Exit status of a reaped pane's process, when it exited normally (`#{pane_dead_status}`). */
	exitStatus?: number;
	/** The signal that ended a reaped pane's process (`#{pane_dead_signal}`). */
	exitSignal?: number;
}

/** The `list-panes -F` format {@link parsePaneState} reads. */
export const PANE_STATE_FORMAT = "#{pane_pid}\t#{pane_dead}\t#{pane_dead_status}\t#{pane_dead_signal}";

/** The state of the pane in `line`, one line of `list-panes -F PANE_STATE_FORMAT`. */
export function parsePaneState(line: string): PaneState {
	const [pid, dead, status, signal] = line.split("\t");
	const exitStatus = numberOrUndefined(status);
	const exitSignal = numberOrUndefined(signal);
	return {
		pid: Number(pid),
		dead: dead === "1",
		reaped: dead === "1" && (exitStatus !== undefined || exitSignal !== undefined),
		exitStatus,
		exitSignal,
	};
}

/**
 * When a dead pane's TUI counts as exited: once tmux reports how its process ended (`reaped`), or after
 * `limitMs` without that report (a process that closed its terminal but runs on). tmux closes a pane's
 * terminal at the first of the terminal's end and the process's reaping, so an exit status read when the
 * pane is first seen dead may not be there yet (PaneState).
 */
export class ExitReportWait {
	private readonly limitMs: number;
	private deadSince: number | undefined;

	/** @param limitMs how long a dead pane is waited for tmux's report, ms. */
	constructor(limitMs: number) {
		this.limitMs = limitMs;
	}

	/** True when the run ends on the TUI's exit: the session is gone, or its pane is dead and the wait is over. */
	over(pane: PaneState | undefined, now: number): boolean {
		if (!pane) return true;
		if (!pane.dead) return false;
		this.deadSince ??= now;
		return pane.reaped || now - this.deadSince >= this.limitMs;
	}
}

/** A tmux format's number; `undefined` when tmux left it empty (not known yet, or a format this tmux lacks). */
function numberOrUndefined(text: string | undefined): number | undefined {
	return text === undefined || text === "" ? undefined : Number(text);
}
