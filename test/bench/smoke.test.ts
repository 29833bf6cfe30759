/**
 * One iteration of every benchmark of `npm run bench` at tiny sizes (bench/benches.ts, size "smoke"): each
 * row it declares is produced, with a value, a baseline and a finite ratio, and each baseline did the same
 * work as its measured run (bench/work.ts). The figures are not checked: on a shared machine they mean
 * nothing at this size.
 */
import { describe, expect, it } from "vitest";
import { BENCHES } from "../../bench/benches.ts";
import { workDifferences } from "../../bench/work.ts";

describe("npm run bench, one iteration of each benchmark", () => {
	for (const entry of BENCHES) {
		it(`${entry.name}: produces every row, each baseline doing the same work as its measured run`, async () => {
			const bench = await entry.load();
			const report = await bench.run("smoke");
			expect(report.detail).not.toBe("");
			expect(report.rows.map((row) => row.name)).toEqual(bench.rows);
			for (const row of report.rows) {
				expect(row.value, row.name).toMatch(/\d/);
				expect(row.baseline, row.name).toMatch(/\d/);
				expect(Number.isFinite(row.ratio) && row.ratio > 0, `${row.name}: ratio ${row.ratio}`).toBe(true);
				if (!Array.isArray(row.work)) {
					expect(row.work.noBaselineRun, row.name).not.toBe("");
					continue;
				}
				expect(row.work.length, row.name).toBeGreaterThan(0);
				expect(row.work.flatMap(workDifferences), row.name).toEqual([]);
			}
		}, 180_000);
	}
});
