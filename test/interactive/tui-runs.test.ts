/**
 * The real pi, claude and codex TUIs in tmux against the fake model server: each run's end, final answer,
 * native session id and usage come from the harness's own records (docs/harness-support.md
 * "Interactive runs").
 */
import { randomUUID } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../../src/core/launch-spec.ts";
import { createPiAdapter } from "../../src/harness/pi/adapter.ts";
import { runInteractive } from "../../src/interactive/run-interactive.ts";
import { findTmux, type PaneState, TmuxHost } from "../../src/interactive/tmux-host.ts";
import { describeFailure } from "../../src/runs/delivery.ts";
import { scriptTui } from "../support/interactive-env.ts";
import { NATIVE_LIMITS, nativeLaunchSpec } from "../support/launch-spec.ts";
import { givenUpLifeline } from "../support/lifelines.ts";
import { isAlive, waitUntil } from "../support/processes.ts";
import { startTuiEnv, type TuiEnv } from "./tui-support.ts";

let tui: TuiEnv;
beforeAll(async () => {
	tui = await startTuiEnv();
});
afterAll(async () => {
	await tui?.close();
});

const run = (
	harness: Harness,
	task: string,
	interactive = { stayOpen: false, inactivityTimeoutMs: null as number | null },
) =>
	runInteractive(nativeLaunchSpec({ harness, cwd: tui.workDir, task, interactive }), tui.adapters[harness], {
		host: () => tui.host,
		env: tui.env,
	});

describe("a single interactive run in the harness's own TUI", () => {
	it.each(["pi", "claude_code", "codex"] as const)(
		"%s returns the final answer, the native session id and usage from its records, then removes its tmux session",
		async (harness) => {
			const marker = `MARK-${harness}`;
			scriptTui(tui.server, marker, { text: `the answer from ${harness}`, usage: { input: 40, output: 7 } });
			const result = await run(harness, `${marker} say something`);
			expect(result.error).toBeUndefined();
			expect(result.status).toBe("completed");
			expect(result.finalAnswer).toBe(`the answer from ${harness}`);
			expect(result.nativeSessionId).toMatch(/^[0-9a-f-]{36}$/);
			expect(result.usage.outputTokens).toBe(7);
			expect(result.interactive?.attachCommand).toBe(
				`${result.interactive?.attachCommand.split(" ")[0]} -S ${tui.host.socket} attach -t ${result.interactive?.session}`,
			);
			expect(result.interactive?.keptOpen).toBe(false);
			expect(await tui.host.pane(result.interactive?.session as string)).toBeUndefined();
		},
	);
});

describe("an interactive run when Pi's watchdog may not be started any more", () => {
	it("starts no tmux server or pane and refuses the run saying why", async () => {
		const { lifeline } = await givenUpLifeline();
		const host = new TmuxHost(findTmux() as string, tmpdir(), lifeline);
		try {
			const spec = nativeLaunchSpec({
				harness: "pi",
				cwd: tui.workDir,
				task: "never runs",
				interactive: {
					stayOpen: false,
					inactivityTimeoutMs: null,
				},
			});
			await expect(runInteractive(spec, tui.adapters.pi, { host: () => host, env: tui.env })).rejects.toThrow(
				"the parent-death watchdog (true) was started 11 times and is not started again, so no child starts",
			);
			expect(existsSync(host.socket)).toBe(false);
		} finally {
			await host.close();
		}
	});
});

describe("a model error in the harness's own TUI", () => {
	// codex's run used to end `completed` now and then, with the answer of the earlier codex run in this file: codex
	// opens earlier threads' rollouts to read them, and one of those was taken for this run's
	// (test/harness/codex/tui-records.test.ts). The message below carries what the model was asked and answered.
	it.each(["pi", "claude_code", "codex"] as const)(
		"%s: the run fails with the provider's message, read from its records",
		async (harness) => {
			const marker = `FAIL-${harness}`;
			tui.server.route((request) =>
				request.lastUserText.includes(marker)
					? { error: { status: 400, message: `bad request for ${harness}` } }
					: undefined,
			);
			const result = await run(harness, `${marker} please`, { stayOpen: false, inactivityTimeoutMs: 8000 });
			const seen = tui.server.requests.map((request) => ({
				user: request.lastUserText.slice(0, 120),
				outcome: request.outcome,
				step: request.step,
			}));
			const detail = JSON.stringify({ answer: result.finalAnswer, error: result.error, requests: seen.slice(-4) });
			expect(result.status, detail).toBe("failed");
			expect(result.error).toContain(`bad request for ${harness}`);
		},
	);
});

describe("the wall-clock limit of an interactive run", () => {
	it("ends a run past limits.timeout_ms as timed_out and kills its tmux session", async () => {
		tui.server.scriptFor("TIMEOUT-pi", { hang: true });
		const spec = nativeLaunchSpec({
			harness: "pi",
			cwd: tui.workDir,
			task: "TIMEOUT-pi wait forever",
			interactive: { stayOpen: true, inactivityTimeoutMs: null },
			limits: { ...NATIVE_LIMITS, timeoutMs: 4000 },
		});
		const result = await runInteractive(spec, tui.adapters.pi, { host: () => tui.host, env: tui.env });
		expect(result.status).toBe("timed_out");
		expect(result.error).toMatch(
			/^timed out after \d+ ms \(the limit is 4000 ms, setting limits.timeout_ms\); the child's tmux session was killed$/,
		);
		expect(result.interactive?.keptOpen).toBe(false);
		expect(await tui.host.pane(result.interactive?.session as string)).toBeUndefined();
	}, 60_000);
});

