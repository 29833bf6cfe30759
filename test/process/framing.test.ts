import { describe, expect, it } from "vitest";
import { createFramer } from "../../src/process/framing.ts";

/** Feeds `chunks` through a framer and collects what it reports once it has finished. */
async function frame(chunks: (string | Buffer)[], maxLineBytes = 1024, onRecord?: (record: unknown) => void) {
	const records: unknown[] = [];
	const diagnostics: string[] = [];
	const faults: string[] = [];
	const framer = createFramer({
		maxLineBytes,
		onRecord: (record) => {
			records.push(record);
			onRecord?.(record);
		},
		onDiagnostic: (line) => diagnostics.push(line),
		onFault: (fault) => faults.push(fault),
	});
	const finished = new Promise((resolve) => framer.once("finish", resolve));
	for (const chunk of chunks) framer.write(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
	framer.end();
	await finished;
	return { records, diagnostics, faults };
}

describe("framing", () => {
	it("splits records on LF only and strips one trailing CR", async () => {
		const { records, diagnostics } = await frame(['{"a":1}\r\n{"b":2}\n{"c":3}\r{"d":4}\nnot json\r\r\n']);
		expect(records).toEqual([{ a: 1 }, { b: 2 }]);
		// A lone CR is not a record break; only one trailing CR is stripped.
		expect(diagnostics).toEqual(['{"c":3}\r{"d":4}', "not json\r"]);
	});

	it("keeps U+2028 and U+2029 inside strings within one record", async () => {
		const { records, diagnostics } = await frame(['{"t":"a\u2028b\u2029c"}\n']);
		expect(records).toEqual([{ t: "a\u2028b\u2029c" }]);
		expect(diagnostics).toEqual([]);
	});

	it("decodes a multi-byte character split across chunks", async () => {
		const bytes = Buffer.from('{"t":"€😀é"}\n');
		const oneByteChunks = [...bytes].map((byte) => Buffer.from([byte]));
		const { records } = await frame(oneByteChunks);
		expect(records).toEqual([{ t: "€😀é" }]);
	});

	it("keeps non-JSON lines as diagnostics", async () => {
		const { records, diagnostics } = await frame(['{"a":1}\nnot json\n{"b":\n{"c":3}\n']);
		expect(records).toEqual([{ a: 1 }, { c: 3 }]);
		expect(diagnostics).toEqual(["not json", '{"b":']);
	});

	it("ignores blank lines", async () => {
		const { records, diagnostics } = await frame(['\n\r\n   \n{"a":1}\n\n']);
		expect(records).toEqual([{ a: 1 }]);
		expect(diagnostics).toEqual([]);
	});

	it("joins a line spread over many chunks once, into one record", async () => {
		const long = `{"t":"${"€".repeat(100_000)}"}`;
		const bytes = Buffer.from(`{"a":1}\n${long}\n{"b":2}\n`);
		const chunks: Buffer[] = [];
		// 7-byte chunks: records and 3-byte characters straddle every boundary.
		for (let at = 0; at < bytes.length; at += 7) chunks.push(bytes.subarray(at, at + 7));
		const { records, faults } = await frame(chunks, 1024 * 1024);
		expect(faults).toEqual([]);
		expect(records).toEqual([{ a: 1 }, JSON.parse(long), { b: 2 }]);
	});

	it("reports an over-long record with its size and keeps reading", async () => {
		const long = `{"t":"${"x".repeat(200)}"}`;
		const { records, faults, diagnostics } = await frame([`{"a":1}\n${long}\n{"b":2}\n`], 100);
		expect(records).toEqual([{ a: 1 }, { b: 2 }]);
		expect(faults).toEqual([`record of ${long.length} bytes exceeds maxLineBytes 100`]);
		expect(diagnostics).toEqual([]);
	});

	it("reports an over-long record spread over many chunks", async () => {
		const long = `{"t":"${"x".repeat(5000)}"}`;
		const stream = `{"a":1}\n${long}\n{"b":2}\n`;
		const chunks: string[] = [];
		for (let i = 0; i < stream.length; i += 7) chunks.push(stream.slice(i, i + 7));
		const { records, faults } = await frame(chunks, 100);
		expect(records).toEqual([{ a: 1 }, { b: 2 }]);
		expect(faults).toEqual([`record of ${long.length} bytes exceeds maxLineBytes 100`]);
	});

	it("accepts a record of exactly maxLineBytes", async () => {
		const exact = `{"t":"${"x".repeat(92)}"}`;
		expect(exact.length).toBe(100);
		const { records, faults } = await frame([`${exact}\n`], 100);
		expect(records).toHaveLength(1);
		expect(faults).toEqual([]);
	});

	it("reports output that ends mid-record", async () => {
		const { records, faults, diagnostics } = await frame(['{"a":1}\n{"b":"unfini']);
		expect(records).toEqual([{ a: 1 }]);
		expect(faults).toEqual(["output ended mid-record (12 bytes without a final LF)"]);
		expect(diagnostics).toEqual([]);
	});

	it("accepts a last record without a final LF", async () => {
		const { records, faults } = await frame(['{"a":1}\n{"b":2}']);
		expect(records).toEqual([{ a: 1 }, { b: 2 }]);
		expect(faults).toEqual([]);
	});

	it("reports an over-long record cut off at the end", async () => {
		const { faults } = await frame([`{"a":"${"x".repeat(300)}`], 100);
		expect(faults).toEqual(["record of at least 306 bytes exceeds maxLineBytes 100 (output ended mid-record)"]);
	});

	it("keeps framing when a record handler throws", async () => {
		const { records, faults } = await frame(['{"a":1}\n{"b":2}\n'], 1024, (record) => {
			if ((record as { a?: number }).a === 1) throw new Error("boom");
		});
		expect(records).toEqual([{ a: 1 }, { b: 2 }]);
		expect(faults).toEqual(["record handler threw: boom"]);
	});
});
