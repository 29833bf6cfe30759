/**
 * Runs one child in its harness's own TUI in a tmux session (docs/interactive.md): the same
 * translated launch as headless, the end of the run read from the harness's own records, never from the
 * screen. The screen is read only to notice inactivity. Resolves with a RunResult like a headless run's,
 * plus where the session is and how to attach to it.
 */
import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import { DIALOG_TIMEOUT_MS, type LaunchSpec } from "../core/launch-spec.ts";
import type { RunResult } from "../core/run-result.ts";
import { answerClaudeFirstRun } from "../harness/claude/first-run.ts";
import { claudeConfigDir } from "../harness/claude/transcript.ts";
import { findThreadRollout } from "../harness/codex/rollout.ts";
import { applyEnvOverrides } from "../runs/child-env.ts";
import { makeOwnedTempDir, RUN_DIR_PREFIX } from "../runs/leftovers.ts";
import { RunState, SCREEN_LINE } from "../runs/run-state.ts";
import { claudeRecordReader } from "./claude-records.ts";
import { codexRecordReader, rolloutOpenedBy } from "./codex-records.ts";
import { type DialogEnding, DialogWatch } from "./dialog-watch.ts";
import { piRecordReader } from "./pi-records.ts";
import type { TmuxHost } from "./tmux-host.ts";
import { type TuiCommand, toTuiCommand } from "./tui-command.ts";
import type { TuiRecordReader } from "./tui-records.ts";

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
	onUpdate?: (partial: RunResult) => void;
	/** How often records, pane and screen are checked, ms; default 200. */
	pollMs?: number;
	/** Pane size in columns × rows; default 200 × 50. */
	width?: number;
	height?: number;
}

type Ending =
	| { kind: "records" }
	| { kind: "exited"; status: number | undefined }
	| { kind: "aborted" }
	| { kind: "timed_out" }
	| { kind: "inactive"; idleMs: number }
	| DialogEnding;

/**
 * Runs `spec` (which has `interactive` set) in a tmux session of `options.host()`. Never rejects for child
 * failures; they become the result's status.
 * @throws Error when the TUI command cannot be derived from the adapter's (the tool refuses such specs before
 *   launch; see `InteractiveRuns.check`).
 */
export async function runInteractive(
	spec: LaunchSpec,
	adapter: HarnessAdapter,
	options: InteractiveRunOptions,
): Promise<RunResult> {
	const interactive = spec.interactive ?? { stayOpen: false, inactivityTimeoutMs: null };
	const runDir = makeOwnedTempDir(RUN_DIR_PREFIX);
	try {
		const tui = toTuiCommand(spec, adapter.buildCommand(spec, runDir));
		const host = options.host();
		const marker = host.nextMarker();
		const env = { ...applyEnvOverrides(options.env, tui.env), [marker.name]: marker.value };
		const name = `${spec.harness.replace("_", "-")}-${randomBytes(4).toString("hex")}`;
		const state = new RunState(spec, describe(tui));
		const result = state.result;
		result.interactive = {
			socket: host.socket,
			session: name,
			attachCommand: host.attachCommand(name),
			keptOpen: false,
		};
		let panePid: number | undefined;
		const reader = recordReader(spec, tui, env, () => panePid);
		const launchFile = join(runDir, "launch.json");
		writeFileSync(launchFile, JSON.stringify({ file: tui.file, args: tui.args, env, cwd: spec.cwd }), { mode: 0o600 });
		// claude's first-run dialogs the parent has answered already (docs/interactive.md "First-run dialogs").
		if (spec.harness === "claude_code") answerClaudeFirstRun(env, spec.cwd, spec.projectTrusted);
		// Before the pane exists, so the child has an input channel from its start (sends wait for the TUI).
		options.onUpdate?.(result);
		const started = Date.now();
		const pane = await host.newSession({
			name,
			cwd: spec.cwd,
			command: [process.execPath, PANE_EXEC, launchFile],
			width: options.width ?? 200,
			height: options.height ?? 50,
		});
		panePid = pane.pid;
		result.pid = pane.pid;
		// Chosen by the launch (pi, claude) or resumed: known before the records name it.
		if (tui.nativeSessionId) state.apply({ type: "session", nativeSessionId: tui.nativeSessionId });
		options.onUpdate?.(result);
		const ending = await watch(host, name, reader, state, spec, interactive.inactivityTimeoutMs, options);
		result.durationMs = Date.now() - started;
		await settle(host, name, state, ending, interactive.stayOpen, spec.limits);
		return result;
	} finally {
		rmSync(runDir, { recursive: true, force: true });
	}
}

function recordReader(
	spec: LaunchSpec,
	tui: TuiCommand,
	env: Record<string, string>,
	panePid: () => number | undefined,
): TuiRecordReader {
	const resumed = spec.session.kind === "resume";
	switch (spec.harness) {
		case "pi":
			return piRecordReader(tui.piSessionDir as string, tui.nativeSessionId as string, resumed);
		case "claude_code":
			return claudeRecordReader(claudeConfigDir(env), tui.nativeSessionId as string, resumed);
		case "codex": {
			const codexHome = env.CODEX_HOME || join(env.HOME || homedir(), ".codex");
			const resume = spec.session.kind === "resume" ? spec.session.nativeSessionId : undefined;
			const locate = () => (resume !== undefined ? findThreadRollout(codexHome, resume) : rolloutFor(panePid()));
			return codexRecordReader(codexHome, locate, resume);
		}
	}
}

