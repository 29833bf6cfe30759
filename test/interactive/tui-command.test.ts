/**
 * The TUI command of each harness is its headless command with only the output mode swapped and the task
 * moved to the prompt argument; what a TUI cannot take is refused before anything starts.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createClaudeAdapter } from "../../src/harness/claude/adapter.ts";
import { createCodexAdapter } from "../../src/harness/codex/adapter.ts";
import { createPiAdapter } from "../../src/harness/pi/adapter.ts";
import { InteractiveRuns } from "../../src/interactive/interactive-runs.ts";
import { MAX_PROMPT_BYTES, toTuiCommand } from "../../src/interactive/tui-command.ts";
import { launchSpec } from "../support/launch-spec.ts";
import { problemsFound } from "../support/problems.ts";

const dir = mkdtempSync(join(tmpdir(), "tui-command-"));
const interactive = { stayOpen: false, inactivityTimeoutMs: null };
const pi = createPiAdapter({
	invocation: () => ({ file: "node", args: ["cli.js"] }),
	sessionDir: "/sessions",
	agentDir: dir,
});
const codex = createCodexAdapter({ command: () => ({ file: "codex", args: [] }), codexHome: dir });
const claude = createClaudeAdapter({ command: () => ({ file: "claude", args: [] }) });

describe("TUI commands", () => {
	it("pi: no --mode rpc, a chosen session id, the task after --", () => {
		const spec = launchSpec({ harness: "pi", cwd: dir, task: "-task", model: "fake/m", interactive });
		const tui = toTuiCommand(spec, pi.buildCommand(spec, dir));
		expect(tui.args).not.toContain("--mode");
		expect(tui.args).not.toContain("rpc");
		expect(tui.args).toEqual(
			expect.arrayContaining(["--model", "fake/m", "--no-approve", "--session-dir", "/sessions"]),
		);
		expect(tui.args.slice(-4)).toEqual(["--session-id", tui.nativeSessionId, "--", "-task"]);
		expect(tui.piSessionDir).toBe("/sessions");
	});

	it("claude: no -p stream flags, permission mode default unless auto_approve, the task after --", () => {
		const spec = launchSpec({ harness: "claude_code", cwd: dir, task: "-task", effort: "high", interactive });
		const tui = toTuiCommand(spec, claude.buildCommand(spec, dir));
		for (const flag of ["-p", "--input-format=stream-json", "--output-format=stream-json", "--verbose"]) {
			expect(tui.args).not.toContain(flag);
		}
		expect(tui.args).toContain("--effort=high");
		expect(tui.args).toContain("--permission-mode=default");
		expect(tui.args).toContain(`--session-id=${tui.nativeSessionId}`);
		expect(tui.args.slice(-2)).toEqual(["--", "-task"]);
		const bypass = launchSpec({ harness: "claude_code", cwd: dir, task: "t", autoApprove: true, interactive });
		expect(toTuiCommand(bypass, claude.buildCommand(bypass, dir)).args).not.toContain("--permission-mode=default");
	});

	it("codex: the TUI without daemon or alternate screen, trust from the parent, resume by id", () => {
		const spec = launchSpec({ harness: "codex", cwd: dir, task: "-task", projectTrusted: true, interactive });
		const tui = toTuiCommand(spec, codex.buildCommand(spec, dir));
		expect(tui.args.slice(0, 2)).toEqual(["--no-daemon", "--no-alt-screen"]);
		expect(tui.args).not.toContain("exec");
		expect(tui.args).toContain(`projects={${JSON.stringify(dir)}={trust_level="trusted"}}`);
		expect(tui.args.slice(-2)).toEqual(["--", "-task"]);
		const resume = launchSpec({
			harness: "codex",
			cwd: dir,
			task: "next",
			session: { kind: "resume", nativeSessionId: "thread-1" },
			interactive,
		});
		const resumed = toTuiCommand(resume, codex.buildCommand(resume, dir));
		expect(resumed.args[0]).toBe("resume");
		expect(resumed.args.slice(-3)).toEqual(["--", "thread-1", "next"]);
		expect(resumed.nativeSessionId).toBe("thread-1");
	});

	it("refuses a task longer than one argument and a pi task starting with @", () => {
		const long = launchSpec({ harness: "claude_code", cwd: dir, task: "x".repeat(MAX_PROMPT_BYTES + 1), interactive });
		expect(() => toTuiCommand(long, claude.buildCommand(long, dir))).toThrow(/limited to 131071 bytes/);
		const at = launchSpec({ harness: "pi", cwd: dir, task: "@notes.md", interactive });
		expect(() => toTuiCommand(at, pi.buildCommand(at, dir))).toThrow(/starting with @/);
	});

	it("refuses every interactive child before launch when tmux is not on PATH", () => {
		const runs = new InteractiveRuns(() => undefined);
		const spec = launchSpec({ harness: "pi", cwd: dir, task: "t", interactive });
		expect(problemsFound((found) => runs.check(spec, found))).toEqual([
			"pi harness: interactive: tmux was not found on PATH; install tmux to run TUIs",
		]);
	});
});
