/**
 * "Did you mean" suggestions for unknown names (issue 20 item 4): agents, roster entries, frontmatter keys,
 * tool argument fields. Uses `fastest-levenshtein` (edit distance), required on first use: the `subagent`
 * tool's argument check imports this module when the extension loads, which must load no library
 * (docs/design-notes.md §Start-up cost).
 */
import { createRequire } from "node:module";

type Distance = (a: string, b: string) => number;
let loaded: Distance | null | undefined;

/** fastest-levenshtein's `distance`, or `null` when the package is not installed (reported at session start). */
function editDistance(): Distance | null {
	if (loaded === undefined) {
		try {
			loaded = (createRequire(import.meta.url)("fastest-levenshtein") as { distance: Distance }).distance;
		} catch {
			loaded = null;
		}
	}
	return loaded;
}

/**
 * The known name closest to `given` by edit distance (case-insensitive), when it is close enough to be a
 * likely typo: at most 2 edits, or a third of the longer name's length, whichever is larger. `undefined`
 * when none is.
 */
export function nearestName(given: string, known: Iterable<string>): string | undefined {
	const distance = editDistance();
	if (distance === null) return undefined;
	let best: string | undefined;
	let bestDistance = Number.POSITIVE_INFINITY;
	const lower = given.toLowerCase();
	for (const name of known) {
		const d = distance(lower, name.toLowerCase());
		if (d < bestDistance) {
			best = name;
			bestDistance = d;
		}
	}
	if (best === undefined) return undefined;
	const limit = Math.max(2, Math.floor(Math.max(given.length, best.length) / 3));
	return bestDistance <= limit && best !== given ? best : undefined;
}

/** ` (did you mean "scout"?)`, or "" when nothing is close. */
export function didYouMean(given: string, known: Iterable<string>): string {
	const near = nearestName(given, known);
	return near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`;
}
