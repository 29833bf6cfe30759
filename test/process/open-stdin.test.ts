/** `openStdin`: a child's stdin stays open for lines until the caller ends it (docs/background-jobs.md §Talking to running children). */
import { describe, expect, it } from "vitest";
import { fixture, ofType, run } from "./run-fixture.ts";

describe("startProcess with openStdin", () => {
	it("writes lines while the child runs and lets it end when input is closed", async () => {
		const child = run(fixture("lines", [], { openStdin: true }));
		const input = child.running.input;
		expect(input?.open).toBe(true);
		expect(input?.writeLine("first ünïcødé line")).toBe(true);
		await child.waitForRecord((record) => record.text === "first ünïcødé line");
		expect(input?.writeLine("second")).toBe(true);
		await child.waitForRecord((record) => record.text === "second");
		input?.end();
		expect(input?.open).toBe(false);
		const outcome = await child.done;
		expect(outcome).toMatchObject({ end: "exited", exitCode: 0 });
		expect(child.records.filter(ofType("line")).map((record) => record.text)).toEqual(["first ünïcødé line", "second"]);
		expect(input?.writeLine("after the end")).toBe(false);
	});

	it("refuses writes once the child has exited on its own, without an EPIPE crash", async () => {
		const child = run(fixture("lines", [], { openStdin: true }));
		child.running.input?.writeLine("exit");
		const outcome = await child.done;
		expect(outcome).toMatchObject({ end: "exited", exitCode: 3 });
		expect(child.running.input?.open).toBe(false);
		expect(child.running.input?.writeLine("nobody reads this")).toBe(false);
	});

	it("has no input handle without openStdin", () => {
		const child = run(fixture("echo"));
		expect(child.running.input).toBeUndefined();
		return child.done;
	});
});
