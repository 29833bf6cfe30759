/** Value schemas and helpers shared by the agent file parsers (`agent-markdown.ts`, `agent-claude.ts`, `agent-codex.ts`). */
import { createHash } from "node:crypto";
import type { z } from "zod";
import { lazySchema } from "../core/zod.ts";

/** Optional fields accept YAML null (`model:` with nothing after it) as "not set". */
export const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/** `"read, bash"` or `[read, bash]` → `["read", "bash"]` (blank items dropped). */
export const listSchema = lazySchema((z) =>
	z
		.union([z.string(), z.array(z.string({ error: "expected a string" }))], {
			error: "expected a comma-separated string or a list of strings",
		})
		.transform(listItems),
);

/** The items of a list value (`"read, bash"` or `[read, bash]`): trimmed, blank ones dropped. Pure. */
export function listItems(value: string | readonly string[]): string[] {
	return (typeof value === "string" ? value.split(",") : [...value])
		.map((item) => item.trim())
		.filter((item) => item !== "");
}

/** sha256 (hex) of an agent file's text. */
export function contentDigest(content: string): string {
	return createHash("sha256").update(content).digest("hex");
}
