/**
 * Runs one child in its harness's own TUI in a tmux session (docs/interactive.md): the same
 * translated launch as headless, the end of the run read from the harness's own records, never from the
 * screen. The screen is read only to notice inactivity. Resolves with a RunResult like a headless run's,
 * plus where the session is and how to attach to it.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { DIALOG_TIMEOUT_MS, PANE_EXIT_REPORT_MS } from "../core/graces.ts";
import type { HarnessAdapter, TuiRecordReader } from "../core/harness-adapter.ts";
import { LaunchError } from "../core/launch-error.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import type { InteractiveInfo, LiveRun, RunResult } from "../core/run-result.ts";
import { timer as clampedTimer } from "../process/deadlines.ts";
import { applyEnvOverrides } from "../runs/child-env.ts";
import { makeOwnedTempDir, RUN_DIR_PREFIX, writeRunFile } from "../runs/leftovers.ts";
import { writeOutputFile } from "../runs/output-file.ts";
import { RunState, SCREEN_LINE } from "../runs/run-state.ts";
import { describeCommand, type RunEnding, settleRun } from "../runs/settle.ts";
import { DialogWatch } from "./dialog-watch.ts";
import { ExitReportWait } from "./pane-state.ts";
import type { TmuxHost } from "./tmux-host.ts";

/** The program that starts each pane (see the file). */
export const PANE_EXEC = join(import.meta.dirname, "pane-exec.mjs");

