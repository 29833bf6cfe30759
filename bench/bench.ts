/**
 * The shape of one benchmark as `npm run bench` and the bench smoke test run it. Every benchmark is one
 * entry of `BENCHES` (bench/benches.ts): adding a row to the table is adding an entry there.
 */
import type { TableRow } from "./table.ts";
import type { NoBaselineRun, WorkComparison } from "./work.ts";

/** `full`: the figures `npm run bench` prints; `smoke`: one iteration of everything at tiny sizes (the test). */
export type BenchSize = "full" | "smoke";

/** One row of the table, with the work behind its value and its baseline. */
export interface BenchRow extends TableRow {
	/** The measured run(s) next to the baseline run(s); or why the baseline is not a run. */
	work: WorkComparison[] | NoBaselineRun;
}

/** What one benchmark reports: a few lines of detail, then its rows. */
export interface BenchReport {
	detail: string;
	rows: BenchRow[];
}

export interface Bench {
	/** The names of the rows it reports, in order (the smoke test checks each is produced). */
	rows: readonly string[];
	/**
	 * Runs it. Throws when a run fails; `npm run bench` and the smoke test also refuse a row whose
	 * comparisons are not the same work (`assertSameWork`).
	 */
	run(size: BenchSize): Promise<BenchReport>;
}
