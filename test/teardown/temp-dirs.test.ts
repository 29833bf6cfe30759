/**
 * Tests own what they make in the system temp dir (test/support/temp-dir.ts): every temp dir a test or test
 * helper makes is recorded in the run's ledger, and the run fails at its global teardown
 * (test/support/temp-dir-check.ts) naming each recorded directory still there.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeOwnedTempDir, RUN_DIR_PREFIX } from "../../src/runs/leftovers.ts";
import { removeTree } from "../support/teardown.ts";
import { leftoverTempDirs, makeTempDir, recordWorker, TEMP_LEDGER_VARIABLE } from "../support/temp-dir.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const made: string[] = [];

afterEach(async () => {
	vi.unstubAllEnvs();
	for (const dir of made.splice(0)) await removeTree(dir);
});

/** A private ledger directory (itself recorded in the run's ledger) that `makeTempDir` writes to from now on. */
function privateLedger(): string {
	const ledger = makeTempDir("temp-ledger-");
	made.push(ledger);
	vi.stubEnv(TEMP_LEDGER_VARIABLE, ledger);
	return ledger;
}

describe("the run's ledger of temp dirs", () => {
	it("names a temp dir a test made and left behind, and no longer names it once removed", () => {
		const ledger = privateLedger();
		const dir = makeTempDir("left-behind-");
		made.push(dir);
		expect(readFileSync(join(ledger, "made"), "utf8")).toBe(`${dir}\n`);
		expect(leftoverTempDirs(ledger)).toEqual([dir]);
		rmSync(dir, { recursive: true });
		expect(leftoverTempDirs(ledger)).toEqual([]);
	});

	it("names nothing when no test made a temp dir (the ledger files do not exist yet)", () => {
		const ledger = privateLedger();
		expect(readdirSync(ledger)).toEqual([]);
		expect(leftoverTempDirs(ledger)).toEqual([]);
	});

	it("names a run directory the product made in a recorded test worker and left behind, and only that worker's", () => {
		const ledger = privateLedger();
		const before = leftoverTempDirs(ledger);
		recordWorker();
		const runDir = makeOwnedTempDir(RUN_DIR_PREFIX);
		made.push(runDir);
		expect(leftoverTempDirs(ledger)).toEqual([...before, runDir]);
		rmSync(runDir, { recursive: true });
		expect(leftoverTempDirs(ledger)).toEqual(before);
	});

	it("does not name a run directory of a process that is no test worker of the run", () => {
		const ledger = privateLedger();
		const runDir = makeOwnedTempDir(RUN_DIR_PREFIX);
		made.push(runDir);
		expect(leftoverTempDirs(ledger)).not.toContain(runDir);
	});
});

describe("temp dirs of tests and test helpers", () => {
	it("are made only through test/support/temp-dir.ts, so the ledger sees every one", () => {
		const files = readdirSync(join(ROOT, "test"), { recursive: true, encoding: "utf8" })
			.filter((path) => /\.(ts|mjs|js)$/.test(path))
			.map((path) => join(ROOT, "test", path));
		const allowed = new Set(["test/support/temp-dir.ts", "test/support/temp-dir-check.ts"]);
		// mkdtemp or mkdir straight into the system temp dir (a directory below a made one goes with it).
		const direct = /\bmkd(?:temp|ir)(?:Sync)?\(\s*(?:join\(\s*)?(?:os\.)?tmpdir\(\)/;
		const offenders = files
			.map((file) => relative(ROOT, file))
			.filter((path) => !allowed.has(path) && direct.test(readFileSync(join(ROOT, path), "utf8")));
		expect(offenders).toEqual([]);
	});
});
