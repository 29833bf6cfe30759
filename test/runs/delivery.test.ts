import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunResult } from "../../src/core/run-result.ts";
import { deliverAnswer } from "../../src/runs/delivery.ts";
import { runResult } from "../support/run-result.ts";
import { releaseDirectories } from "../support/teardown.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const base = makeTempDir("delivery-");
afterAll(() => releaseDirectories([base]));

const result = (finalAnswer: string): RunResult => runResult({ finalAnswer, cwd: base });

const caps = { maxBytes: 1000, maxLines: 10 };

describe("answer delivery", () => {
	it("passes a short answer unchanged, with no artifact", () => {
		const run = result("short");
		expect(deliverAnswer(run, caps, join(base, "a"), "x")).toEqual({ text: "short" });
		expect(run.artifactPath).toBeUndefined();
	});

	it("cuts at the line cap and writes the whole answer to the artifact", () => {
		const answer = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n");
		const run = result(answer);
		const delivery = deliverAnswer(run, caps, join(base, "b"), "call-1");
		expect(delivery.text.startsWith("line 0\nline 1")).toBe(true);
		expect(delivery.text).toContain("[answer truncated: 10 of 30 lines");
		expect(delivery.text).toContain(`full answer in ${run.artifactPath}`);
		expect(readFileSync(run.artifactPath as string, "utf8")).toBe(answer);
	});

	it("keeps the first bytes of a single line longer than the byte cap, without splitting a character", () => {
		const run = result("é".repeat(2000));
		const delivery = deliverAnswer(run, caps, join(base, "c"), "call-2");
		const shown = delivery.text.slice(0, delivery.text.indexOf("\n\n[answer truncated"));
		expect(shown).toBe("é".repeat(500));
		expect(readFileSync(run.artifactPath as string, "utf8")).toBe("é".repeat(2000));
	});

	it("says so in the result when the artifact cannot be written", () => {
		const blocker = join(base, "not-a-dir");
		writeFileSync(blocker, "a file where the artifact directory should be");
		const run = result("x\n".repeat(50));
		const delivery = deliverAnswer(run, caps, join(blocker, "artifacts"), "call-3");
		expect(run.artifactPath).toBeUndefined();
		expect(delivery.artifactError).toContain("could not write the full answer to");
		expect(delivery.text).toContain("could not write the full answer to");
	});
});
