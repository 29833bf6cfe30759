/**
 * Vitest global setup: gives the run a ledger of the temp dirs its tests make (test/support/temp-dir.ts)
 * and, at the end of the run, fails it naming every recorded directory that is still there. Only this run's
 * own directories count: the ledger lists what `makeTempDir` made in this run's workers and the pids of those
 * workers (whose product-made run and tmux directories count too), never entries other runs on the machine
 * (other worktrees) put into the same temp dir.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { releaseDirectories, removeTree } from "./teardown.ts";
import { leftoverTempDirs, TEMP_LEDGER_VARIABLE } from "./temp-dir.ts";

/**
 * Sets `PNS_TEST_TEMP_LEDGER` for the workers (they inherit the environment) and returns the teardown.
 * @throws Error (from the teardown, which fails the run) listing the directories tests left behind; those
 *   are removed all the same, so a failing run does not fill the temp dir either.
 */
export default function setup(): () => Promise<void> {
	const ledger = mkdtempSync(join(tmpdir(), `pns-temp-ledger-${process.pid}-`));
	process.env[TEMP_LEDGER_VARIABLE] = ledger;
	return async () => {
		const left = leftoverTempDirs(ledger);
		// Whatever still uses a leftover is part of the leak: named, then ended (releaseDirectories).
		const stillUsed = await releaseDirectories(left).then(
			() => "",
			(error: Error) => `\n${error.message}`,
		);
		await removeTree(ledger);
		if (left.length > 0) {
			throw new Error(
				`tests left ${left.length} temp dir(s) behind (each test removes what it made: test/support/temp-dir.ts):\n${left.join("\n")}${stillUsed}`,
			);
		}
	};
}
