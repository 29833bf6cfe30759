/**
 * Every grace and deadline the package applies to a child, side by side, in ms (docs/rules.md §Child
 * processes). The settings file sets two of them per run (`limits.timeout_ms`, `limits.kill_grace_ms`;
 * their defaults are here); the others are fixed. The parent-death watchdog (`process/watchdog.mjs`) keeps
 * its own two short waits, since it runs as plain JavaScript in its own Node process.
 */

/** Default wall-clock limit per child (settings `limits.timeout_ms`): 30 minutes. */
export const DEFAULT_TIMEOUT_MS = 30 * 60 * 1000;

/** Default SIGTERM → SIGKILL grace of a child's process group (settings `limits.kill_grace_ms`). */
export const DEFAULT_KILL_GRACE_MS = 5_000;

/** A child that emitted its terminal event gets this long to exit by itself before it is ended. */
export const TERMINAL_GRACE_MS = 2_000;

/** stdout is still read this long after a child exits, for output left in the pipe. */
export const DRAIN_MS = 1_000;

/** A graceful stop of a background job waits this long for its children to end their turns, then kills them. */
export const STOP_GRACE_MS = 5_000;

/**
 * A send waits this long for the harness's acknowledgement before answering `unacknowledged`
 * (docs/background-jobs.md §Talking to running children). A stop needs none: its grace period kills the child.
 */
export const ACK_TIMEOUT_MS = 10_000;

/**
 * Default of settings `interactive.dialog_timeout_ms` (2 minutes): an interactive child whose harness shows
 * a first-run dialog this long with no change on the screen ends `failed` (not with `stay_open`).
 */
export const DIALOG_TIMEOUT_MS = 120_000;

/** When the tmux server closes, a pane's process group still alive after this long is killed. */
export const TMUX_CLOSE_GRACE_MS = 1_000;

/**
 * A dead interactive pane is waited this long for tmux to report its process's exit status: tmux can close
 * the pane's terminal (its end read) a moment before it reaps the process (interactive/pane-state.ts).
 */
export const PANE_EXIT_REPORT_MS = 5_000;
