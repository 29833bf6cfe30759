/**
 * The one way a test makes a directory in the system temp dir: `makeTempDir` creates it and writes it into
 * the run's ledger, so the run's global teardown (test/support/temp-dir-check.ts) fails the run when a test
 * left one behind. Each test still removes what it made, after the processes it started are gone
 * (`tempDirsRemovedAfter`, or `releaseDirectories` of test/support/teardown.ts in its own hook or `finally`).
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { releaseDirectories } from "./teardown.ts";

/** The environment variable naming the run's ledger file: one absolute directory path a line. */
export const TEMP_LEDGER_VARIABLE = "PNS_TEST_TEMP_LEDGER";

/**
 * Creates `<tmpdir>/<prefix>XXXXXX` (mode 0700) and records it in the ledger named by
 * `PNS_TEST_TEMP_LEDGER` (no ledger outside a vitest run: nothing is recorded).
 * @returns the physical path (symlinks resolved), so lexical assertions on paths below it are exact.
 */
export function makeTempDir(prefix: string): string {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	const ledger = process.env[TEMP_LEDGER_VARIABLE];
	if (ledger !== undefined) appendFileSync(ledger, `${dir}\n`);
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

/** The directories of `ledger` (a ledger file path) that still exist; [] when the ledger is missing. */
export function leftoverTempDirs(ledger: string): string[] {
	if (!existsSync(ledger)) return [];
	const recorded = readFileSync(ledger, "utf8").split("\n").filter(Boolean);
	return [...new Set(recorded)].filter((dir) => existsSync(dir));
}
