/**
 * docs/graphs.md §A graph: every object is strict, and §Validation names an unknown key with the nearest key its
 * object knows. A `when` whose test is misspelt (`equal` for `equals`) names the unknown key and the nearest one,
 * together with the missing test, instead of only "give exactly one of …; got none".
 */
/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: graph templates */
import { describe, expect, it } from "vitest";
import { parseCondition } from "../../src/graph/conditions.ts";
import { problemsFound } from "../support/problems.ts";

const NO_TEST = "give exactly one of equals, not_equals, in, exists, all, any, not; got none";

describe("a when condition with a misspelt key", () => {
	it("names the unknown test key with the nearest known one, and the missing test", () => {
		const problems = problemsFound((p) => parseCondition({ ref: "${nodes.a.output.verdict}", equal: 0 }, p));
		expect(problems).toEqual(['unknown key "equal" (did you mean "equals"?)', NO_TEST]);
	});
	it("names a misspelt ref beside a test, with the nearest key the test allows", () => {
		const problems = problemsFound((p) => parseCondition({ reff: "${inputs.x}", exists: true }, p));
		expect(problems).toContainEqual('unknown key "reff" (did you mean "ref"?)');
	});
	it("names a misspelt combinator inside a list with its place", () => {
		const problems = problemsFound((p) => parseCondition({ all: [{ nott: { ref: "${inputs.x}", exists: true } }] }, p));
		expect(problems).toEqual([`all: [0]: unknown key "nott" (did you mean "not"?)`, `all: [0]: ${NO_TEST}`]);
	});
});