function rolloutFor(pid: number | undefined): string | undefined {
	return pid === undefined ? undefined : rolloutOpenedBy(pid);
}

/** Polls records, pane and screen until one of them ends the run. */
async function watch(
	host: TmuxHost,
	name: string,
	reader: TuiRecordReader,
	state: RunState,
	spec: LaunchSpec,
	inactivityMs: number | null,
	options: InteractiveRunOptions,
): Promise<Ending> {
	const pollMs = options.pollMs ?? 200;
	const started = Date.now();
	const screens = new RecentScreens(inactivityMs ?? 0);
	const interactive = spec.interactive;
	const dialogs = new DialogWatch(
		spec.harness,
		interactive?.stayOpen ? null : (interactive?.dialogTimeoutMs ?? DIALOG_TIMEOUT_MS),
		state.result.interactive as NonNullable<RunResult["interactive"]>,
	);
	let changedAt = started;
	const apply = () => {
		let changed = false;
		for (const event of reader.poll()) if (state.apply(event)) changed = true;
		if (changed) options.onUpdate?.(state.result);
	};
	for (;;) {
		apply();
		if (state.terminal) return { kind: "records" };
		if (options.signal?.aborted) return { kind: "aborted" };
		const pane = await host.pane(name);
		if (!pane || pane.dead) {
			apply();
			if (state.terminal) return { kind: "records" };
			const last = await host.capture(name, DEAD_PANE_HISTORY_LINES);
			for (const line of last
				.split("\n")
				.filter((l) => l.trim() !== "" && !TMUX_DEAD_PANE.test(l))
				.slice(-5))
				state.addDiagnostic(`${SCREEN_LINE}${line}`);
			return { kind: "exited", status: pane?.exitStatus };
		}
		const now = Date.now();
		if (now - started >= spec.limits.timeoutMs) return { kind: "timed_out" };
		const current = await host.capture(name);
		if (screens.changed(current, now)) changedAt = now;
		const dialog = dialogs.look(current, now);
		if (dialog.changed) options.onUpdate?.(state.result);
		if (dialog.ending) return dialog.ending;
		// A blank screen is a TUI still starting, not an idle one.
		if (inactivityMs !== null && current.trim() !== "" && now - changedAt >= inactivityMs) {
			return { kind: "inactive", idleMs: now - changedAt };
		}
		await sleep(pollMs, options.signal);
	}
}

async function settle(
	host: TmuxHost,
	name: string,
	state: RunState,
	ending: Ending,
	stayOpen: boolean,
	limits: LaunchSpec["limits"],
): Promise<void> {
	const result = state.result;
	const info = result.interactive as NonNullable<RunResult["interactive"]>;
	state.settleAnswer();
	const keep = stayOpen && (ending.kind === "records" || ending.kind === "inactive");
	if (keep) info.keptOpen = true;
	else await host.killSession(name, limits.killGraceMs);
	switch (ending.kind) {
		case "records": {
			const verdict = state.terminal;
			if (verdict?.status === "completed") state.setStatus("completed");
			else
				state.setStatus(
					verdict?.status ?? "failed",
					verdict?.error ?? state.lastError ?? "the child reported a failure",
				);
			return;
		}
		case "exited":
			result.exitCode = ending.status ?? null;
			state.setStatus(
				"failed",
				`the ${result.harness} TUI exited${ending.status === undefined ? "" : ` with status ${ending.status}`} before its records showed the end of the turn`,
			);
			return;
		case "aborted":
			state.setStatus("aborted", "aborted by the caller; the child's tmux session was killed");
			return;
		case "timed_out":
			state.setStatus(
				"timed_out",
				`timed out after ${limits.timeoutMs} ms (setting limits.timeout_ms); the child's tmux session was killed`,
			);
			return;
		case "dialog":
			state.setStatus(
				"failed",
				`the ${result.harness} TUI waited on ${ending.waitingOn} for ${ending.idleMs} ms (interactive.dialog_timeout_ms); the child's tmux session was killed. Answer it once in the harness run by hand in that directory, or trust the project in Pi. Its screen:\n${ending.screen}`,
			);
			return;
		case "inactive": {
			const what = keep ? "the tmux session was kept open (stay_open)" : "the child's tmux session was killed";
			info.warning = `no change on the child's screen for ${ending.idleMs} ms (inactivity_timeout_ms); ${what}`;
			state.setStatus("timed_out", info.warning);
			return;
		}
	}
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
		const timer = setTimeout(done, ms);
		function done() {
			clearTimeout(timer);
			signal?.removeEventListener("abort", done);
			resolve();
		}
		signal?.addEventListener("abort", done, { once: true });
	});
}

/** `file arg…` for messages; the prompt (last argument) and long arguments are elided. */
function describe(tui: TuiCommand): string {
	return [tui.file, ...tui.args.slice(0, -1), "<task>"]
		.map((part) => (part.length > 120 ? `${part.slice(0, 60)}…` : part))
		.map((part) => (/[\s"'\\$]/.test(part) ? JSON.stringify(part) : part))
		.join(" ");
}
