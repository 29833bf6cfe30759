/**
 * The real pi, claude and codex TUIs in tmux against the fake model server: each run's end, final answer,
 * native session id and usage come from the harness's own records (docs/harness-support.md
 * "Interactive runs").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../../src/core/launch-spec.ts";
import { runInteractive } from "../../src/interactive/run-interactive.ts";
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
		60_000,
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
		60_000,
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
