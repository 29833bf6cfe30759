/**
 * The one duplicate-name check of every roster (docs/rules.md §Rosters): an inline roster file's entries, the
 * settings file's personal roster and a normalized roster's child definitions. It runs over every entry that has a
 * readable name, whether or not the rest of the entry passed its checks, so a file with problems lists them all in
 * one answer (docs/rules.md §Configuration files).
 */
import type { Problems } from "../core/problems.ts";

/** An entry's `name` when it is a readable one (a non-empty string, as a roster entry's label shows it), else `undefined`. */
export function readableName(entry: unknown): string | undefined {
	const name = entry !== null && typeof entry === "object" ? (entry as { name?: unknown }).name : undefined;
	return typeof name === "string" && name.trim() !== "" ? name : undefined;
}

/**
 * Adds `roster.roles[i] "x": name: duplicate name "x" (already used by roster.roles[j])` to `problems` for each entry
 * whose name an earlier entry has. `entries[i]` is the entry of `roster.roles[i]` (raw or parsed: only its `name` is
 * read); one with no readable name is never a duplicate nor an earlier use.
 */
export function checkUniqueNames(entries: readonly unknown[], problems: Problems): void {
	const firstIndex = new Map<string, number>();
	entries.forEach((entry, index) => {
		const name = readableName(entry);
		if (name === undefined) return;
		const earlier = firstIndex.get(name);
		if (earlier === undefined) firstIndex.set(name, index);
		else
			problems
				.at(`roster.roles[${index}] "${name}"`)
				.add(`name: duplicate name "${name}" (already used by roster.roles[${earlier}])`);
	});
}
