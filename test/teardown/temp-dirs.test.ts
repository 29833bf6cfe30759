/**
 * Tests own what they make in the system temp dir (test/support/temp-dir.ts): every temp dir a test or test
 * helper makes is recorded in the run's ledger, and the run fails at its global teardown
 * (test/support/temp-dir-check.ts) naming each recorded directory still there.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { removeTree } from "../support/teardown.ts";
import { leftoverTempDirs, makeTempDir, TEMP_LEDGER_VARIABLE } from "../support/temp-dir.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const made: string[] = [];

afterEach(async () => {
	vi.unstubAllEnvs();
	for (const dir of made.splice(0)) await removeTree(dir);
});

/** A private ledger (in a temp dir of its own, recorded in the run's ledger) that `makeTempDir` writes to. */
function privateLedger(): string {
	const dir = makeTempDir("temp-ledger-");
	made.push(dir);
	const ledger = join(dir, "made");
	vi.stubEnv(TEMP_LEDGER_VARIABLE, ledger);
	return ledger;
}

describe("the run's ledger of temp dirs", () => {
	it("names a temp dir a test made and left behind, and no longer names it once removed", () => {
		const ledger = privateLedger();
		const dir = makeTempDir("left-behind-");
		made.push(dir);
		expect(readFileSync(ledger, "utf8")).toBe(`${dir}\n`);
		expect(leftoverTempDirs(ledger)).toEqual([dir]);
		rmSync(dir, { recursive: true });
		expect(leftoverTempDirs(ledger)).toEqual([]);
	});

	it("names nothing when no test made a temp dir (the ledger file does not exist yet)", () => {
		const ledger = privateLedger();
		expect(existsSync(ledger)).toBe(false);
		expect(leftoverTempDirs(ledger)).toEqual([]);
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
