/**
 * Structured results (docs/structured-output.md): the one module that checks an `output_schema` and
 * validates a child's result against it, with ajv (a well-kept JSON Schema validator, never a home-made
 * one). Used before a call starts (launch, graphs) and after a child answered (the run layer).
 */
import { createRequire } from "node:module";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { Problems } from "../core/problems.ts";

const require = createRequire(import.meta.url);

/**
 * ajv's two classes, loaded (synchronously: ajv is CommonJS) on the first schema: a call without an
 * `output_schema` does not pay ajv's memory (about 10 MB of RSS, bench/delegation-cost.ts).
 */
function ajvClasses(): { Ajv: typeof Ajv; Ajv2020: typeof Ajv2020 } {
	return { Ajv: require("ajv").Ajv, Ajv2020: require("ajv/dist/2020.js").Ajv2020 };
}

/** Largest accepted `output_schema`, bytes of its JSON text (issue 23 §1: 64 KiB). */
export const MAX_OUTPUT_SCHEMA_BYTES = 65_536;

/** The result of validating one value: the value itself when it satisfies the schema, else ajv's errors. */
export type StructuredOutputCheck = { ok: true; value: unknown } | { ok: false; errors: string };

/**
 * ajv in strict mode, so a misspelt keyword (`propertes`) is an error rather than a schema that accepts
 * anything; `format` is not validated (no format package is installed), which strict mode then allows.
 * Draft 2020-12 when the schema's `$schema` names it, draft-07 otherwise (ajv's default).
 */
function compile(schema: Record<string, unknown>): ValidateFunction {
	const options = { allErrors: true, strict: true, validateFormats: false };
	const draft2020 = typeof schema.$schema === "string" && schema.$schema.includes("2020-12");
	const classes = ajvClasses();
	const ajv = draft2020 ? new classes.Ajv2020(options) : new classes.Ajv(options);
	return ajv.compile(schema);
}

/**
 * Checks that `schema` can be used as an `output_schema`: a JSON object of at most
 * MAX_OUTPUT_SCHEMA_BYTES bytes of JSON that ajv compiles. Adds each problem to `problems` as
 * `output_schema: …` (the caller labels the child or node).
 * @returns whether the schema is usable.
 */
export function checkOutputSchema(schema: unknown, problems: Problems): schema is Record<string, unknown> {
	return checkJsonSchema(schema, problems.at("output_schema"));
}

/**
 * The same check for a schema in any field (a graph's `inputs`): each problem is added to `field` as is,
 * so the caller's label names the field.
 */
export function checkJsonSchema(schema: unknown, field: Problems): schema is Record<string, unknown> {
	if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
		field.add("must be a JSON Schema object");
		return false;
	}
	const bytes = Buffer.byteLength(JSON.stringify(schema), "utf8");
	if (bytes > MAX_OUTPUT_SCHEMA_BYTES) {
		field.add(`is ${bytes} bytes of JSON; at most ${MAX_OUTPUT_SCHEMA_BYTES} are accepted`);
		return false;
	}
	try {
		compile(schema as Record<string, unknown>);
		return true;
	} catch (error) {
		field.add(`not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
		return false;
	}
}

/** ajv's errors as one line each: `<instance path or "result"> <message>`. */
function describeErrors(errors: readonly ErrorObject[]): string {
	return errors
		.map((error) => {
			const where = error.instancePath === "" ? "result" : `result${error.instancePath}`;
			const extra =
				error.keyword === "additionalProperties"
					? ` (${String((error.params as { additionalProperty?: unknown }).additionalProperty)})`
					: "";
			return `${where} ${error.message ?? error.keyword}${extra}`;
		})
		.join("; ");
}

/**
 * Validates `value` against `schema` (a schema that passed checkOutputSchema).
 * @returns `{ ok: true, value }`, or `{ ok: false, errors }` with ajv's errors as one text
 *   (`result/items/0 must be string; result must have required property 'x'`).
 * @throws ajv's error when `schema` does not compile (it was not checked first).
 */
export function validateStructuredOutput(schema: Record<string, unknown>, value: unknown): StructuredOutputCheck {
	const validate = compile(schema);
	if (validate(value)) return { ok: true, value };
	return { ok: false, errors: describeErrors(validate.errors ?? []) };
}

/**
 * Validates a child's answer text as JSON of `schema` (codex and claude children answer with the JSON as
 * text). A text that is not JSON fails with the parse error.
 */
export function validateStructuredText(schema: Record<string, unknown>, text: string): StructuredOutputCheck {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		const reason = text.trim() === "" ? "no result was given" : `the result is not JSON (${(error as Error).message})`;
		return { ok: false, errors: reason };
	}
	return validateStructuredOutput(schema, value);
}
