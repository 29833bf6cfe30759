/**
 * "Did you mean" suggestions for unknown names (issue 20 item 4): agents, roster entries, frontmatter keys.
 * Uses `fastest-levenshtein` (edit distance).
 */
import { distance } from "fastest-levenshtein";

/**
 * The known name closest to `given` by edit distance (case-insensitive), when it is close enough to be a
 * likely typo: at most 2 edits, or a third of the longer name's length, whichever is larger. `undefined`
 * when none is.
 */
export function nearestName(given: string, known: Iterable<string>): string | undefined {
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
