/**
 * The complete schemas are checked by the package (tools/check-arguments.ts), since the model's schema describes
 * `tasks` / `chain` items as plain objects: inside items, the same checks, coercions and messages as at the top.
 */
import { describe, expect, it } from "vitest";
import { checkToolArguments } from "../../src/tools/check-arguments.ts";
import { jobsSchema } from "../../src/tools/jobs-schema.ts";
import { subagentSchema } from "../../src/tools/subagent-schema.ts";

const check = (args: unknown) => checkToolArguments("subagent", subagentSchema, args);

describe("checking a call against the complete schema", () => {
	it("refuses wrong types and unknown fields inside tasks and chain items, naming each path", () => {
		const checked = check({
			tasks: [{ agent: "a", task: "t", auto_approve: "maybe", alowed_tools: ["read"] }],
			chain: [{ agent: "b", task: "t", resources: { skils: [] }, agent_type: "gemini" }],
		});
		expect("error" in checked && checked.error).toMatch(/tasks\.0\.auto_approve: /);
		for (const message of ["tasks.0.alowed_tools: unknown field", "chain.0.resources.skils: unknown field"]) {
			expect("error" in checked && checked.error).toContain(message);
		}
		expect("error" in checked && checked.error).toMatch(/chain\.0\.agent_type: /);
	});

	it("coerces inside items as Pi does at the top level: a single value for a list, a string for a boolean", () => {
		const checked = check({ tasks: [{ agent: "a", task: "t", allowed_tools: "read", auto_approve: "true" }] });
		expect(checked).toEqual({
			value: { tasks: [{ agent: "a", task: "t", allowed_tools: ["read"], auto_approve: true }] },
		});
	});

	it("keeps null where it means something: inactivity_timeout_ms null is never, mcp_servers null inherits", () => {
		const item = {
			agent: "a",
			task: "t",
			interactive: true,
			inactivity_timeout_ms: null,
			resources: { mcp_servers: null },
		};
		expect(check({ chain: [item] })).toEqual({ value: { chain: [item] } });
	});

	it("checks subagent_jobs' bounds the model's schema leaves out", () => {
		const checked = checkToolArguments("subagent_jobs", jobsSchema, { action: "wait", job_id: "j", timeout_ms: 0 });
		expect("error" in checked && checked.error).toMatch(/timeout_ms: /);
	});
});
