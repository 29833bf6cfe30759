/**
 * Checks a tool call's arguments against the tool's complete schema, the way Pi checks them against the schema
 * the model sees (pi-ai's `validateToolArguments`: the same coercions — `"42"` for a number, one value for a
 * list, `null` for an omitted optional field — and the same messages, e.g. `tasks.0.foo: unknown field`). The
 * model sees shorter schemas (model-parameters.ts), so the complete ones are checked here (docs/tools.md §Tool
 * definitions).
 */
import { validateToolArguments } from "@earendil-works/pi-ai";
import type { Static, TSchema } from "typebox";

/**
 * @returns the checked (coerced) arguments, or `error`: every problem found, one line each, naming the field's
 *   path and the arguments received (pi-ai's message, `Validation failed for tool "<name>": …`).
 */
export function checkToolArguments<T extends TSchema>(
	name: string,
	schema: T,
	args: unknown,
): { value: Static<T> } | { error: string } {
	const parameters = schema as object;
	const call = { type: "toolCall" as const, id: name, name, arguments: (args ?? {}) as Record<string, never> };
	try {
		return { value: validateToolArguments({ name, description: "", parameters }, call) };
	} catch (error) {
		return { error: error instanceof Error ? error.message : String(error) };
	}
}

/**
 * The problems {@link checkToolArguments} finds, alone: one `path: message` line each (`tasks.0.task: must be
 * string`), in pi-ai's order; `[]` when the arguments pass.
 */
export function argumentProblems(name: string, schema: TSchema, args: unknown): string[] {
	const checked = checkToolArguments(name, schema, args);
	if (!("error" in checked)) return [];
	const [listed] = checked.error.split("\n\nReceived arguments:");
	return listed
		.split("\n")
		.filter((line) => line.startsWith("  - "))
		.map((line) => line.slice(4));
}
