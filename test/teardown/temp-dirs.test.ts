/**
 * Tests own what they make in the system temp dir (test/support/temp-dir.ts): every temp dir a test or test
 * helper makes is recorded in the run's ledger, and the run fails at its global teardown
 * (test/support/temp-dir-check.ts) naming each recorded directory still there.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeOwnedTempDir, RUN_DIR_PREFIX } from "../../src/runs/leftovers.ts";
import { removeTree } from "../support/teardown.ts";
import { leftoverTempDirs, makeTempDir, TEMP_LEDGER_VARIABLE } from "../support/temp-dir.ts";

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
		expect(readFileSync(join(ledger, "made"), "utf8").split("\n")).toContain(dir);
		expect(leftoverTempDirs(ledger)).toEqual([dir]);
		rmSync(dir, { recursive: true });
		expect(leftoverTempDirs(ledger)).toEqual([]);
	});

	it("names nothing when no test made a temp dir (the ledger files do not exist yet)", () => {
		const ledger = privateLedger();
		expect(readdirSync(ledger)).toEqual([]);
		expect(leftoverTempDirs(ledger)).toEqual([]);
	});

	it("names a directory made straight in the temp dir without makeTempDir: by a test's own mkdtemp or by the product", async () => {
		const ledger = privateLedger();
		const direct = mkdtempSync(join(tmpdir(), "direct-"));
		const promised = await mkdtemp(join(tmpdir(), "promised-"));
		const runDir = makeOwnedTempDir(RUN_DIR_PREFIX);
		made.push(direct, promised, runDir);
		expect(leftoverTempDirs(ledger)).toEqual([direct, promised, runDir]);
		for (const dir of [direct, promised, runDir]) rmSync(dir, { recursive: true });
		expect(leftoverTempDirs(ledger)).toEqual([]);
	});

	it("does not name a directory made below another one (it goes with the one above)", () => {
		const ledger = privateLedger();
		mkdtempSync(join(ledger, "below-"));
		expect(leftoverTempDirs(ledger)).toEqual([]);
	});
});

describe("temp dirs of tests and test helpers", () => {
	it("are made only through test/support/temp-dir.ts, so the ledger sees every one", () => {
		const files = readdirSync(join(ROOT, "test"), { recursive: true, encoding: "utf8" })
			.filter((path) => /\.(ts|mjs|js)$/.test(path))
			.map((path) => join(ROOT, "test", path));
		// The helper and the run's check, and this file, which makes one straight in the temp dir on purpose.
		const allowed = new Set([
			"test/support/temp-dir.ts",
			"test/support/temp-dir-check.ts",
			"test/teardown/temp-dirs.test.ts",
		]);
		// mkdtemp or mkdir straight into the system temp dir (a directory below a made one goes with it).
		const direct = /\bmkd(?:temp|ir)(?:Sync)?\(\s*(?:join\(\s*)?(?:os\.)?tmpdir\(\)/;
		const offenders = files
			.map((file) => relative(ROOT, file))
			.filter((path) => !allowed.has(path) && direct.test(readFileSync(join(ROOT, path), "utf8")));
		expect(offenders).toEqual([]);
	});
});
