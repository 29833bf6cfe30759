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

	it("passes values that are not objects through unchanged, for schema validation to refuse", () => {
		expect(prepareSubagentArguments(null)).toBeNull();
		expect(prepareSubagentArguments("text")).toBe("text");
		expect(prepareSubagentArguments({ tasks: "not a list" }).tasks).toBe("not a list");
	});
});
