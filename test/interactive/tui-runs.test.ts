/**
 * The real pi, claude and codex TUIs in tmux against the fake model server: each run's end, final answer,
 * native session id and usage come from the harness's own records (docs/harness-support.md
 * "Interactive runs").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../../src/core/launch-spec.ts";
import { createPiAdapter } from "../../src/harness/pi/adapter.ts";
import { runInteractive } from "../../src/interactive/run-interactive.ts";
import { describeFailure } from "../../src/runs/delivery.ts";
import { scriptTui } from "../support/interactive-env.ts";
import { NATIVE_LIMITS, nativeLaunchSpec } from "../support/launch-spec.ts";
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

describe("a model error in the harness's own TUI", () => {
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
			expect(result.status).toBe("failed");
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
	// retry: 2: once in 7 full runs the pane's exit status was not yet reported when the dead pane was seen (the
	// message then lacks "with status 3"); the cause is not found yet.
	it("reports the last lines of its screen with the failure", { retry: 2, timeout: 60_000 }, async () => {
		// A TUI that cannot start prints why on its terminal (there is no stderr tail in a pane) and exits. It
		// exits once tmux shows the line: output written just before a process exits can be lost to the pane.
		const tmux = `tmux -S ${tui.host.socket}`;
		const script = [
			"echo 'fatal: cannot open the terminal'",
			`pane=$(${tmux} list-panes -a -F '#{pane_tty} #{pane_id}' | grep "^$(tty) " | cut -d' ' -f2)`,
			`until ${tmux} capture-pane -p -t "$pane" | grep -q fatal; do :; done`,
			"exit 3",
		].join("; ");
		const crashing = createPiAdapter({
			invocation: () => ({ file: "/bin/sh", args: ["-c", script, "sh"] }),
			sessionDir: tui.workDir,
			agentDir: tui.workDir,
		});
		const spec = nativeLaunchSpec({
			harness: "pi",
			cwd: tui.workDir,
			task: "crash",
			interactive: { stayOpen: false, inactivityTimeoutMs: null },
		});
		const result = await runInteractive(spec, crashing, { host: () => tui.host, env: tui.env });
		expect(result.status).toBe("failed");
		expect(result.error).toBe("the pi TUI exited with status 3 before its records showed the end of the turn");
		// tmux's own "Pane is dead" line is not the child's output.
		expect(result.diagnostics).toEqual(["screen: fatal: cannot open the terminal"]);
		expect(describeFailure(result)).toContain("\nscreen (last lines):\nfatal: cannot open the terminal");
	});
});
