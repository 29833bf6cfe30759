/**
 * The one way a test makes a directory in the system temp dir: `makeTempDir` creates it and writes it into
 * the run's ledger, so the run's global teardown (test/support/temp-dir-check.ts) fails the run when a test
 * left one behind. Each test still removes what it made, after the processes it started are gone
 * (`tempDirsRemovedAfter`, or `releaseDirectories` of test/support/teardown.ts in its own hook or `finally`).
 * The ledger also lists the pid of each test worker (test/support/temp-dir-worker.ts), so the run and tmux
 * directories the product made in a worker (`<prefix><pid>-XXXXXX`, src/runs/leftovers.ts) count as well.
 */
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RUN_DIR_PREFIX, TMUX_DIR_PREFIX } from "../../src/runs/leftovers.ts";
import { releaseDirectories } from "./teardown.ts";

/** The environment variable naming the run's ledger directory (files `made` and `workers`, one entry a line). */
export const TEMP_LEDGER_VARIABLE = "PNS_TEST_TEMP_LEDGER";

/** Appends `line` to the ledger file `name`, when a ledger is set (none outside a vitest run). */
function record(name: "made" | "workers", line: string): void {
	const ledger = process.env[TEMP_LEDGER_VARIABLE];
	if (ledger !== undefined) appendFileSync(join(ledger, name), `${line}\n`);
}

/**
 * Creates `<tmpdir>/<prefix>XXXXXX` (mode 0700) and records it in the ledger named by `PNS_TEST_TEMP_LEDGER`.
 * @returns the physical path (symlinks resolved), so lexical assertions on paths below it are exact.
 */
export function makeTempDir(prefix: string): string {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	record("made", dir);
	return dir;
}

/** Records this process as a test worker, whose product-made run and tmux directories the check counts. */
export function recordWorker(): void {
	record("workers", String(process.pid));
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

/**
 * What the run of `ledger` (a ledger directory) left behind: each directory `makeTempDir` recorded that still
 * exists, then each `<tmpdir>/<run or tmux prefix><worker pid>-*` of a recorded worker. [] for an empty ledger.
 */
export function leftoverTempDirs(ledger: string): string[] {
	const lines = (name: string) => {
		const file = join(ledger, name);
		return existsSync(file) ? [...new Set(readFileSync(file, "utf8").split("\n").filter(Boolean))] : [];
	};
	const made = lines("made").filter((dir) => existsSync(dir));
	const workers = lines("workers");
	const productMade = readdirSync(tmpdir())
		.filter((name) =>
			workers.some((pid) => [RUN_DIR_PREFIX, TMUX_DIR_PREFIX].some((p) => name.startsWith(`${p}${pid}-`))),
		)
		.map((name) => join(tmpdir(), name));
	return [...made, ...productMade];
}
