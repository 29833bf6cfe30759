/** The summary table `npm run bench` prints last. */

/** `value` with `digits` decimals (default 1). */
export const fixed = (value: number, digits = 1) => value.toFixed(digits);

/** One benchmark's summary: value and baseline carry their unit (ms, MB, MB/s); ratio = value ÷ baseline. */
export interface TableRow {
	name: string;
	value: string;
	baseline: string;
	ratio: number;
	/** One line: what the ratio compares and which way is good. */
	meaning: string;
}

/** Prints `rows` as aligned columns with a header; the ratio gets two decimals. */
export function printTable(rows: readonly TableRow[]): void {
	const header = ["name", "value", "baseline", "ratio", "meaning"];
	const cells = rows.map((row) => [row.name, row.value, row.baseline, row.ratio.toFixed(2), row.meaning]);
	const widths = header.map((title, column) =>
		Math.max(title.length, ...cells.map((line) => (line[column] ?? "").length)),
	);
	const format = (line: string[]) =>
		line
			.map((cell, column) => {
				const width = widths[column] ?? 0;
				// Numbers align right, text left; the last column is not padded.
				if (column === line.length - 1) return cell;
				return column >= 1 && column <= 3 ? cell.padStart(width) : cell.padEnd(width);
			})
			.join("  ");
	console.log(format(header));
	console.log(format(widths.map((width) => "-".repeat(width))));
	for (const line of cells) console.log(format(line));
}