/** Scrollback read with a dead pane's screen: tmux scrolls the last output up to show its own line. */
const DEAD_PANE_HISTORY_LINES = 50;
/** tmux's own line in a dead pane (`remain-on-exit`), not the child's output. */
const TMUX_DEAD_PANE = /^Pane is dead \(/;

export interface InteractiveRunOptions {
	/** The parent session's tmux host (created on first use). */
	host(): TmuxHost;
	/** The complete base environment of the child (see `buildChildEnv`). */
	env: Record<string, string>;
	/** Aborting kills the tmux session; the result is `aborted`. */
	signal?: AbortSignal;
	onUpdate?: (live: LiveRun) => void;
	/** How often records, pane and screen are checked, ms; default 200. */
	pollMs?: number;
	/**
	 * How long a dead pane is waited for tmux to report its process's exit, ms; default PANE_EXIT_REPORT_MS.
	 * A pane is dead once tmux closed its terminal, which can come before tmux reaped the process (PaneState).
	 */
	paneExitReportMs?: number;
	/**
	 * Called once the TUI takes typed text into its turn: when its records show it took its first prompt
	 * (`TuiRecordReader.promptTaken`), or at once for a harness whose records cannot tell.
	 */
	onTakesInput?: () => void;
	/** Pane size in columns × rows; default 200 × 50. */
	width?: number;
	height?: number;
}

/**
 * Runs `spec` (which has `interactive` set) in a tmux session of `options.host()`. Never rejects for child
 * failures; they become the result's status.
 * @throws LaunchError when the TUI command cannot be built (a resumed pi session's file has gone since
 *   validation), or when no parent-death watchdog may be started any more (lifeline.ts).
 */
export async function runInteractive(
	spec: LaunchSpec,
	adapter: HarnessAdapter,
	options: InteractiveRunOptions,
): Promise<RunResult> {
	const interactive = spec.interactive ?? { stayOpen: false, inactivityTimeoutMs: null };
	const runDir = makeOwnedTempDir(RUN_DIR_PREFIX);
	try {
		const tui = adapter.buildTuiCommand(spec, runDir);
		const host = options.host();
		const marker = host.nextMarker();
		// No watchdog may be started any more: neither the tmux server nor the pane would die with Pi.
		if (marker.refusal) throw new LaunchError([marker.refusal]);
		const env = { ...applyEnvOverrides(options.env, tui.env), [marker.name]: marker.value };
		const name = `${spec.harness.replace("_", "-")}-${randomBytes(4).toString("hex")}`;
		const state = new RunState(spec, describeCommand(tui.file, tui.args, true));
		const live = state.live;
		const info: InteractiveInfo = {
			socket: host.socket,
			session: name,
			attachCommand: host.attachCommand(name),
			keptOpen: false,
		};
		live.interactive = info;
		let panePid: number | undefined;
		const reader = tui.openRecords({ env, panePid: () => panePid });
		const launch = JSON.stringify({ file: tui.file, args: tui.args, env, cwd: spec.cwd });
		const launchFile = writeRunFile(runDir, "launch.json", launch);
		// What the harness needs in its own files before its TUI starts (claude: the first-run answers).
		tui.beforeStart?.(env);
		// Before the pane exists, so the child has an input channel from its start (sends wait for the TUI).
		options.onUpdate?.(live);
		const started = Date.now();
		const pane = await host.newSession({
			name,
			cwd: spec.cwd,
			command: [process.execPath, PANE_EXEC, launchFile],
			width: options.width ?? 200,
			height: options.height ?? 50,
			marker,
		});
		panePid = pane.pid;
		live.pid = pane.pid;
		// Chosen by the launch (pi, claude) or resumed: known before the records name it.
		if (tui.nativeSessionId) state.apply({ type: "session", nativeSessionId: tui.nativeSessionId });
		options.onUpdate?.(live);
		const ending = await watch(host, name, reader, state, spec, info, options);
		live.durationMs = Date.now() - started;
		const result = await endRun(host, name, state, info, ending, interactive.stayOpen, spec.limits);
		writeOutputFile(spec, result);
		return result;
	} finally {
		rmSync(runDir, { recursive: true, force: true });
	}
}

/** Polls records, pane and screen until one of them ends the run. */
async function watch(
	host: TmuxHost,
	name: string,
	reader: TuiRecordReader,
	state: RunState,
	spec: LaunchSpec,
	info: InteractiveInfo,
	options: InteractiveRunOptions,
): Promise<RunEnding> {
	const interactive = spec.interactive ?? { stayOpen: false, inactivityTimeoutMs: null };
	const inactivityMs = interactive.inactivityTimeoutMs;
	const dialogTimeoutMs = interactive.stayOpen ? null : (interactive.dialogTimeoutMs ?? DIALOG_TIMEOUT_MS);
	const dialogs = new DialogWatch(spec.harness, dialogTimeoutMs, info);
	const pollMs = options.pollMs ?? 200;
	const started = Date.now();
	const screens = new RecentScreens(inactivityMs ?? 0);
	let changedAt = started;
	const exitReport = new ExitReportWait(options.paneExitReportMs ?? PANE_EXIT_REPORT_MS);
	let takesInput = false;
	const apply = () => {
		let changed = false;
		for (const event of reader.poll()) if (state.apply(event)) changed = true;
		if (changed) options.onUpdate?.(state.live);
		if (!takesInput && (reader.promptTaken?.() ?? true)) {
			takesInput = true;
			options.onTakesInput?.();
		}
	};
	for (;;) {
		apply();
		if (state.terminal) return { kind: "turn_ended" };
		if (options.signal?.aborted) return { kind: "aborted" };
		const pane = await host.pane(name);
		const now = Date.now();
		if (exitReport.over(pane, now)) {
			apply();
			if (state.terminal) return { kind: "turn_ended" };
			await addLastLines(host, name, state);
			return { kind: "tui_exited", exitStatus: pane?.exitStatus };
		}
		if (now - started >= spec.limits.timeoutMs) {
			return { kind: "timed_out", durationMs: now - started, timeoutMs: spec.limits.timeoutMs };
		}
		// Its terminal is closed: nothing more comes on its screen, its exit is reported soon (or the wait ends).
		if (pane?.dead) {
			await sleep(pollMs, options.signal);
			continue;
		}
		const current = await host.capture(name);
		if (screens.changed(current, now)) changedAt = now;
		const dialog = dialogs.look(current, now);
		if (dialog.changed) options.onUpdate?.(state.live);
		if (dialog.ending) return dialog.ending;
		// A blank screen is a TUI still starting, not an idle one.
		if (inactivityMs !== null && current.trim() !== "" && now - changedAt >= inactivityMs) {
			return { kind: "inactive", idleMs: now - changedAt, keptOpen: interactive.stayOpen };
		}
		await sleep(pollMs, options.signal);
	}
}

/** Adds the last lines a dead pane printed (not tmux's own line) to the run's diagnostics. */
async function addLastLines(host: TmuxHost, name: string, state: RunState): Promise<void> {
	const last = await host.capture(name, DEAD_PANE_HISTORY_LINES);
	for (const line of last
		.split("\n")
		.filter((l) => l.trim() !== "" && !TMUX_DEAD_PANE.test(l))
		.slice(-5))
		state.addDiagnostic(`${SCREEN_LINE}${line}`);
}

/**
 * Kills the run's tmux session unless it is kept (`stay_open` after the turn ended or on inactivity), then
 * settles the run (see `settleRun`).
 */
async function endRun(
	host: TmuxHost,
	name: string,
	state: RunState,
	info: InteractiveInfo,
	ending: RunEnding,
	stayOpen: boolean,
	limits: LaunchSpec["limits"],
): Promise<RunResult> {
	const keep = stayOpen && (ending.kind === "turn_ended" || ending.kind === "inactive");
	if (keep) info.keptOpen = true;
	else await host.killSession(name, limits.killGraceMs);
	if (ending.kind === "tui_exited") state.live.exitCode = ending.exitStatus ?? null;
	const result = settleRun(state, ending, { holder: "tmux session" });
	if (ending.kind === "inactive") info.warning = result.error;
	return result;
}

/**
 * Screens seen within the last `windowMs`: a screen counts as a change only when it was not among them, so
 * a blinking cursor or a cycling spinner (a few frames shown again and again) is not activity.
 */
class RecentScreens {
	private readonly seen = new Map<string, number>();
	private readonly windowMs: number;

	constructor(windowMs: number) {
		this.windowMs = windowMs;
	}

	/** Records `screen` at `now` (ms); true when it was not seen within the window. */
	changed(screen: string, now: number): boolean {
		for (const [text, at] of this.seen) if (now - at > this.windowMs) this.seen.delete(text);
		const known = this.seen.has(screen);
		this.seen.set(screen, now);
		return !known;
	}
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve) => {
		const timer = clampedTimer(ms, done);
		function done() {
			clearTimeout(timer);
			signal?.removeEventListener("abort", done);
			resolve();
		}
		signal?.addEventListener("abort", done, { once: true });
	});
}
