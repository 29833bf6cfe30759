/** The `subagent_jobs` tool's boundary (tools/jobs-tool.ts): caller strings over their bound are refused, naming the field. */
import { describe, expect, it } from "vitest";
import { JobRegistry } from "../../src/runs/jobs.ts";
import { createJobsTool } from "../../src/tools/jobs-tool.ts";

describe("subagent_jobs arguments", () => {
	const run = (params: Record<string, unknown>) =>
		createJobsTool(new JobRegistry({ error: () => {} })).execute(
			"call",
			params as never,
			undefined,
			undefined,
			undefined as never,
		);

	it("echoes a job id it does not know as one visible line, in every action", async () => {
		const extra: Record<string, Record<string, unknown>> = { send: { text: "hi" }, wait: { timeout_ms: 1 } };
		for (const action of ["cancel", "stop", "wait", "result", "send"]) {
			const result = await run({ action, job_id: "nope\u001b[2J\nforged", ...extra[action] });
			const text = (result.content[0] as { text: string }).text;
			expect(text, action).toContain("nope\\u001b[2J\\u000aforged");
			expect(text, action).not.toMatch(/\p{Cc}/u);
		}
	});

	it("refuses a job_id or child name over its bound, naming the field and not quoting the value", async () => {
		const result = await run({ action: "send", job_id: "j".repeat(100_000), child: "c".repeat(300), text: "hi" });
		expect(result.isError).toBe(true);
		const text = (result.content[0] as { text: string }).text;
		expect(text).toBe(
			"subagent_jobs: job_id: 100000 characters, more than the limit of 100; child: 300 characters, more than the limit of 200",
		);
	});

	it("says a native session id is no job id, and where it goes, for an id no job could have", async () => {
		const session = await run({ action: "result", job_id: "0f0e0d0c-1114-406e-8ddf-025493a5408d" });
		expect((session.content[0] as { text: string }).text).toContain(
			"a native session id is no job id (resume a session with subagent's resume_session_id)",
		);
		const job = await run({ action: "cancel", job_id: "0f0e0d0c" });
		expect((job.content[0] as { text: string }).text).toBe("job 0f0e0d0c was not cancelled: there is no such job");
	});

	it("refuses a field the action does not read, naming it and what the action reads", async () => {
		const cases: [Record<string, unknown>, string][] = [
			[{ action: "cancel", job_id: "j1", text: "stop now" }, 'action "cancel" does not use text (it reads job_id)'],
			[{ job_id: "j1" }, 'action "list" does not use job_id (it reads no other field)'],
			[
				{ action: "wait", job_id: "j1", mode: "steer", child: 0 },
				'action "wait" does not use mode, child (it reads job_id, timeout_ms)',
			],
			[{ action: "stop", job_id: "j1", timeout_ms: 5 }, 'action "stop" does not use timeout_ms (it reads job_id)'],
		];
		for (const [params, message] of cases) {
			const result = await run(params);
			expect(result.isError, JSON.stringify(params)).toBe(true);
			expect((result.content[0] as { text: string }).text).toBe(`subagent_jobs: ${message}`);
		}
		// Every field an action reads is accepted: the reply is about the job, not the arguments.
		const send = await run({ action: "send", job_id: "j1", child: 0, text: "hi", mode: "follow_up" });
		expect((send.content[0] as { text: string }).text).not.toContain("does not use");
	});
});
