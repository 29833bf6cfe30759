/**
 * Snapshots of parsed settings: a digest that is equal whenever the parsed settings are, whatever the
 * file's formatting (docs/rules.md §Paths and child environments: changed or deleted definitions fail
 * instead of silently launching stale settings).
 */
import { createHash } from "node:crypto";

/** sha256 (hex) of `canonicalJson(value)`: equal parsed settings give equal digests whatever the formatting. */
export function settingsDigest(value: unknown): string {
	return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

/** JSON with object keys sorted at every level and `undefined` members dropped. */
export function canonicalJson(value: unknown): string {
	if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
	const keys = Object.keys(value)
		.filter((key) => (value as Record<string, unknown>)[key] !== undefined)
		.sort();
	return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(",")}}`;
}
