/** `agent_graph({ background: true })`: a job of `subagent_jobs`, reported exactly once. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GraphDetails } from "../../src/core/graph-details.ts";
import { JOB_MESSAGE_TYPE } from "../../src/runs/jobs.ts";
import type { JobsDetails } from "../../src/tools/jobs-tool.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { Gate } from "../support/gate.ts";
import { waitUntil } from "../support/processes.ts";

let env: E2eEnv;

beforeAll(async () => {
	// A host that stays open (RPC): background jobs can report there.
	env = await startE2eEnv({ agents: { scout: { description: "Scouts", body: "You scout." } }, mode: "rpc" });
});
afterAll(async () => env?.close());

/** Follow-up messages that delivered job results so far. */
function deliveries(): string[] {
	return env.session
		.branch()
		.filter((entry) => entry.type === "custom_message" && entry.customType === JOB_MESSAGE_TYPE)
		.map((entry) => {
			const content = (entry as unknown as { content: string | Array<{ text?: string }> }).content;
			return typeof content === "string" ? content : content.map((part) => part.text ?? "").join("");
		});
}

describe("a background graph", () => {
	it("runs as a job: list shows it, wait and result work, and it reports exactly once", async () => {
		const gate = new Gate();
		const unroute = env.server.route(gate.rule("bg graph first", () => ({ text: "first done" })));
		try {
			const { result, isError } = await env.session.callTool<GraphDetails>("agent_graph", {
				graph: {
					name: "bg",
					nodes: {
						first: { agent: "scout", task: "bg graph first" },
						second: { agent: "scout", task: "bg graph second", depends_on: ["first"] },
					},
				},
				background: true,
			});
			expect(isError, textOf(result)).toBe(false);
			const jobId = result.details.jobId as string;
			expect(textOf(result)).toContain(`Started background job ${jobId}: graph "bg"`);
			await gate.waitHeld(1);
			const listed = await env.session.callTool<JobsDetails>("subagent_jobs", {});
			const job = listed.result.details.jobs.find((j) => j.id === jobId);
			expect(job).toMatchObject({ status: "running", mode: "graph", label: 'graph "bg"' });
			gate.releaseOne();
			const waited = await env.session.callTool<JobsDetails>("subagent_jobs", { action: "wait", job_id: jobId });
			expect(textOf(waited.result)).toContain(`job ${jobId} completed; its processes are gone`);
			const read = await env.session.callTool<JobsDetails>("subagent_jobs", { action: "result", job_id: jobId });
			expect(textOf(read.result)).toContain('agent_graph "bg": 2/2 nodes completed');
			expect(textOf(read.result)).toContain("- second: completed");
			await waitUntil(() => deliveries().some((text) => text.includes(jobId)), "the report", 15_000);
			await env.session.waitForIdle();
			const reports = deliveries().filter((text) => text.includes(`Background job ${jobId}`));
			expect(reports).toHaveLength(1);
			expect(reports[0]).toContain(`Background job ${jobId} (graph "bg") completed. Usage: 2 turns`);
			expect(reports[0]).toContain('agent_graph "bg": 2/2 nodes completed');
		} finally {
			unroute();
		}
	});

	it("is cancelled by subagent_jobs cancel: running nodes cancelled, the rest skipped, one report", async () => {
		env.server.scriptFor("bg cancel hangs", { hang: true });
		const { result } = await env.session.callTool<GraphDetails>("agent_graph", {
			graph: {
				nodes: {
					hangs: { agent: "scout", task: "bg cancel hangs" },
					after: { agent: "scout", task: "bg cancel after", depends_on: ["hangs"] },
				},
			},
			background: true,
		});
		const jobId = result.details.jobId as string;
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "bg cancel hangs"));
		const cancelled = await env.session.callTool<JobsDetails>("subagent_jobs", { action: "cancel", job_id: jobId });
		expect(cancelled.result.details.jobs[0].status).toBe("cancelled");
		await waitUntil(() => deliveries().some((text) => text.includes(`Background job ${jobId}`)), "the report", 15_000);
		await env.session.waitForIdle();
		const reports = deliveries().filter((text) => text.includes(`Background job ${jobId}`));
		expect(reports).toHaveLength(1);
		expect(reports[0]).toContain("- hangs: cancelled");
		expect(reports[0]).toContain("- after: skipped (cancelled: the run was cancelled)");
	});
	it("lets subagent_jobs send reach a node by its key though it has a task_name, and stop it gracefully: nothing more starts", async () => {
		env.server.scriptFor(
			"bg stop works",
			{ text: "Looking first.", toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] },
			{ hang: true },
		);
		const { result } = await env.session.callTool<GraphDetails>("agent_graph", {
			graph: {
				nodes: {
					work: { agent: "scout", task: "bg stop works", task_name: "reviewer" },
					after: { agent: "scout", task: "bg stop after", depends_on: ["work"] },
				},
			},
			background: true,
		});
		const jobId = result.details.jobId as string;
		await env.server.waitFor((requests) => requests.filter((r) => r.userTexts.includes("bg stop works")).length === 2);
		const sent = await env.session.callTool<JobsDetails>("subagent_jobs", {
			action: "send",
			job_id: jobId,
			child: "work",
			text: "also look at the tests",
			mode: "follow_up",
		});
		expect(sent.result.details.receipt?.status, textOf(sent.result)).not.toBe("refused");
		const stopped = await env.session.callTool<JobsDetails>("subagent_jobs", { action: "stop", job_id: jobId });
		expect(stopped.result.details.stop).toEqual({
			receipts: [{ index: 0, receipt: { status: "requested", ack: "pi: accepted" } }],
			killed: false,
		});
		expect(stopped.result.details.jobs[0].status).toBe("stopped");
		await waitUntil(() => deliveries().some((text) => text.includes(`Background job ${jobId}`)), "the report", 15_000);
		await env.session.waitForIdle();
		const reports = deliveries().filter((text) => text.includes(`Background job ${jobId}`));
		expect(reports).toHaveLength(1);
		expect(reports[0]).toContain("stopped by request: no further node started");
		expect(reports[0]).toContain("- after: skipped (stopped by request)");
		expect(env.server.requests.some((r) => r.lastUserText === "bg stop after")).toBe(false);
	});
});
