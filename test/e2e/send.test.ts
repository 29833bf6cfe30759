/**
 * Talking to running pi children (docs/background-jobs.md §Talking to running children): `subagent_jobs` send and stop,
 * and `/subagent-send` for a foreground call. Receipts and delivery are asserted from pi's own
 * acknowledgements (its RPC responses and user-message events); the fake model's gates hold a turn open
 * while input arrives.
 */
import type { ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { Job } from "../../src/runs/jobs.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";
import { gate, jobHelpers, userTextsOf } from "../support/jobs.ts";

let env: E2eEnv;
let h: ReturnType<typeof jobHelpers>;

beforeAll(async () => {
	// A host that stays open (RPC, interactive): background jobs can report there.
	env = await startE2eEnv({ agents: { echo: { description: "Answers", body: "You answer." } }, mode: "rpc" });
	h = jobHelpers(env);
});
afterAll(async () => env?.close());

describe("sending to a running pi child", () => {
	it("steers a running pi child: the model sees the steering text within the same run and the answer reflects it", async () => {
		const held = gate();
		env.server.scriptFor(
			"pi steer task",
			async () => {
				await held.wait;
				return { text: "draft with spaces" };
			},
			(request) => ({ text: `final, after: ${request.userTexts.at(-1)}` }),
		);
		const jobId = await h.startJob({ agent: "echo", task: "pi steer task" });
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "pi steer task"));
		const sent = await h.jobs({ action: "send", job_id: jobId, text: "use tabs instead", mode: "steer" });
		expect(sent.isError, textOf(sent.result)).toBe(false);
		// pi's own acknowledgement: its RPC response to the steer command said "queued".
		expect(sent.result.details.receipt).toMatchObject({
			status: "queued",
			ack: expect.stringContaining("pi: steer queued"),
		});
		held.open();
		const job = await h.finished(jobId);
		const run = job.children[0]?.result;
		expect(job.status).toBe("completed");
		expect(run?.finalAnswer).toBe("final, after: use tabs instead");
		// Delivered: pi echoed it as a user message of the same run, and the next model request carried it.
		expect(run?.inputs).toEqual([
			expect.objectContaining({ mode: "steer", text: "use tabs instead", status: "delivered" }),
		]);
		const second = env.server.requests.find((r) => r.userTexts.includes("use tabs instead"));
		expect(userTextsOf(second)).toEqual(["pi steer task", "use tabs instead"]);
		expect(run?.usage.turns).toBe(2);
	});

	it("follows up a pi child: the job's result has both answers from one process", async () => {
		const held = gate();
		env.server.scriptFor(
			"pi follow-up task",
			async () => {
				await held.wait;
				return { text: "answer one" };
			},
			{ text: "answer two" },
		);
		const jobId = await h.startJob({ agent: "echo", task: "pi follow-up task" });
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "pi follow-up task"));
		const sent = await h.jobs({ action: "send", job_id: jobId, text: "now the second part", mode: "follow_up" });
		expect(sent.result.details.receipt).toMatchObject({
			status: "queued",
			ack: expect.stringContaining("pi: follow_up queued"),
		});
		held.open();
		const job = await h.finished(jobId);
		const run = job.children[0]?.result;
		expect(run?.finalAnswer).toBe("answer two");
		expect(run?.inputs?.[0]).toMatchObject({ status: "delivered", answerBefore: "answer one" });
		expect(run?.usage.turns).toBe(2);
		const delivered = h.deliveries().find((text) => text.includes(`Background job ${jobId} `));
		expect(delivered).toContain("answer one");
		expect(delivered).toContain("answer two");
	});

	it("reports only a failed follow-up turn's own text: the previous answer is not repeated as the last answer", async () => {
		const held = gate();
		env.server.scriptFor(
			"pi failing follow-up task",
			async () => {
				await held.wait;
				return { text: "answer before the failure" };
			},
			{ error: { status: 400, message: "the follow-up turn broke" } },
		);
		const jobId = await h.startJob({ agent: "echo", task: "pi failing follow-up task" });
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "pi failing follow-up task"));
		await h.jobs({ action: "send", job_id: jobId, text: "and now fail", mode: "follow_up" });
		held.open();
		const job = await h.finished(jobId);
		const run = job.children[0]?.result;
		expect(job.status).toBe("failed");
		expect(run?.inputs?.[0]).toMatchObject({ status: "delivered", answerBefore: "answer before the failure" });
		expect(run?.finalAnswer).toBe("");
		const delivered = h.deliveries().find((text) => text.includes(`Background job ${jobId} `)) ?? "";
		expect(delivered).toContain("the follow-up turn broke");
		expect(delivered).toContain("Answer after the last follow-up:\n(no text answer)");
		expect(delivered.split("answer before the failure")).toHaveLength(2);
	});

	it("refuses a send to a child that has finished while its job still runs", async () => {
		const held = gate();
		env.server.scriptFor("quick child", { text: "quick done" });
		env.server.scriptFor("slow sibling", async () => {
			await held.wait;
			return { text: "slow done" };
		});
		const jobId = await h.startJob({
			tasks: [
				{ agent: "echo", task: "quick child", task_name: "quick" },
				{ agent: "echo", task: "slow sibling", task_name: "slow" },
			],
		});
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "slow sibling"));
		await h.pollJob(jobId, (job) => job.children[0]?.phase === "completed", "the quick child to finish");
		const sent = await h.jobs({ action: "send", job_id: jobId, child: "quick", text: "too late", mode: "steer" });
		expect(sent.isError).toBe(true);
		expect(sent.result.details.receipt).toMatchObject({ status: "refused", reason: "exited" });
		const empty = await h.jobs({ action: "send", job_id: jobId, child: "slow", text: "  \n", mode: "steer" });
		expect(empty.result.details.receipt).toMatchObject({ status: "refused", reason: "empty_text" });
		held.open();
		await h.finished(jobId);
		const afterEnd = await h.jobs({ action: "send", job_id: jobId, child: "slow", text: "after the end" });
		expect(afterEnd.result.details.receipt).toMatchObject({ status: "refused", reason: "exited" });
	});

	it("stops a pi child gracefully: pi aborts its turn and the result keeps the partial text and usage", async () => {
		env.server.scriptFor(
			"pi stop task",
			{
				text: "Looking first.",
				toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }],
				usage: { input: 40, output: 8 },
			},
			{ hang: true },
		);
		const jobId = await h.startJob({ agent: "echo", task: "pi stop task" });
		await env.server.waitFor((requests) => requests.filter((r) => r.userTexts.includes("pi stop task")).length === 2);
		const stopped = await h.jobs({ action: "stop", job_id: jobId });
		expect(stopped.isError, textOf(stopped.result)).toBe(false);
		expect(stopped.result.details.stop).toEqual({
			receipts: [{ index: 0, receipt: { status: "requested", ack: "pi: accepted" } }],
			killed: false,
		});
		const job = stopped.result.details.jobs[0] as Job;
		const run = job.children[0]?.result;
		expect(job.status).toBe("stopped");
		expect(run?.status).toBe("aborted");
		expect(run?.error).toContain("stopped on request (pi: accepted)");
		expect(run?.finalAnswer).toBe("Looking first.");
		expect(run?.usage).toMatchObject({ inputTokens: 40, outputTokens: 8 });
		// pi ended by itself after its stdin closed, not by a signal.
		expect(run?.signal).toBeNull();
		expect(run?.exitCode).toBe(0);
	});

	it("refuses a send to a child still queued for a slot with not_started, never exited", async () => {
		const held = gate();
		const tasks = [1, 2, 3, 4, 5].map((n) => ({ agent: "echo", task: `queued send task ${n}`, task_name: `q${n}` }));
		for (const { task } of tasks) {
			env.server.scriptFor(task, async () => {
				await held.wait;
				return { text: `done ${task}` };
			});
		}
		const jobId = await h.startJob({ tasks });
		// Four run at once (concurrency 4); the fifth waits for a slot.
		await env.server.waitFor(
			(requests) => requests.filter((r) => r.lastUserText.startsWith("queued send task")).length === 4,
		);
		const sent = await h.jobs({ action: "send", job_id: jobId, child: "q5", text: "too early" });
		expect(sent.result.details.receipt).toMatchObject({ status: "refused", reason: "not_started" });
		expect(textOf(sent.result)).toContain("is queued (for a slot or an earlier step) and has not started");
		held.open();
		const job = await h.finished(jobId);
		expect(job.status).toBe("completed");
		expect(env.server.requests.some((r) => r.userTexts.includes("too early"))).toBe(false);
	});

	it("stops a parallel job gracefully: queued children never start and running ones end their turns unkilled", async () => {
		const tasks = [1, 2, 3, 4, 5].map((n) => ({ agent: "echo", task: `parallel stop task ${n}`, task_name: `t${n}` }));
		for (const { task } of tasks) env.server.scriptFor(task, { hang: true });
		const jobId = await h.startJob({ tasks });
		// Four run at once (concurrency 4); the fifth waits for a slot.
		await env.server.waitFor(
			(requests) => requests.filter((r) => r.lastUserText.startsWith("parallel stop task")).length === 4,
		);
		const stopped = await h.jobs({ action: "stop", job_id: jobId });
		const outcome = stopped.result.details.stop;
		expect(outcome?.killed).toBe(false);
		expect(outcome?.receipts.map((r) => r.receipt.status)).toEqual([
			"requested",
			"requested",
			"requested",
			"requested",
		]);
		const phases = (stopped.result.details.jobs[0] as Job).children.map((child) => child.phase);
		expect(phases.filter((phase) => phase === "aborted")).toHaveLength(4);
		expect(phases.filter((phase) => phase === "skipped")).toHaveLength(1);
		expect(env.server.requests.filter((r) => r.lastUserText.startsWith("parallel stop task"))).toHaveLength(4);
	});
});

