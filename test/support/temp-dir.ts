/**
 * The one way a test makes a directory in the system temp dir: `makeTempDir` creates it and writes it into
 * the run's ledger, so the run's global teardown (test/support/temp-dir-check.ts) fails the run when a test
 * left one behind. Each test still removes what it made, after the processes it started are gone
 * (`tempDirsRemovedAfter`, or `releaseDirectories` of test/support/teardown.ts in its own hook or `finally`).
 * Each test worker also records every other `mkdtemp` straight into the system temp dir
 * (test/support/temp-dir-worker.ts), so a directory made without `makeTempDir` (by the product code under
 * test, or by a test that forgot the rule) counts as well.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { releaseDirectories } from "./teardown.ts";

/** The environment variable naming the run's ledger directory (file `made`: one absolute directory a line). */
export const TEMP_LEDGER_VARIABLE = "PNS_TEST_TEMP_LEDGER";

/**
 * Records `dir` in the ledger when it stands straight in the system temp dir (one below a recorded directory
 * goes with it) and a ledger is set (none outside a vitest run).
 */
export function recordTempDir(dir: string): void {
	const ledger = process.env[TEMP_LEDGER_VARIABLE];
	if (ledger === undefined || resolve(dirname(dir)) !== resolve(tmpdir())) return;
	appendFileSync(join(ledger, "made"), `${resolve(dir)}\n`);
}

/**
 * Creates `<tmpdir>/<prefix>XXXXXX` (mode 0700) and records it in the ledger named by `PNS_TEST_TEMP_LEDGER`.
 * @returns the physical path (symlinks resolved), so lexical assertions on paths below it are exact.
 */
export function makeTempDir(prefix: string): string {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	recordTempDir(dir);
	return dir;
}

/**
 * A `makeTempDir` whose directories `hook` (vitest's `afterEach` or `afterAll`) removes, once no process
 * uses them (`releaseDirectories`: rejects naming a process still running after the teardown deadline).
 */
export function tempDirsRemovedAfter(hook: (fn: () => Promise<void>) => void): (prefix: string) => string {
	const made: string[] = [];
	hook(() => releaseDirectories(made.splice(0)));
	return (prefix) => {
		const dir = makeTempDir(prefix);
		made.push(dir);
		return dir;
	};
}

/** The directories recorded in `ledger` (a ledger directory) that still exist; [] for an empty ledger. */
export function leftoverTempDirs(ledger: string): string[] {
	const file = join(ledger, "made");
	if (!existsSync(file)) return [];
	const recorded = new Set(readFileSync(file, "utf8").split("\n").filter(Boolean));
	return [...recorded].filter((dir) => existsSync(dir));
}
