/**
 * A background job's usage reaches the session's totals (docs/background-jobs.md §Background jobs): Pi offers no usage
 * on a follow-up message, so the extension adds a finished job's usage, once, to the next tool result of
 * the session, which Pi counts in its totals.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { JOB_MESSAGE_TYPE } from "../../src/runs/jobs.ts";
import { type E2eEnv, startE2eEnv } from "../support/e2e-env.ts";
import { waitUntil } from "../support/processes.ts";

let env: E2eEnv;
beforeAll(async () => {
	// A host that stays open (RPC, interactive): background jobs can report there.
	env = await startE2eEnv({ agents: { echo: { description: "Answers", body: "You answer." } }, mode: "rpc" });
});
afterAll(async () => env?.close());

describe("background job usage", () => {
	it("adds a finished job's usage once to the next tool result of the session", async () => {
		env.server.scriptFor("counted background work", { text: "done", usage: { input: 700, output: 70 } });
		const started = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			task: "counted background work",
			background: true,
		});
		expect(started.isError).toBe(false);
		expect(started.result.usage).toBeUndefined();
		await waitUntil(
			() => env.session.branch().some((e) => e.type === "custom_message" && e.customType === JOB_MESSAGE_TYPE),
			"the follow-up message",
		);
		await env.session.waitForIdle();
		const next = await env.session.callTool("subagent_jobs", {});
		expect(next.result.usage).toMatchObject({ input: 700, output: 70 });
		expect(next.result.usage?.cost.total).toBeGreaterThan(0);
		const after = await env.session.callTool("subagent_jobs", {});
		expect(after.result.usage).toBeUndefined();
	});
});