describe("steering a foreground call from the UI", () => {
	it("steers the child of a running foreground call with /subagent-send in a session with a UI", async () => {
		const notes: Array<{ message: string; level: string }> = [];
		// A UI whose notifications are recorded; every other UI method does nothing (Pi copies its methods).
		const methods = ["select", "confirm", "input", "editor", "custom", "setStatus", "setWidget", "setTitle"];
		methods.push("setFooter", "setHeader", "setWorkingMessage", "setWorkingVisible", "setWorkingIndicator");
		methods.push("setHiddenThinkingLabel", "pasteToEditor", "setEditorText", "getEditorText", "setEditorComponent");
		methods.push("getEditorComponent", "addAutocompleteProvider", "onTerminalInput", "getToolsExpanded");
		methods.push("setToolsExpanded", "getAllThemes", "getTheme", "setTheme");
		const uiContext = {
			...Object.fromEntries(methods.map((name) => [name, () => undefined])),
			notify: (message: string, level = "info") => notes.push({ message, level }),
		} as unknown as ExtensionUIContext;
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, uiContext });
		try {
			const held = gate();
			env.server.scriptFor(
				"foreground steer task",
				async () => {
					await held.wait;
					return { text: "first draft" };
				},
				(request) => ({ text: `final, after: ${request.userTexts.at(-1)}` }),
			);
			const call = session.callTool<SubagentDetails>("subagent", { agent: "echo", task: "foreground steer task" });
			await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "foreground steer task"));
			await session.prompt("/subagent-send - steer from the user");
			expect(notes).toEqual([
				{ message: expect.stringMatching(/^\/subagent-send: queued: pi: steer queued/), level: "info" },
			]);
			held.open();
			const { result, isError } = await call;
			expect(isError, textOf(result)).toBe(false);
			const run = runOf(result.details);
			expect(run.finalAnswer).toBe("final, after: steer from the user");
			expect(run.inputs).toEqual([expect.objectContaining({ text: "steer from the user", status: "delivered" })]);
			// Once the call has ended there is nothing to steer.
			await session.prompt("/subagent-send - too late");
			expect(notes.at(-1)).toEqual({
				message: "/subagent-send: not sent: no subagent call is running in the foreground",
				level: "error",
			});
		} finally {
			session.dispose();
		}
	});
});
