/**
 * The test run's own temporary directory (test/support/test-tmpdir.ts): what a test makes in the temp dir
 * lands under it, not in the system temp dir.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname } from "node:path";
import { describe, expect, it } from "vitest";

describe("the test run's temporary directory", () => {
	it("is where the tests' temp dirs are made, one private directory of this run", () => {
		const made = mkdtempSync(`${tmpdir()}/probe-`);
		try {
			expect(basename(dirname(made))).toMatch(/^pns-tests-/);
			expect(process.env.TMPDIR).toBe(dirname(made));
		} finally {
			rmSync(made, { recursive: true, force: true });
		}
	});
});
