/**
 * `npm run bench`: runs every benchmark of bench/benches.ts in order, prints its detail lines, then a table
 * of name, value, baseline, ratio and meaning. Every ratio is against a baseline measured in the same run,
 * and a row is refused (the command fails) when its baseline did not do the same work as its measured run
 * (bench/work.ts); the figures themselves pass or fail nothing. Takes a few minutes on 2 cores.
 * `npm run bench -- --smoke` runs one iteration of everything at tiny sizes, as the smoke test does;
 * `npm run bench -- --only "<name>"` runs only the benchmark of that name (bench/benches.ts), e.g. `"delegation cost"`.
 */
import type { BenchRow, BenchSize } from "./bench.ts";
import { BENCHES } from "./benches.ts";
import { printTable } from "./table.ts";
import { assertSameWork } from "./work.ts";

const size: BenchSize = process.argv.includes("--smoke") ? "smoke" : "full";
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
const selected = BENCHES.filter((entry) => only === undefined || entry.name === only);
if (selected.length === 0) {
	throw new Error(`no benchmark named ${JSON.stringify(only)}; names: ${BENCHES.map((e) => e.name).join(", ")}`);
}
const rows: BenchRow[] = [];
for (const entry of selected) {
	const report = await (await entry.load()).run(size);
	for (const row of report.rows) {
		if (Array.isArray(row.work)) assertSameWork(`${entry.name}: ${row.name}`, row.work);
	}
	console.log(report.detail);
	rows.push(...report.rows);
}
console.log("");
printTable(rows);
