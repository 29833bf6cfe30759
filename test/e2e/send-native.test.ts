/**
 * Talking to running claude and codex children (docs/background-jobs.md §Talking to running children): claude takes
 * user messages at its turn boundaries and confirms them by replaying them; codex takes no input once
 * started, so every send is refused with the documented reason.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODEX_INPUT_REFUSAL } from "../../src/harness/codex/adapter.ts";
import type { Job } from "../../src/runs/jobs.ts";
import { type E2eEnv, startE2eEnv } from "../support/e2e-env.ts";
import { gate, jobHelpers, userTextsOf } from "../support/jobs.ts";

let env: E2eEnv;
let h: ReturnType<typeof jobHelpers>;

beforeAll(async () => {
	// A host that stays open (RPC, interactive): background jobs can report there.
	env = await startE2eEnv({ nativeHomes: true, mode: "rpc" });
	h = jobHelpers(env);
});
afterAll(async () => env?.close());

describe("sending to claude and codex children", () => {
	it("follows up a claude child: claude replays it at its next turn and the result has both answers", async () => {
		const held = gate();
		env.server.scriptFor(
			"claude follow-up task",
			async () => {
				await held.wait;
				return { text: "claude one" };
			},
			{ text: "claude two" },
		);
		const jobId = await h.startJob({ agent_type: "claude_code", task: "claude follow-up task" });
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "claude follow-up task"));
		const sent = await h.jobs({ action: "send", job_id: jobId, text: "claude, one more thing", mode: "follow_up" });
		expect(sent.result.details.receipt).toMatchObject({ status: "queued", ack: expect.stringContaining("claude:") });
		held.open();
		const job = await h.finished(jobId);
		const run = job.children[0]?.result;
		expect(job.status, run?.error).toBe("completed");
		expect(run?.finalAnswer).toBe("claude two");
		expect(run?.inputs?.[0]).toMatchObject({ status: "delivered", answerBefore: "claude one" });
		const second = env.server.requests.find((r) => r.lastUserText === "claude, one more thing");
		expect(userTextsOf(second)).toEqual(["claude follow-up task", "claude, one more thing"]);
	});

	it("stops a claude child gracefully through claude's interrupt control request", async () => {
		env.server.scriptFor(
			"claude stop task",
			{ text: "claude looked first", usage: { input: 30, output: 6 } },
			{ hang: true },
		);
		const jobId = await h.startJob({ agent_type: "claude_code", task: "claude stop task" });
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "claude stop task"));
		// A second turn (a follow-up) hangs at the model, so the stop lands mid-turn.
		await h.jobs({ action: "send", job_id: jobId, text: "claude second turn", mode: "follow_up" });
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "claude second turn"));
		const stopped = await h.jobs({ action: "stop", job_id: jobId });
		expect(stopped.result.details.stop).toEqual({
			receipts: [{ index: 0, receipt: { status: "requested", ack: "claude_code: interrupt accepted" } }],
			killed: false,
		});
		const run = (stopped.result.details.jobs[0] as Job).children[0]?.result;
		expect(run?.status).toBe("aborted");
		// The stopped turn (the follow-up) said nothing; the first turn's answer is kept as the answer before it.
		expect(run?.finalAnswer).toBe("");
		expect(run?.inputs?.[0]).toMatchObject({ status: "delivered", answerBefore: "claude looked first" });
		expect(run?.usage).toMatchObject({ inputTokens: 30, outputTokens: 6 });
		expect(run?.signal).toBeNull();
	});

	it("refuses a send to a codex child, saying codex takes no input and to resume it after it finishes", async () => {
		const held = gate();
		env.server.scriptFor("codex send task", async () => {
			await held.wait;
			return { text: "codex done" };
		});
		const jobId = await h.startJob({ agent_type: "codex", task: "codex send task" });
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText.includes("codex send task")));
		const sent = await h.jobs({ action: "send", job_id: jobId, text: "hello codex" });
		expect(sent.isError).toBe(true);
		expect(sent.result.details.receipt).toEqual({
			status: "refused",
			reason: "no_input_channel",
			message: CODEX_INPUT_REFUSAL,
		});
		held.open();
		expect((await h.finished(jobId)).status).toBe("completed");
	});
});
