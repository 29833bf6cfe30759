/** Reading one JSON config file, with a problem a user can act on when it cannot be read or parsed. */
import { readFileSync } from "node:fs";
import type { Problems } from "../core/problems.ts";

/**
 * Reads and parses `file`; never throws.
 * @returns the parsed value, or `undefined` with the reason added to `problems` ("file does not exist",
 *   "is a directory, not a JSON file", "cannot read file (<code>)", "malformed JSON: …").
 */
export function readJson(file: string, problems: Problems): { value: unknown } | undefined {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") problems.add("file does not exist");
		else if (code === "EISDIR") problems.add("is a directory, not a JSON file");
		else problems.add(`cannot read file (${code})`);
		return undefined;
	}
	try {
		return { value: JSON.parse(text) };
	} catch (error) {
		problems.add(`malformed JSON: ${(error as Error).message}`);
		return undefined;
	}
}
