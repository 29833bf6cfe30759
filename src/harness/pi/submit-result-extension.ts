/**
 * The pi extension a child with an `output_schema` is started with (`-e <this file>`,
 * docs/structured-output.md): it offers that child one tool, `submit_result`, whose parameters are the
 * schema; the tool call's arguments are the child's structured result, and the call ends the child's run.
 * Pi loads this file itself (jiti); nothing in the package imports it. The schema file's path comes in
 * PI_NATIVE_SUBAGENTS_OUTPUT_SCHEMA, removed from the environment once read, so the child's own tools and
 * children never see it.
 */
import { readFileSync } from "node:fs";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

/** The variable naming the schema file (kept in step with `OUTPUT_SCHEMA_ENV` in `command.ts`). */
const SCHEMA_ENV = "PI_NATIVE_SUBAGENTS_OUTPUT_SCHEMA";
/** The wrapper property of a schema whose root is not an object (tool parameters must be an object). */
const WRAPPED = "result";

export default function submitResult(pi: ExtensionAPI): void {
	const file = process.env[SCHEMA_ENV];
	delete process.env[SCHEMA_ENV];
	if (!file) return;
	const { $schema: _draft, ...schema } = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
	const wrapped = schema.type !== "object";
	const parameters = wrapped
		? { type: "object", properties: { [WRAPPED]: schema }, required: [WRAPPED], additionalProperties: false }
		: schema;
	pi.registerTool({
		name: "submit_result",
		label: "Submit result",
		description: wrapped
			? `Submit your final result as "${WRAPPED}"; it must match the required schema. Call it once, when your work is done.`
			: "Submit your final result: the arguments are the result and must match the required schema. Call it once, when your work is done.",
		promptSnippet: "submit_result: submit your final result (required shape)",
		promptGuidelines: ["When your work is done, call submit_result with your result; do not answer it as text."],
		// A plain JSON Schema object: pi validates tool arguments as JSON Schema whatever built it.
		parameters: parameters as never,
		async execute(_id, params) {
			const value = wrapped ? (params as Record<string, unknown>)[WRAPPED] : params;
			// `terminate`: the run ends after this call, without another model request.
			return { content: [{ type: "text", text: "Result received." }], details: { value }, terminate: true };
		},
	});
}
