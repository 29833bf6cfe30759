/** Argument preparation (tools/subagent-arguments.ts): the `prompt` alias folds into `task` at every level. */
import { describe, expect, it } from "vitest";
import { prepareSubagentArguments } from "../../src/tools/subagent-arguments.ts";

describe("prepareSubagentArguments", () => {
	it("folds a top-level prompt into task", () => {
		expect(prepareSubagentArguments({ agent: "a", prompt: "do it" })).toMatchObject({ agent: "a", task: "do it" });
		expect(prepareSubagentArguments({ agent: "a", prompt: "do it" })).not.toHaveProperty("prompt");
	});

	it("folds prompt inside tasks and chain items, leaving other items as they are", () => {
		const prepared = prepareSubagentArguments({
			tasks: [
				{ agent: "a", prompt: "one" },
				{ agent: "b", task: "two" },
			],
			chain: [{ agent: "c", prompt: "three" }],
		});
		expect(prepared.tasks).toEqual([
			{ agent: "a", task: "one" },
			{ agent: "b", task: "two" },
		]);
		expect(prepared.chain).toEqual([{ agent: "c", task: "three" }]);
	});

	it("drops a prompt equal to the task", () => {
		expect(prepareSubagentArguments({ agent: "a", task: "same", prompt: "same" })).toEqual(
			expect.not.objectContaining({ prompt: expect.anything() }),
		);
	});

	it("keeps a prompt that conflicts with the task, so mode selection reports it", () => {
		expect(prepareSubagentArguments({ agent: "a", task: "one", prompt: "other" })).toMatchObject({
			task: "one",
			prompt: "other",
		});
	});

	it('refuses 0, false, "" and fractions where a field takes null, which Pi\'s check would read as null or round', () => {
		const refusal = (args: unknown) => {
			try {
				prepareSubagentArguments(args);
				return "accepted";
			} catch (error) {
				return (error as Error).message;
			}
		};
		const child = { agent_type: "pi", task: "x", interactive: true };
		expect(refusal({ ...child, inactivity_timeout_ms: 0 })).toBe(
			'Validation failed for tool "subagent":\n  - inactivity_timeout_ms: expected an integer ≥ 1 or null, got 0',
		);
		expect(refusal({ ...child, inactivity_timeout_ms: 1.5 })).toContain(
			"inactivity_timeout_ms: expected an integer ≥ 1 or null, got 1.5",
		);
		expect(refusal({ ...child, roster_file: "" })).toContain(
			'roster_file: expected a non-empty string or null, got ""',
		);
		expect(refusal({ tasks: [child, { ...child, resources: { mcp_servers: false } }] })).toContain(
			"tasks.1.resources.mcp_servers: expected a list or null, got false",
		);
		expect(refusal({ chain: [{ ...child, resources: 0 }] })).toContain(
			"chain.0.resources: expected an object or null, got 0",
		);
		// Pi reads "0" as null and "1.5" or true as 1; a list given as one object is its item 0.
		for (const value of ["0", "1.5", true, -3]) {
			expect(refusal({ ...child, inactivity_timeout_ms: value })).toContain(
				`inactivity_timeout_ms: expected an integer ≥ 1 or null, got ${JSON.stringify(value)}`,
			);
		}
		expect(refusal({ tasks: { ...child, inactivity_timeout_ms: 0 } })).toContain("tasks.0.inactivity_timeout_ms");
		expect(refusal({ chain: { ...child, inactivity_timeout_ms: 0 } })).toContain("chain.0.inactivity_timeout_ms");
		expect(refusal({ ...child, inactivity_timeout_ms: "5" })).toBe("accepted");
		// null keeps its meaning: never, inherit, no roster.
		expect(
			refusal({ ...child, inactivity_timeout_ms: null, roster_file: null, resources: { mcp_servers: null } }),
		).toBe("accepted");
		expect(refusal({ ...child, inactivity_timeout_ms: 5 })).toBe("accepted");
	});

	it("takes tasks or chain given as one object as the list of it, as Pi's check does, so every check sees item 0", () => {
		expect(prepareSubagentArguments({ tasks: { agent_type: "pi", prompt: "x" } }).tasks).toEqual([
			{ agent_type: "pi", task: "x" },
		]);
		expect(() => prepareSubagentArguments({ chain: { agent_type: "pi", task: "x", alowed_tools: [] } })).toThrow(
			'chain.0.alowed_tools: unknown field (did you mean "allowed_tools"?)',
		);
		expect(() =>
			prepareSubagentArguments({ tasks: { agent_type: "pi", task: "x", inactivity_timeout_ms: 0 } }),
		).toThrow("tasks.0.inactivity_timeout_ms: expected an integer ≥ 1 or null, got 0");
	});

	it("lists an unknown field together with every problem the complete schema finds in the other fields", () => {
		const args = {
			tasks: [
				{ agent_type: "pi", task: "x", alowed_tools: [] },
				{ agent_type: "bogus", task: "y", resources: { skils: [] } },
				{ agent_type: "pi", task: "z" },
			],
			background: "sometimes",
		};
		let message = "";
		try {
			prepareSubagentArguments(JSON.parse(JSON.stringify(args)));
		} catch (error) {
			message = (error as Error).message;
		}
		const lines = message.split("\n");
		expect(lines[0]).toBe('Validation failed for tool "subagent":');
		expect(lines.slice(1, 3)).toEqual([
			'  - tasks.0.alowed_tools: unknown field (did you mean "allowed_tools"?)',
			'  - tasks.1.resources.skils: unknown field (did you mean "skills"?)',
		]);
		const rest = lines.slice(3).join("\n");
		expect(rest).toMatch(/^ {2}- background: /m);
		expect(rest).toMatch(/^ {2}- tasks\.1\.agent_type: /m);
		// Each field once: the refused ones are not checked again, and the rest is checked as given.
		expect(message.match(/alowed_tools/g)).toHaveLength(1);
		expect(rest).not.toContain("tasks.2");
	});

	it("passes values that are not objects through unchanged, for schema validation to refuse", () => {
		expect(prepareSubagentArguments(null)).toBeNull();
		expect(prepareSubagentArguments("text")).toBe("text");
		expect(prepareSubagentArguments({ tasks: "not a list" }).tasks).toBe("not a list");
	});
});
