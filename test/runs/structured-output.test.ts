/** The output_schema checks and result validation (runs/structured-output.ts), with ajv. */
import { describe, expect, it } from "vitest";
import { Problems } from "../../src/core/problems.ts";
import {
	checkOutputSchema,
	MAX_OUTPUT_SCHEMA_BYTES,
	validateStructuredOutput,
	validateStructuredText,
} from "../../src/runs/structured-output.ts";

const schema = {
	type: "object",
	properties: { verdict: { type: "string", enum: ["pass", "fail"] }, count: { type: "integer" } },
	required: ["verdict", "count"],
	additionalProperties: false,
};

describe("checkOutputSchema", () => {
	it("accepts a schema ajv compiles, draft-07 and draft 2020-12", () => {
		const problems = new Problems();
		expect(checkOutputSchema(schema, problems)).toBe(true);
		const draft2020 = { $schema: "https://json-schema.org/draft/2020-12/schema", ...schema };
		expect(checkOutputSchema(draft2020, problems)).toBe(true);
		expect(problems.list).toEqual([]);
	});

	it("refuses a schema ajv rejects, naming the field (a misspelt keyword included)", () => {
		const problems = new Problems("task 2");
		expect(checkOutputSchema({ type: "object", propertes: {} }, problems)).toBe(false);
		expect(checkOutputSchema({ type: "nothing" }, problems)).toBe(false);
		expect(checkOutputSchema(["not", "an", "object"], problems)).toBe(false);
		expect(problems.list).toEqual([
			'task 2: output_schema: not a valid JSON Schema: strict mode: unknown keyword: "propertes"',
			expect.stringMatching(/^task 2: output_schema: not a valid JSON Schema: .*type/),
			"task 2: output_schema: must be a JSON Schema object",
		]);
	});

	it("refuses a schema over 64 KiB of JSON and accepts one at the limit", () => {
		const sized = (bytes: number) => {
			const base = JSON.stringify({ type: "object", description: "" }).length;
			return { type: "object", description: "x".repeat(bytes - base) };
		};
		expect(Buffer.byteLength(JSON.stringify(sized(MAX_OUTPUT_SCHEMA_BYTES)))).toBe(65_536);
		const problems = new Problems();
		expect(checkOutputSchema(sized(MAX_OUTPUT_SCHEMA_BYTES), problems)).toBe(true);
		expect(checkOutputSchema(sized(MAX_OUTPUT_SCHEMA_BYTES + 1), problems)).toBe(false);
		expect(problems.list).toEqual(["output_schema: is 65537 bytes of JSON; at most 65536 are accepted"]);
	});
});

describe("validateStructuredOutput", () => {
	it("returns the value when it satisfies the schema", () => {
		expect(validateStructuredOutput(schema, { verdict: "pass", count: 2 })).toEqual({
			ok: true,
			value: { verdict: "pass", count: 2 },
		});
	});

	it("returns every ajv error in one text when it does not", () => {
		expect(validateStructuredOutput(schema, { verdict: "maybe", extra: 1 })).toEqual({
			ok: false,
			errors:
				"result must have required property 'count'; result must NOT have additional properties (extra); " +
				"result/verdict must be equal to one of the allowed values",
		});
	});

	it("reads an answer text as JSON, and names a missing or non-JSON result", () => {
		expect(validateStructuredText(schema, '{"verdict":"fail","count":0}')).toEqual({
			ok: true,
			value: { verdict: "fail", count: 0 },
		});
		expect(validateStructuredText(schema, "  ")).toEqual({ ok: false, errors: "no result was given" });
		const prose = validateStructuredText(schema, "All good!");
		expect(prose.ok === false && prose.errors).toMatch(/^the result is not JSON \(/);
	});
});
