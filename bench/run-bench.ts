/**
 * `npm run bench`: runs every benchmark of bench/benches.ts in order, prints its detail lines, then a table
 * of name, value, baseline, ratio and meaning. Every ratio is against a baseline measured in the same run,
 * and a row is refused (the command fails) when its baseline did not do the same work as its measured run
 * (bench/work.ts); the figures themselves pass or fail nothing. Takes a few minutes on 2 cores.
 * `npm run bench -- --smoke` runs one iteration of everything at tiny sizes, as the smoke test does.
 */
import type { BenchRow, BenchSize } from "./bench.ts";
import { BENCHES } from "./benches.ts";
import { printTable } from "./table.ts";
import { assertSameWork } from "./work.ts";

const size: BenchSize = process.argv.includes("--smoke") ? "smoke" : "full";
const rows: BenchRow[] = [];
for (const entry of BENCHES) {
	const report = await (await entry.load()).run(size);
	for (const row of report.rows) {
		if (Array.isArray(row.work)) assertSameWork(`${entry.name}: ${row.name}`, row.work);
	}
	console.log(report.detail);
	rows.push(...report.rows);
}
console.log("");
printTable(rows);
