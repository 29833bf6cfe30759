/** Background jobs: `subagent({ …, background: true })`, `subagent_jobs`, follow-up delivery, shutdown. */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { JOB_MESSAGE_TYPE } from "../../src/runs/jobs.ts";
import type { JobsDetails } from "../../src/tools/jobs-tool.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession, type UiCall } from "../support/extension-session.ts";
import { writeJson } from "../support/files.ts";
import { groupMembers, isAlive, waitUntil } from "../support/processes.ts";

let env: E2eEnv;

beforeAll(async () => {
	// A host that stays open (RPC, interactive): background jobs can report there.
	env = await startE2eEnv({ agents: { echo: { description: "Answers", body: "You answer." } }, mode: "rpc" });
});
afterAll(async () => env?.close());

/** Text of the follow-up messages that delivered job results so far. */
function deliveries(session = env.session): string[] {
	return session
		.branch()
		.filter((entry) => entry.type === "custom_message" && entry.customType === JOB_MESSAGE_TYPE)
		.map((entry) => {
			const content = (entry as unknown as { content: string | Array<{ text?: string }> }).content;
			return typeof content === "string" ? content : content.map((part) => part.text ?? "").join("");
		});
}

describe("background jobs", () => {
	it("returns a job id at once and delivers the answer later as a follow-up message", async () => {
		// The child's model answers only once the tool call has returned: proof the call did not wait for it.
		let release: () => void = () => {};
		const released = new Promise<void>((resolve) => {
			release = resolve;
		});
		env.server.scriptFor("slow background work", async () => {
			await released;
			return { text: "background answer" };
		});
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			task: "slow background work",
			background: true,
		});
		expect(isError).toBe(false);
		const jobId = result.details.jobId as string;
		expect(textOf(result)).toContain(`Started background job ${jobId}: echo: slow background work`);
		const listed = await env.session.callTool<JobsDetails>("subagent_jobs", {});
		expect(listed.result.details.jobs.find((job) => job.id === jobId)?.status).toBe("running");
		release();

		await waitUntil(() => deliveries().some((text) => text.includes("background answer")), "the follow-up message");
		const message = deliveries().find((text) => text.includes("background answer")) as string;
		expect(message).toContain(`Background job ${jobId} (echo: slow background work) completed. Usage: 1 turn ↑`);
		expect(message).toMatch(/Usage: 1 turn ↑[\d.]+k? ↓\d+ \$0\.\d{4} [\d.]+k? in context\./);
		await env.session.waitForIdle();
		const after = await env.session.callTool<JobsDetails>("subagent_jobs", {});
		expect(after.result.details.jobs.find((job) => job.id === jobId)?.status).toBe("completed");
	});

	it("cancels a running job, killing its children, and reports it", async () => {
		env.server.scriptFor("background hang", { hang: true });
		const { result } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			task: "background hang",
			background: true,
		});
		const jobId = result.details.jobId as string;
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "background hang"));
		const cancelled = await env.session.callTool<JobsDetails>("subagent_jobs", { action: "cancel", job_id: jobId });
		expect(cancelled.isError, textOf(cancelled.result)).toBe(false);
		const job = cancelled.result.details.jobs[0];
		expect(job.status).toBe("cancelled");
		const pid = job.children[0]?.result?.pid as number;
		expect(pid).toBeGreaterThan(0);
		await waitUntil(() => !isAlive(pid) && groupMembers(pid).length === 0, "the child to die");
		await waitUntil(() => deliveries().some((text) => text.includes(`Background job ${jobId}`)), "the report");
		expect(deliveries().find((text) => text.includes(`Background job ${jobId}`))).toContain("cancelled");
		await env.session.waitForIdle();
		const again = await env.session.callTool<JobsDetails>("subagent_jobs", { action: "cancel", job_id: jobId });
		expect(again.isError).toBe(true);
		expect(textOf(again.result)).toContain("it is already cancelled");
	});

	it("ends a queued child's wait at once on abort or cancel, even while another job holds every slot", async () => {
		const settingsFile = join(env.home.agentDir, "extensions/agentshell.json");
		writeJson(settingsFile, { limits: { global_concurrency: 1 } });
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, mode: "rpc" });
		try {
			env.server.scriptFor("holds the slot", { hang: true });
			const holder = await session.callTool<SubagentDetails>("subagent", {
				agent: "echo",
				task: "holds the slot",
				background: true,
			});
			await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "holds the slot"));
			const queued = await session.callTool<SubagentDetails>("subagent", {
				agent: "echo",
				task: "queued job",
				background: true,
			});
			const cancelled = await session.callTool<JobsDetails>("subagent_jobs", {
				action: "cancel",
				job_id: queued.result.details.jobId,
			});
			expect(cancelled.isError, textOf(cancelled.result)).toBe(false);
			expect(cancelled.result.details.jobs[0].children.map((c) => c.phase)).toEqual(["skipped"]);

			const controller = new AbortController();
			const foreground = session.callTool<SubagentDetails>(
				"subagent",
				{ agent: "echo", task: "queued foreground" },
				controller.signal,
			);
			setImmediate(() => controller.abort());
			const { result } = await foreground;
			expect(result.details.children.map((c) => c.phase)).toEqual(["skipped"]);
			expect(env.server.requests.some((r) => r.lastUserText.startsWith("queued"))).toBe(false);
			await session.callTool<JobsDetails>("subagent_jobs", { action: "cancel", job_id: holder.result.details.jobId });
		} finally {
			await session.shutdown();
			session.dispose();
			rmSync(settingsFile);
		}
	});

	it("stops every running job's children when the session shuts down", async () => {
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, mode: "rpc" });
		try {
			env.server.scriptFor("shutdown hang", { hang: true });
			const { result } = await session.callTool<SubagentDetails>("subagent", {
				agent: "echo",
				task: "shutdown hang",
				background: true,
			});
			const jobId = result.details.jobId as string;
			await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "shutdown hang"));
			const running = await session.callTool<JobsDetails>("subagent_jobs", {});
			const pid = running.result.details.jobs.find((job) => job.id === jobId)?.children[0]?.result?.pid as number;
			expect(isAlive(pid)).toBe(true);
			await session.shutdown();
			// The leader was reaped before shutdown resolved; the rest of its group was SIGKILLed then, and a
			// killed process disappears asynchronously: wait for the final state instead of racing it.
			expect(isAlive(pid)).toBe(false);
			await waitUntil(() => groupMembers(pid).length === 0, "the child's group to be empty");
			// The model that started the job is told it was cancelled, in the session that started it.
			expect(deliveries(session).find((text) => text.includes(`Background job ${jobId}`))).toContain(
				"cancelled (the session ended; its children were stopped)",
			);
			const late = await session.callTool<SubagentDetails>("subagent", {
				agent: "echo",
				task: "too late",
				background: true,
			});
			expect(late.isError).toBe(true);
			expect(textOf(late.result)).toContain("the session is shutting down; no background job can start");
		} finally {
			session.dispose();
		}
	});

	it("refuses background: true in print mode, where no follow-up can arrive, and runs nothing", async () => {
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, mode: "print" });
		try {
			const before = env.server.requests.length;
			const { result, isError } = await session.callTool<SubagentDetails>("subagent", {
				agent: "echo",
				task: "never runs in print mode",
				background: true,
			});
			expect(isError).toBe(true);
			expect(textOf(result)).toContain("subagent: nothing was started.");
			expect(textOf(result)).toContain("pi runs in print mode (-p), which ends after this turn");
			const listed = await session.callTool<JobsDetails>("subagent_jobs", {});
			expect(listed.result.details.jobs).toEqual([]);
			expect(env.server.requests.length).toBe(before);
		} finally {
			session.dispose();
		}
	});

	it("refuses a background call over the job cap (setting limits.max_background_jobs) and starts nothing, also within one turn", async () => {
		const settingsFile = join(env.home.agentDir, "extensions/agentshell.json");
		writeJson(settingsFile, { limits: { max_background_jobs: 1 } });
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, mode: "rpc" });
		try {
			env.server.scriptFor("the only job", { hang: true });
			env.server.scriptFor("the other job", { hang: true });
			// Two calls in one assistant turn run side by side: only one may start.
			const outcomes = await session.callTools(
				["the only job", "the other job"].map((task) => ({
					name: "subagent",
					args: { agent: "echo", task, background: true },
				})),
			);
			const started = outcomes.filter((outcome) => !outcome.isError);
			expect(started).toHaveLength(1);
			const firstId = (started[0].result.details as SubagentDetails).jobId;
			const second = await session.callTool<SubagentDetails>("subagent", {
				agent: "echo",
				task: "one job too many",
				background: true,
			});
			for (const refused of [...outcomes.filter((outcome) => outcome.isError), second]) {
				expect(textOf(refused.result)).toContain(
					"1 background jobs are running (the limit is 1, setting limits.max_background_jobs)",
				);
			}
			expect(second.isError).toBe(true);
			const listed = await session.callTool<JobsDetails>("subagent_jobs", {});
			expect(listed.result.details.jobs.map((job) => job.id)).toEqual([firstId]);
			expect(env.server.requests.some((r) => r.lastUserText === "one job too many")).toBe(false);
		} finally {
			await session.shutdown();
			session.dispose();
			rmSync(settingsFile);
		}
	});

	it("waits for a job without cancelling it until its processes are gone; result reads it again, listing never consumes", async () => {
		let release: () => void = () => {};
		const released = new Promise<void>((resolve) => {
			release = resolve;
		});
		env.server.scriptFor("waited-for work", async () => {
			await released;
			return { text: "waited answer" };
		});
		const { result } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			task: "waited-for work",
			background: true,
		});
		const jobId = result.details.jobId as string;
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "waited-for work"));
		const early = await env.session.callTool<JobsDetails>("subagent_jobs", {
			action: "wait",
			job_id: jobId,
			timeout_ms: 200,
		});
		expect(textOf(early.result)).toContain(`job ${jobId} is still running after 200 ms; it was not cancelled`);
		expect(early.result.details.jobs[0].status).toBe("running");
		const notYet = await env.session.callTool<JobsDetails>("subagent_jobs", { action: "result", job_id: jobId });
		expect(notYet.isError).toBe(true);
		expect(textOf(notYet.result)).toContain("is still running");

		const waiting = env.session.callTool<JobsDetails>("subagent_jobs", { action: "wait", job_id: jobId });
		release();
		const waited = await waiting;
		expect(textOf(waited.result)).toContain(`job ${jobId} completed; its processes are gone`);
		const pid = waited.result.details.jobs[0].children[0].result?.pid as number;
		expect(pid).toBeGreaterThan(0);
		expect(isAlive(pid)).toBe(false);
		expect(groupMembers(pid)).toEqual([]);

		await env.session.waitForIdle();
		for (let i = 0; i < 2; i++) {
			await env.session.callTool<JobsDetails>("subagent_jobs", {});
			const again = await env.session.callTool<JobsDetails>("subagent_jobs", { action: "result", job_id: jobId });
			expect(again.isError).toBe(false);
			const text = textOf(again.result);
			expect(text.startsWith(`Background job ${jobId} (echo: waited-for work) completed.\n\n`)).toBe(true);
			expect(text).toContain("waited answer");
			// The same text the follow-up delivered.
			expect(deliveries().find((message) => message.includes(`Background job ${jobId}`))).toContain(
				text.slice(text.indexOf("\n\n") + 2),
			);
		}
		expect(deliveries().filter((text) => text.includes(`Background job ${jobId}`))).toHaveLength(1);
	});

	it("silent mode: no job-end notice and no displayed report, while the follow-up still reaches the model", async () => {
		const settingsFile = join(env.home.agentDir, "extensions/agentshell.json");
		for (const silent of [false, true]) {
			writeJson(settingsFile, { silent });
			const uiLog: UiCall[] = [];
			const session = await createExtensionSession({
				cwd: env.workDir,
				agentDir: env.home.agentDir,
				mode: "rpc",
				uiLog,
			});
			try {
				const task = `silent ${silent} work`;
				env.server.scriptFor(task, { text: `answer while silent=${silent}` });
				const { result } = await session.callTool<SubagentDetails>("subagent", {
					agent: "echo",
					task,
					background: true,
				});
				const jobId = result.details.jobId as string;
				await session.callTool<JobsDetails>("subagent_jobs", { action: "wait", job_id: jobId });
				await waitUntil(
					() => deliveries(session).some((text) => text.includes(`answer while silent=${silent}`)),
					"the follow-up",
				);
				// Delivered to the model either way; displayed only when not silent.
				const report = session
					.branch()
					.find((entry) => entry.customType === JOB_MESSAGE_TYPE && JSON.stringify(entry).includes(jobId));
				expect((report as { display?: boolean } | undefined)?.display).toBe(!silent);
				const jobNotices = uiLog.filter(
					(call) => call.method === "notify" && String(call.args[0]).includes(`Background job ${jobId}`),
				);
				if (silent) {
					expect(jobNotices).toEqual([]);
				} else {
					expect(jobNotices).toEqual([
						{ method: "notify", args: [`Background job ${jobId} (echo: ${task}) completed`, "info"] },
					]);
				}
				await session.waitForIdle();
			} finally {
				session.dispose();
			}
		}
		rmSync(settingsFile);
	});
});
