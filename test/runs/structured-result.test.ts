/** A run's structured result turn by turn (runs/structured-result.ts): one repair turn, then the verdict. */
import { describe, expect, it } from "vitest";
import { RunState } from "../../src/runs/run-state.ts";
import { settleRun } from "../../src/runs/settle.ts";
import { REPAIR_PREFIX, StructuredResult } from "../../src/runs/structured-result.ts";
import { launchSpec } from "../support/launch-spec.ts";

const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
const viaTool = { inText: false, howToSubmit: "Call the submit_result tool with your result." };

/** Settles a run whose harness reported success, with `structured`'s verdict. */
function settledWith(state: RunState, structured: StructuredResult) {
	state.apply({ type: "done", status: "completed" });
	return settleRun(
		state,
		{ kind: "turn_ended" },
		{ holder: "process group", checkCompleted: (r) => structured.verdict(r) },
	);
}

describe("StructuredResult", () => {
	it("gives exactly one repair turn, naming the errors and how to submit", () => {
		const structured = new StructuredResult(schema, viaTool);
		structured.submitted({ n: "x" });
		expect(structured.turnEnded("")).toBe(false);
		expect(structured.takeRepair()).toBe(
			`${REPAIR_PREFIX} result/n must be integer. Call the submit_result tool with your result. Give a result that satisfies the schema; this is the only retry.`,
		);
		expect(structured.turnEnded("")).toBe(false);
		expect(structured.takeRepair()).toBeUndefined();
	});

	it("keeps the submitted value as JSON for the raw text when a failing child wrote none", () => {
		const state = new RunState(launchSpec({ harness: "pi", cwd: "/w" }), "pi");
		const structured = new StructuredResult(schema, viaTool);
		structured.submitted({ n: 1.5 });
		structured.turnEnded("");
		const result = settledWith(state, structured);
		expect(result).toMatchObject({
			status: "failed",
			error: "output_schema: the result does not satisfy the schema: result/n must be integer",
			finalAnswer: '{"n":1.5}',
		});
		expect(result.structuredOutput).toBeUndefined();
	});

	it("reads the answer text as the result for a harness that answers in text, and sets it as compact JSON", () => {
		const state = new RunState(launchSpec({ harness: "codex", cwd: "/w" }), "codex");
		const structured = new StructuredResult(schema, { inText: true, howToSubmit: "Answer with only the JSON." });
		expect(structured.turnEnded('{ "n": 3 }')).toBe(true);
		expect(settledWith(state, structured)).toMatchObject({
			status: "completed",
			structuredOutput: { n: 3 },
			finalAnswer: '{"n":3}',
		});
	});
});
