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
