/** Small statistics shared by the benchmarks. */

/**
 * Median of `values` (the mean of the two middle values for an even count), in the values' own unit.
 * @throws Error when `values` is empty.
 */
export function median(values: readonly number[]): number {
	if (values.length === 0) throw new Error("median of no values");
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1
		? (sorted[middle] as number)
		: ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Runs `runs` pairs of `measured` and `baseline` one after the other, alternating which goes first, so drift on
 * the machine (or a slow second run of a pair) does not always hit the same kind.
 * @returns the pairs in order; rejects with the first failed run's error.
 */
export async function alternatingPairs<T>(
	runs: number,
	measured: () => Promise<T>,
	baseline: () => Promise<T>,
): Promise<Array<{ measured: T; baseline: T }>> {
	const pairs: Array<{ measured: T; baseline: T }> = [];
	for (let i = 0; i < runs; i++) {
		if (i % 2 === 0) {
			const first = await measured();
			pairs.push({ measured: first, baseline: await baseline() });
		} else {
			const first = await baseline();
			pairs.push({ measured: await measured(), baseline: first });
		}
	}
	return pairs;
}