describe("a TUI that exits before its records end the turn", () => {
	/** A pi adapter whose "TUI" is `sh -c <script>`. */
	const shellTui = (script: string) =>
		createPiAdapter({
			invocation: () => ({ file: "/bin/sh", args: ["-c", script, "sh"] }),
			sessionDir: tui.workDir,
			agentDir: tui.workDir,
		});
	const spec = () =>
		nativeLaunchSpec({
			harness: "pi",
			cwd: tui.workDir,
			task: "crash",
			interactive: { stayOpen: false, inactivityTimeoutMs: null },
		});
	/** Shell lines that print a fatal line on the pane and go on once tmux shows it. */
	const printFatal = () => {
		const tmux = `tmux -S ${tui.host.socket}`;
		return [
			"echo 'fatal: cannot open the terminal'",
			`pane=$(${tmux} list-panes -a -F '#{pane_tty} #{pane_id}' | grep "^$(tty) " | cut -d' ' -f2)`,
			`until ${tmux} capture-pane -p -t "$pane" | grep -q fatal; do :; done`,
		];
	};

	it("reports the last lines of its screen with the failure", { timeout: 60_000 }, async () => {
		// A TUI that cannot start prints why on its terminal (there is no stderr tail in a pane) and exits. It
		// exits once tmux shows the line: output written just before a process exits can be lost to the pane.
		const crashing = shellTui([...printFatal(), "exit 3"].join("; "));
		const result = await runInteractive(spec(), crashing, { host: () => tui.host, env: tui.env });
		expect(result.status).toBe("failed");
		expect(result.error).toBe("the pi TUI exited with status 3 before its records showed the end of the turn");
		// tmux's own "Pane is dead" line is not the child's output.
		expect(result.diagnostics).toEqual(["screen: fatal: cannot open the terminal"]);
		expect(describeFailure(result)).toContain("\nscreen (last lines):\nfatal: cannot open the terminal");
	});

	// tmux marks a pane dead when it reads the end of the pane's terminal, which a process's exit causes a
	// moment before tmux reaps it and learns its status. A process that closes its terminal and then waits
	// holds that moment open: here it waits for a gate the test opens once it saw the pane dead without a status.
	const closesItsTerminal = (gate: string) =>
		[
			...printFatal(),
			"trap '' HUP",
			"exec </dev/null >/dev/null 2>&1",
			`until [ -e ${gate} ]; do sleep 0.05; done`,
			"exit 3",
		].join("; ");

	it("waits for tmux to report the exit status of a TUI whose pane is dead before its process is reaped", {
		timeout: 60_000,
	}, async () => {
		const gate = join(tui.workDir, `gate-${randomUUID()}`);
		let session: string | undefined;
		let pid: number | undefined;
		const running = runInteractive(spec(), shellTui(closesItsTerminal(gate)), {
			host: () => tui.host,
			env: tui.env,
			// Longer than the test: the run ends on tmux's report, not on the wait's end.
			paneExitReportMs: 600_000,
			onUpdate: (live) => {
				session = live.interactive?.session;
				pid = live.pid;
			},
		});
		try {
			let seen: PaneState | undefined;
			await waitUntil(async () => {
				seen = session === undefined ? undefined : await tui.host.pane(session);
				return seen?.dead === true;
			}, "the pane to be dead");
			expect(seen).toMatchObject({ dead: true, reaped: false, exitStatus: undefined });
		} finally {
			writeFileSync(gate, "");
		}
		const result = await running;
		expect(result.error).toBe("the pi TUI exited with status 3 before its records showed the end of the turn");
		expect(result.diagnostics).toEqual(["screen: fatal: cannot open the terminal"]);
		await waitUntil(() => !isAlive(pid as number), "the pane's process to be gone");
	});

	it("ends the run without a status when a dead pane's process is not reaped within the wait", {
		timeout: 60_000,
	}, async () => {
		const gate = join(tui.workDir, `gate-${randomUUID()}`);
		let pid: number | undefined;
		try {
			const result = await runInteractive(spec(), shellTui(closesItsTerminal(gate)), {
				host: () => tui.host,
				env: tui.env,
				paneExitReportMs: 300,
				onUpdate: (live) => {
					pid = live.pid;
				},
			});
			// The gate is still closed, so the process could not have exited by itself: the run did not wait for it,
			// and the sweep at the run's end kills it (it carries the run marker).
			expect(result.error).toBe("the pi TUI exited before its records showed the end of the turn");
			expect(existsSync(gate)).toBe(false);
			await waitUntil(() => !isAlive(pid as number), "the pane's process to be killed with its run");
		} finally {
			writeFileSync(gate, "");
			if (pid !== undefined) await waitUntil(() => !isAlive(pid as number), "the pane's process to be gone");
		}
	});
});
