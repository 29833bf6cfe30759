/**
 * Interactive children over their lifetime: resumed in the TUI, kept open with `stay_open` (which blocks a
 * resume while the harness may run), run as background jobs, and removed with the parent session.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settingsFilePath } from "../../src/config/paths.ts";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { Harness } from "../../src/core/launch-spec.ts";
import { JOB_MESSAGE_TYPE } from "../../src/runs/jobs.ts";
import type { JobsDetails } from "../../src/tools/jobs-tool.ts";
import { type E2eEnv, runOf, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";
import { scriptTui, startInteractiveE2eEnv, tmuxSucceeds } from "../support/interactive-env.ts";
import { gate } from "../support/jobs.ts";
import { isAlive, waitUntil } from "../support/processes.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startInteractiveE2eEnv();
});
afterAll(async () => env?.close());

describe("interactive children over their lifetime", () => {
	it.each(["pi", "claude_code", "codex"] as const)(
		"an interactive %s session resumes in the TUI with its history, its saved interactive settings reused",
		async (harness: Harness) => {
			scriptTui(env.server, `first turn ${harness}`, { text: `first answer ${harness}` });
			const first = await env.session.callTool<SubagentDetails>("subagent", {
				agent_type: harness,
				task: `first turn ${harness}`,
				interactive: true,
			});
			expect(first.isError, textOf(first.result)).toBe(false);
			const id = runOf(first.result.details).nativeSessionId as string;
			scriptTui(env.server, `second turn ${harness}`, { text: `second answer ${harness}` });
			const second = await env.session.callTool<SubagentDetails>("subagent", {
				resume_session_id: id,
				task: `second turn ${harness}`,
			});
			expect(second.isError, textOf(second.result)).toBe(false);
			const run = runOf(second.result.details);
			expect(run.nativeSessionId).toBe(id);
			expect(run.finalAnswer).toBe(`second answer ${harness}`);
			expect(run.interactive?.keptOpen).toBe(false);
			const request = env.server.requests.find((r) => r.lastUserText.includes(`second turn ${harness}`));
			expect(request?.userTexts.some((text) => text.includes(`first turn ${harness}`))).toBe(true);
		},
		90_000,
	);

	it("stay_open leaves an attachable pane and blocks resuming the session until it is gone", async () => {
		scriptTui(env.server, "kept open", { text: "done, still open" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "kept open",
			interactive: true,
			stay_open: true,
		});
		expect(isError, textOf(result)).toBe(false);
		const run = runOf(result.details);
		const info = run.interactive as NonNullable<typeof run.interactive>;
		expect(info.keptOpen).toBe(true);
		expect(textOf(result)).toContain("kept open (stay_open)");
		expect(await tmuxSucceeds(info.socket, "has-session", "-t", `=${info.session}`)).toBe(true);
		expect(isAlive(run.pid as number)).toBe(true);

		const refused = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: run.nativeSessionId,
			task: "too early",
			interactive: true,
		});
		expect(refused.isError).toBe(true);
		expect(textOf(refused.result)).toContain(`kept open (stay_open) in tmux session ${info.session}`);
		expect(env.server.requests.some((r) => r.lastUserText === "too early")).toBe(false);

		await tmuxSucceeds(info.socket, "kill-session", "-t", `=${info.session}`);
		await waitUntil(() => !isAlive(run.pid as number), "the kept harness to exit");
		scriptTui(env.server, "after it closed", { text: "resumed after close" });
		const resumed = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: run.nativeSessionId,
			task: "after it closed",
			interactive: false,
		});
		expect(resumed.isError, textOf(resumed.result)).toBe(false);
		expect(runOf(resumed.result.details).finalAnswer).toBe("resumed after close");
		expect(runOf(resumed.result.details).interactive).toBeUndefined();
	}, 90_000);

	it("a background interactive job delivers the answer, and no attach command once its tmux session is gone", async () => {
		scriptTui(env.server, "interactive in the background", { text: "background TUI answer" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "interactive in the background",
			interactive: true,
			background: true,
		});
		expect(isError, textOf(result)).toBe(false);
		const deliveries = () =>
			env.session
				.branch()
				.filter((entry) => entry.type === "custom_message" && entry.customType === JOB_MESSAGE_TYPE)
				.map((entry) => JSON.stringify((entry as unknown as { content: unknown }).content));
		await waitUntil(() => deliveries().some((text) => text.includes("background TUI answer")), "the job's message");
		const message = deliveries().find((text) => text.includes("background TUI answer")) as string;
		expect(message).toMatch(/Interactive session pi-[0-9a-f]{8}: removed when the run ended\./);
		expect(message).not.toMatch(/attach with/);
		await env.session.waitForIdle();
	}, 60_000);

	it("a message sent to a running interactive job is typed into its TUI, and a stop ends it", async () => {
		env.server.scriptFor("background TUI hang", { hang: true });
		const { result } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "background TUI hang",
			interactive: true,
			background: true,
		});
		const jobId = result.details.jobId as string;
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "background TUI hang"), 30_000);
		const sent = await env.session.callTool<JobsDetails>("subagent_jobs", {
			action: "send",
			job_id: jobId,
			text: "hi",
		});
		expect(sent.result.details.receipt, textOf(sent.result)).toMatchObject({ status: "queued" });
		expect(textOf(sent.result)).toContain("pi TUI: typed into its editor once it was ready for input");
		const running = await env.session.callTool<JobsDetails>("subagent_jobs", {});
		const child = running.result.details.jobs.find((job) => job.id === jobId)?.children[0]?.result;
		await env.session.callTool<JobsDetails>("subagent_jobs", { action: "stop", job_id: jobId });
		await waitUntil(() => !isAlive(child?.pid as number), "the stopped child to exit", 20_000);
		const info = child?.interactive as NonNullable<NonNullable<typeof child>["interactive"]>;
		expect(await tmuxSucceeds(info.socket, "has-session", "-t", `=${info.session}`)).toBe(false);
		await env.session.waitForIdle();
	}, 60_000);

	// retry: 2: once in 7 full runs the early text never reached the model within 30 s (13 requests seen); the
	// cause is not confirmed. Excluded so far: the text is now typed only once pi's records show its first
	// prompt under way (pi keeps text submitted earlier in its editor or as its next prompt), and keys pi
	// reads late (pi frozen the moment it read keys) still joined the turn; not reproduced in 65 loop runs.
	it("a send to an interactive child that is still starting is queued and typed into its first turn once its TUI takes input, never refused as exited", {
		retry: 2,
		timeout: 60_000,
	}, async () => {
		const early = "typed while the TUI started";
		const held = gate();
		// The first turn, held until the text was sent, calls a tool; the typed text joins the next request.
		env.server.scriptFor(
			"starting TUI",
			async () => {
				await held.wait;
				return { toolCalls: [{ name: "bash", arguments: { command: "true" } }] };
			},
			(request) => ({
				text: request.userTexts.some((text) => text.includes(early)) ? "took the early text" : "no text",
			}),
		);
		const { result } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "starting TUI",
			interactive: true,
			background: true,
		});
		const jobId = result.details.jobId as string;
		// At once: the pane's TUI has not started yet.
		const sent = await env.session.callTool<JobsDetails>("subagent_jobs", {
			action: "send",
			job_id: jobId,
			text: early,
		});
		expect(sent.result.details.receipt, textOf(sent.result)).toMatchObject({ status: "queued" });
		held.open();
		await env.server.waitFor(
			(requests) => requests.some((r) => r.userTexts.some((text) => text.includes(early))),
			30_000,
		);
		await env.session.callTool<JobsDetails>("subagent_jobs", { action: "wait", job_id: jobId });
		// The first turn's answer: the text joined the request after its tool call.
		const done = await env.session.callTool<JobsDetails>("subagent_jobs", { action: "result", job_id: jobId });
		expect(textOf(done.result)).toContain("took the early text");
		await env.session.waitForIdle();
	});

	it("subagent_jobs list says a child waits on its harness's first-run dialog, with the dialog's line and the attach command", async () => {
		// A directory claude was never trusted in (nor a parent of it), and the parent does not trust.
		const cwd = join(env.home.dir, "never-opened");
		mkdirSync(cwd, { recursive: true });
		const { result } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "claude_code",
			task: "waits on the trust dialog",
			cwd,
			interactive: true,
			background: true,
		});
		const jobId = result.details.jobId as string;
		const list = async () => textOf((await env.session.callTool<JobsDetails>("subagent_jobs", {})).result);
		await expect.poll(list, { timeout: 30_000 }).toContain("waits on its claude_code folder trust dialog");
		const listed = await list();
		expect(listed).toMatch(
			/folder trust dialog: ".*Is this a project you created or one you trust\?.*"; attach with `.+ attach -t claude-code-/,
		);
		await env.session.callTool<JobsDetails>("subagent_jobs", { action: "cancel", job_id: jobId });
		await env.session.waitForIdle();
	}, 60_000);

	it("the settings file's interactive.stay_open and inactivity_timeout_ms are the defaults of a call", async () => {
		const settingsFile = settingsFilePath(env.home.agentDir);
		mkdirSync(dirname(settingsFile), { recursive: true });
		writeFileSync(settingsFile, JSON.stringify({ interactive: { stay_open: true, inactivity_timeout_ms: 1500 } }));
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
		try {
			scriptTui(env.server, "defaults from settings", { text: "kept by default" });
			const kept = runOf(
				(
					await session.callTool<SubagentDetails>("subagent", {
						agent_type: "pi",
						task: "defaults from settings",
						interactive: true,
					})
				).result.details,
			);
			expect(kept.status).toBe("completed");
			expect(kept.interactive?.keptOpen).toBe(true);
			scriptTui(env.server, "stuck by default", {
				toolCalls: [{ name: "Bash", arguments: { command: "touch made-by-claude" } }],
			});
			const stuck = runOf(
				(
					await session.callTool<SubagentDetails>("subagent", {
						agent_type: "claude_code",
						task: "stuck by default",
						interactive: true,
						stay_open: false,
					})
				).result.details,
			);
			expect(stuck.status).toBe("timed_out");
			expect(stuck.interactive?.warning).toMatch(/\(inactivity_timeout_ms\); the child's tmux session was killed/);
		} finally {
			await session.shutdown();
			session.dispose();
			rmSync(settingsFile);
		}
	}, 90_000);

	it("the parent session's shutdown kills its tmux server and every child in it", async () => {
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
		try {
			scriptTui(env.server, "open until shutdown", { text: "left open" });
			const { result } = await session.callTool<SubagentDetails>("subagent", {
				agent_type: "pi",
				task: "open until shutdown",
				interactive: true,
				stay_open: true,
			});
			const run = runOf(result.details);
			const info = run.interactive as NonNullable<typeof run.interactive>;
			expect(isAlive(run.pid as number)).toBe(true);
			await session.shutdown();
			await waitUntil(() => !isAlive(run.pid as number), "the harness to exit");
			expect(await tmuxSucceeds(info.socket, "list-sessions")).toBe(false);
			expect(existsSync(dirname(info.socket))).toBe(false);
		} finally {
			session.dispose();
		}
	}, 60_000);
});
