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
		for (const action of ["cancel", "stop", "wait", "result", "send"]) {
			const result = await run({ action, job_id: "nope\u001b[2J\nforged", text: "hi", timeout_ms: 1 });
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
});
