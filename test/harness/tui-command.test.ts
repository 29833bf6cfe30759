import { afterAll, describe, expect, it } from "vitest";
import { createClaudeAdapter } from "../../src/harness/claude/adapter.ts";
import { createCodexAdapter } from "../../src/harness/codex/adapter.ts";
import { createPiAdapter } from "../../src/harness/pi/adapter.ts";
import { MAX_PROMPT_BYTES } from "../../src/harness/tui-prompt.ts";
import { InteractiveRuns } from "../../src/interactive/interactive-runs.ts";
import { launchSpec, validationProblems } from "../support/launch-spec.ts";
import { problemsFound } from "../support/problems.ts";
import { releaseDirectories } from "../support/teardown.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const dir = makeTempDir("tui-command-");
afterAll(() => releaseDirectories([dir]));
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
		const tui = pi.buildTuiCommand(spec, dir);
		expect(tui.args).not.toContain("--mode");
		expect(tui.args).not.toContain("rpc");
		expect(tui.args).toEqual(
			expect.arrayContaining(["--model", "fake/m", "--no-approve", "--session-dir", "/sessions"]),
		);
		expect(tui.args.slice(-4)).toEqual(["--session-id", tui.nativeSessionId, "--", "-task"]);
	});

	it("claude: no -p stream flags, permission mode default unless auto_approve, the task after --", () => {
		const spec = launchSpec({ harness: "claude_code", cwd: dir, task: "-task", effort: "high", interactive });
		const tui = claude.buildTuiCommand(spec, dir);
		for (const flag of ["-p", "--input-format=stream-json", "--output-format=stream-json", "--verbose"]) {
			expect(tui.args).not.toContain(flag);
		}
		expect(tui.args).toContain("--effort=high");
		expect(tui.args).toContain("--permission-mode=default");
		expect(tui.args).toContain(`--session-id=${tui.nativeSessionId}`);
		expect(tui.args.slice(-2)).toEqual(["--", "-task"]);
		const bypass = launchSpec({ harness: "claude_code", cwd: dir, task: "t", autoApprove: true, interactive });
		expect(claude.buildTuiCommand(bypass, dir).args).not.toContain("--permission-mode=default");
	});

	it("codex: the TUI without daemon or alternate screen, trust from the parent, resume by id", () => {
		const spec = launchSpec({ harness: "codex", cwd: dir, task: "-task", projectTrusted: true, interactive });
		const tui = codex.buildTuiCommand(spec, dir);
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
		const resumed = codex.buildTuiCommand(resume, dir);
		expect(resumed.args[0]).toBe("resume");
		expect(resumed.args.slice(-3)).toEqual(["--", "thread-1", "next"]);
		expect(resumed.nativeSessionId).toBe("thread-1");
	});

	it("refuses in validation a task longer than one argument and a pi task starting with @", () => {
		const long = launchSpec({ harness: "claude_code", cwd: dir, task: "x".repeat(MAX_PROMPT_BYTES + 1), interactive });
		expect(validationProblems(claude, long)).toEqual([
			`claude_code harness: interactive: the task is ${MAX_PROMPT_BYTES + 1} bytes; a TUI takes its first prompt as one argument, limited to 131071 bytes (run it headless instead)`,
		]);
		const at = launchSpec({ harness: "pi", cwd: dir, task: "@notes.md", interactive });
		expect(validationProblems(pi, at)).toEqual([
			"pi harness: interactive: pi's TUI reads a first argument starting with @ as a file to attach; start the task with other text",
		]);
		// The same task runs headless: the refusal is the TUI's alone.
		expect(validationProblems(pi, { ...at, interactive: undefined })).toEqual([]);
	});

	it("refuses in validation an interactive spec whose TUI command cannot be built, before anything starts", () => {
		let builds = 0;
		const broken = createCodexAdapter({
			command: () => {
				builds += 1;
				// The command resolves for the checks, then fails once the TUI command is built.
				if (builds > 1) throw new Error("the codex command went away");
				return { file: "codex", args: [] };
			},
			codexHome: dir,
		});
		const spec = launchSpec({ harness: "codex", cwd: dir, task: "t", interactive });
		expect(validationProblems(broken, spec)).toEqual([
			"codex harness: interactive: the command cannot be built: the codex command went away",
		]);
	});

	it("refuses every interactive child before launch when tmux is not on PATH", () => {
		const runs = new InteractiveRuns(() => undefined);
		const spec = launchSpec({ harness: "pi", cwd: dir, task: "t", interactive });
		expect(problemsFound((found) => runs.check(spec, found))).toEqual([
			"pi harness: interactive: tmux was not found on PATH; install tmux to run TUIs",
		]);
	});
});
