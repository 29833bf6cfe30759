/**
 * Mode selection (tools/select-mode.ts) without a Pi session: exactly one mode per call, exactly one kind
 * per child, and every problem of a call listed together with the child it belongs to.
 */
import { describe, expect, it } from "vitest";
import { LaunchError } from "../../src/core/launch-error.ts";
import { type SelectedCall, selectMode } from "../../src/tools/select-mode.ts";
import type { SubagentArgs } from "../../src/tools/subagent-schema.ts";
import { collect } from "../support/problems.ts";

const LIMITS = { maxParallelTasks: 3, maxChainSteps: 2 };

/** The selected call; fails the test when selectMode reports a problem. */
function select(args: SubagentArgs): SelectedCall {
	const { value, problems } = collect((found) => selectMode(args, LIMITS, found));
	expect(problems).toEqual([]);
	return value as SelectedCall;
}

/** The refusal the tool would show for `args` (every problem, as one message); fails the test when they are accepted. */
function refusal(args: SubagentArgs): string {
	const { value, problems } = collect((found) => selectMode(args, LIMITS, found));
	expect(value === undefined || value.refused).toBe(true);
	return new LaunchError(problems).message;
}

describe("selectMode", () => {
	it("refuses caller strings over their bound at the tool boundary, naming each field, without quoting them", () => {
		const message = refusal({
			tasks: [
				{ agent_type: "pi", task: "a", task_name: "n".repeat(200_000) },
				{
					agent_type: "pi",
					task: "b",
					model: "m".repeat(100_000),
					allowed_tools: ["read", "t".repeat(5_000)],
					resources: { skills: ["s".repeat(10_000)] },
				},
			],
		});
		expect(message.split("\n")).toEqual([
			"4 problems:",
			"- task 1: task_name: 200000 characters, more than the limit of 200",
			"- task 2: model: 100000 characters, more than the limit of 200",
			"- task 2: allowed_tools[1]: 5000 characters, more than the limit of 1000",
			"- task 2: resources.skills[0]: 10000 characters, more than the limit of 4096",
		]);
	});

	it("selects single mode with an empty label and maps snake_case fields to the child call", () => {
		const selected = select({
			agent: "scout",
			task: "look",
			task_name: "look-1",
			allowed_tools: ["read", "Bash(git *)"],
			auto_approve: true,
		});
		expect(selected.mode).toBe("single");
		expect(selected.labels).toEqual([""]);
		expect(selected.calls).toEqual([
			expect.objectContaining({
				agent: "scout",
				task: "look",
				taskName: "look-1",
				allowedTools: ["read", "Bash(git *)"],
				autoApprove: true,
			}),
		]);
	});

	it("labels parallel children `task N` and chain children `step N`", () => {
		const tasks = select({
			tasks: [
				{ agent: "a", task: "one" },
				{ agent_type: "pi", task: "two" },
			],
		});
		expect(tasks.mode).toBe("parallel");
		expect(tasks.labels).toEqual(["task 1", "task 2"]);
		expect(tasks.calls).toMatchObject([
			{ kind: "agent", agent: "a" },
			{ kind: "ad_hoc", agentType: "pi" },
		]);
		const chain = select({
			chain: [
				{ agent: "a", task: "one" },
				{ agent: "b", task: "use {previous}" },
			],
		});
		expect(chain.mode).toBe("chain");
		expect(chain.labels).toEqual(["step 1", "step 2"]);
	});

	it("refuses a call with no mode, naming the fields that were given", () => {
		expect(refusal({ background: true })).toMatch(/give exactly one mode.*none was given \(fields given: background\)/);
	});

	it("refuses a call with two modes, naming both", () => {
		expect(refusal({ agent: "a", task: "t", tasks: [{ agent: "b", task: "u" }] })).toContain(
			"got single (agent, task) and tasks",
		);
	});

	it("refuses a child with two kinds or none, but lets roster_entry repeat agent_type and agent name a harness", () => {
		expect(refusal({ tasks: [{ agent: "a", roster_entry: "r", task: "t" }] })).toContain(
			"task 1: give exactly one of agent, roster_entry or agent_type",
		);
		const onHarness = select({ agent: "a", agent_type: "codex", task: "t" });
		expect(onHarness.calls[0]).toMatchObject({ agent: "a", agentType: "codex" });
		expect(refusal({ tasks: [{ task: "t" }] })).toContain(
			"task 1: give exactly one of agent, roster_entry or agent_type (or resume_session_id alone); none was given",
		);
		const repeated = select({ roster_entry: "reviewer", agent_type: "codex", task: "t" });
		expect(repeated.calls[0]).toMatchObject({ rosterEntry: "reviewer", agentType: "codex" });
	});

	it("lists every problem of every child in one error", () => {
		const message = refusal({
			tasks: [
				{ agent: "a", task: "  " },
				{ agent: "b", task: "t", model: " ", disallowed_tools: ["read, write"] },
				{ agent: "c", task: "t", resume_session_id: "--last" },
			],
		});
		expect(message).toContain("4 problems:");
		expect(message).toContain("task 1: task is empty");
		expect(message).toContain("task 2: model is empty; omit it instead");
		expect(message).toContain('task 2: disallowed_tools: "read, write" is not a tool name');
		expect(message).toContain('task 3: resume_session_id "--last" is not a native session id');
	});

	it("refuses more tasks or steps than the limits allow, and empty lists", () => {
		const four = [1, 2, 3, 4].map((n) => ({ agent: "a", task: `t${n}` }));
		expect(refusal({ tasks: four })).toContain(
			"tasks: 4 tasks given, at most 3 are allowed per call (setting limits.max_parallel_tasks)",
		);
		expect(refusal({ chain: four.slice(0, 3) })).toContain("chain: 3 steps given, at most 2 are allowed");
		expect(refusal({ tasks: [] })).toContain("tasks: give at least one task");
		expect(refusal({ chain: [] })).toContain("chain: give at least one step");
	});

	it("refuses child fields at the top level of a parallel call", () => {
		expect(refusal({ tasks: [{ agent: "a", task: "t" }], model: "m" } as SubagentArgs)).toContain(
			"model: in parallel mode these go inside each item, not at the top level",
		);
	});

	it("refuses {previous} in the first chain step, which has no previous step", () => {
		expect(refusal({ chain: [{ agent: "a", task: "improve {previous}" }] })).toContain(
			"step 1: task uses {previous}, but there is no previous step",
		);
	});

	it("refuses a prompt left beside a different task", () => {
		expect(refusal({ agent: "a", task: "t", prompt: "p" } as SubagentArgs)).toContain("give task or prompt, not both");
	});

	it("accepts a resume without a kind", () => {
		const selected = select({ resume_session_id: "0198-abc.def_1", task: "go on" });
		expect(selected.calls[0]).toMatchObject({ resumeSessionId: "0198-abc.def_1", task: "go on" });
	});
});
