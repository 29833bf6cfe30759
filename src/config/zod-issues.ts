/**
 * Turns zod validation issues into field-path messages a user can act on (STYLE.md: errors name the
 * file, the entry and the field, and list every problem found).
 */
import type { z } from "zod";

/**
 * Formats a zod issue path as `a.b[0].c`. Numeric segments become indexes; an empty path is `(root)`.
 */
export function formatFieldPath(path: readonly PropertyKey[]): string {
	let out = "";
	for (const segment of path) {
		if (typeof segment === "number") out += `[${segment}]`;
		else out += out === "" ? String(segment) : `.${String(segment)}`;
	}
	return out === "" ? "(root)" : out;
}

/**
 * One message per problem: `<field path>: <what was expected>`. Unknown keys are reported one message
 * per key, with the key's full path, so a typo names itself.
 */
export function describeZodIssues(issues: readonly z.core.$ZodIssue[]): string[] {
	const messages: string[] = [];
	for (const issue of issues) {
		if (issue.code === "unrecognized_keys") {
			for (const key of issue.keys) {
				messages.push(`${formatFieldPath([...issue.path, key])}: unknown key "${key}"`);
			}
		} else {
			messages.push(`${formatFieldPath(issue.path)}: ${issue.message}`);
		}
	}
	return messages;
}
