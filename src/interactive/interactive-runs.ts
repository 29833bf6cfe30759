/**
 * Interactive runs of one parent Pi session (docs/interactive.md): the pre-spawn checks, and the
 * session's own tmux host, created on the first interactive child and closed (server killed, socket
 * directory removed) when the parent session shuts down. The modules that host TUIs (and execa, which drives
 * tmux) are imported by the first interactive run: a session that never runs a TUI does not load them
 * (docs/design-notes.md §Start-up cost).
 */

import type { HarnessAdapter } from "../core/harness-adapter.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import type { RunResult } from "../core/run-result.ts";
import type { RunChildOptions } from "../runs/run-child.ts";
import { findTmux } from "./find-tmux.ts";
import type { PaneInputChannel } from "./pane-input.ts";
import { groupAlive } from "./pane-reap.ts";
import type { TmuxHost } from "./tmux-host.ts";

/** What an interactive run needs, imported one at a time (Pi's loader can hand out a half-evaluated module when imports overlap). */
async function loadModules() {
	const pane = await import("./pane-input.ts");
	const run = await import("./run-interactive.ts");
	const tmux = await import("./tmux-host.ts");
	return { pane, run, tmux };
}

type Modules = Awaited<ReturnType<typeof loadModules>>;

export class InteractiveRuns {
	private host: TmuxHost | undefined;
	private closed = false;
	/** Native session id → the tmux session kept for it (`stay_open`) and its pane's process group. */
	private readonly kept = new Map<string, { session: string; pgid: number | undefined }>();
	private readonly locateTmux: () => string | undefined;
	private modules: Promise<Modules> | undefined;

	/** @param locateTmux finds the tmux executable; default: `tmux` on `PATH`. */
	constructor(locateTmux: () => string | undefined = () => findTmux()) {
		this.locateTmux = locateTmux;
	}

	/**
	 * Adds why `spec` cannot run interactively here, each labelled `<harness> harness: interactive: …` (what
	 * the harness's TUI cannot take is its adapter's `validate`).
	 */
	check(spec: LaunchSpec, problems: Problems): void {
		const found = problems.at(`${spec.harness} harness`).at("interactive");
		if (this.closed) found.add("the session is shutting down");
		if (!this.locateTmux()) found.add("tmux was not found on PATH; install tmux to run TUIs");
	}

	/**
	 * Runs `spec` in the session's tmux host (see `runInteractive`). Its input channel types sends into the
	 * pane once the TUI reads keystrokes (see `PaneInputChannel`).
	 */
	async run(spec: LaunchSpec, adapter: HarnessAdapter, options: RunChildOptions): Promise<RunResult> {
		this.modules ??= loadModules();
		const { pane, run, tmux } = await this.modules;
		let channel: PaneInputChannel | undefined;
		let result: RunResult;
		try {
			result = await run.runInteractive(spec, adapter, {
				host: () => this.hostForRun(tmux.TmuxHost),
				env: options.env,
				signal: options.signal,
				onTakesInput: () => channel?.takesInput(),
				onUpdate: (partial) => {
					const session = partial.interactive?.session;
					if (!channel && session && this.host) {
						channel = new pane.PaneInputChannel(spec.harness, this.host, session, partial, () =>
							options.onUpdate?.(partial),
						);
						options.onInput?.(channel);
					}
					// The pane's pid is known once its tmux session exists.
					if (partial.pid !== undefined) channel?.paneStarted();
					options.onUpdate?.(partial);
				},
			});
		} finally {
			channel?.end();
		}
		if (result.interactive?.keptOpen && result.nativeSessionId) {
			this.kept.set(result.nativeSessionId, { session: result.interactive.session, pgid: result.pid });
		}
		return result;
	}

	/**
	 * Adds a problem for each resumed session whose TUI was kept open (`stay_open`) and may still run:
	 * resuming it waits until it is gone (docs/interactive.md; docs/rules.md §Resumption).
	 * @returns true when no spec resumes such a session.
	 */
	async checkRetained(specs: readonly LaunchSpec[], problems: Problems): Promise<boolean> {
		const before = problems.size;
		for (const spec of specs) {
			if (spec.session.kind !== "resume") continue;
			const id = spec.session.nativeSessionId;
			const session = await this.retained(id);
			if (session) {
				problems.add(
					`resume_session_id "${id}": its TUI was kept open (stay_open) in tmux session ${session} and may still run; exit it there first (or end its process, when the tmux session is gone)`,
				);
			}
		}
		return problems.size === before;
	}

	/**
	 * The tmux session kept open for `nativeSessionId` while its harness may still run, else `undefined`:
	 * while its pane lives, and after the session is gone (`tmux kill-session`) while any process of the
	 * pane's group does (a harness that ignored SIGHUP still writes its session).
	 */
	private async retained(nativeSessionId: string): Promise<string | undefined> {
		const kept = this.kept.get(nativeSessionId);
		if (kept === undefined) return undefined;
		const pane = await this.host?.pane(kept.session);
		if (pane && !pane.dead) return kept.session;
		if (kept.pgid !== undefined && groupAlive(kept.pgid)) return kept.session;
		this.kept.delete(nativeSessionId);
		return undefined;
	}

	/**
	 * The argv that attaches the terminal to an interactive child: `target` is a tmux session name or a
	 * native session id; empty picks the newest child.
	 * @returns the argv, or `undefined` with why there is none added to `problems`.
	 */
	async attachTarget(target: string, problems: Problems): Promise<string[] | undefined> {
		const names = (await this.host?.sessions()) ?? [];
		if (!this.host || names.length === 0) {
			problems.add("no interactive child is running or kept open in this session");
			return undefined;
		}
		const wanted = target === "" ? names.at(-1) : (this.kept.get(target)?.session ?? target);
		if (!wanted || !names.includes(wanted)) {
			problems.add(`no interactive child "${target}" here; running or kept open: ${names.join(", ")}`);
			return undefined;
		}
		return this.host.attachArgv(wanted);
	}

	/** The socket of the session's tmux server, once one was started. */
	get socket(): string | undefined {
		return this.host?.socket;
	}

	/** Kills the tmux server and everything in it. Idempotent; later runs are refused. */
	async close(): Promise<void> {
		this.closed = true;
		const host = this.host;
		this.host = undefined;
		await host?.close();
	}

	private hostForRun(Host: typeof TmuxHost): TmuxHost {
		if (this.closed) throw new Error("the session is shutting down; no interactive child can start");
		const tmux = this.locateTmux();
		if (!tmux) throw new Error("tmux was not found on PATH");
		this.host ??= new Host(tmux);
		return this.host;
	}
}
