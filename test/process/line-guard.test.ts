import { describe, expect, it } from "vitest";
import { createLineGuard } from "../../src/process/line-guard.ts";

describe("line guard", () => {
	it("hands a line spread over 320 chunks to the splitter as one piece, joined once", () => {
		const line = Buffer.from(`{"t":"${"x".repeat(20 * 1024 * 1024)}"}\n`);
		const guard = createLineGuard(64 * 1024 * 1024, () => {
			throw new Error("not over-long");
		});
		const pieces: Buffer[] = [];
		for (let at = 0; at < line.length; at += 64 * 1024) pieces.push(...guard.take(line.subarray(at, at + 64 * 1024)));
		expect(guard.rest()).toEqual([]);
		// The splitter re-splits what it holds on every write: one piece keeps the line's cost linear.
		expect(pieces).toHaveLength(1);
		expect(pieces[0].equals(line)).toBe(true);
	});

	it("keeps complete lines of one chunk as one run and holds the unterminated tail", () => {
		const guard = createLineGuard(100, () => {});
		expect(guard.take(Buffer.from('{"a":1}\n{"b":2}\n{"c"')).map(String)).toEqual(['{"a":1}\n{"b":2}\n']);
		expect(guard.take(Buffer.from(":3}")).map(String)).toEqual([]);
		expect(guard.rest().map(String)).toEqual(['{"c":3}']);
	});

	it("counts an over-long line cut off by the end of the stream", () => {
		const faults: Array<[number, boolean]> = [];
		const guard = createLineGuard(10, (bytes, cutOff) => faults.push([bytes, cutOff]));
		expect(guard.take(Buffer.from("x".repeat(25)))).toEqual([]);
		expect(guard.rest()).toEqual([]);
		expect(faults).toEqual([[25, true]]);
	});
});
