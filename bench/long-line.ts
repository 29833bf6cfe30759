/**
 * Framing one very long line (issue: a 20 MB record took seconds and blocked Pi's event loop because the
 * line was re-joined on every chunk). Wired into `npm run bench` by bench/run-bench.ts.
 */
import { createFramer } from "../src/process/framing.ts";
import type { Bench } from "./bench.ts";
import { DEFAULT_LIMITS } from "./defaults.ts";
import { fixed } from "./table.ts";

const CHUNK = 64 * 1024;

export interface LongLineBench {
	/** Size of the line, bytes (LF included). */
	bytes: number;
	/** Chunks it was cut into. */
	chunks: number;
	/** Records each side framed (the same work: 1 each). */
	records: { ours: number; plain: number };
	/** Throughput of createFramer over the line in 64 KiB chunks, MB/s (10^6 bytes). */
	oursMBps: number;
	/** Throughput of a plain join of the same chunks + one Buffer.indexOf + one JSON.parse, MB/s. */
	plainMBps: number;
	/** oursMBps ÷ plainMBps, measured in the same run (goal ≥ 0.9). */
	ratio: number;
	/** Longest single framer.write() call, ms: how long one chunk can block the event loop. */
	worstChunkMs: number;
}

function lineChunks(megabytes: number): Buffer[] {
	const line = Buffer.from(`{"type":"message_update","delta":"${"x".repeat(megabytes * 1e6)}"}\n`);
	const chunks: Buffer[] = [];
	for (let at = 0; at < line.length; at += CHUNK) chunks.push(line.subarray(at, at + CHUNK));
	return chunks;
}

async function frameOurs(chunks: Buffer[]): Promise<{ ms: number; worstChunkMs: number; records: number }> {
	let records = 0;
	const framer = createFramer({
		maxLineBytes: DEFAULT_LIMITS.run.maxLineBytes,
		onRecord: () => {
			records++;
		},
		onDiagnostic: () => {},
		onFault: (fault) => {
			throw new Error(fault);
		},
	});
	const finished = new Promise((resolve) => framer.once("finish", resolve));
	let worstChunkMs = 0;
	const start = performance.now();
	for (const chunk of chunks) {
		const before = performance.now();
		framer.write(chunk);
		worstChunkMs = Math.max(worstChunkMs, performance.now() - before);
	}
	framer.end();
	await finished;
	return { ms: performance.now() - start, worstChunkMs, records };
}

function framePlain(chunks: Buffer[]): { ms: number; records: number } {
	const start = performance.now();
	const all = Buffer.concat(chunks);
	const lf = all.indexOf(0x0a);
	const record = JSON.parse(all.subarray(0, lf).toString("utf8"));
	return { ms: performance.now() - start, records: record === undefined ? 0 : 1 };
}

/**
 * One line of `megabytes` MB (10^6 bytes) cut into 64 KiB chunks: createFramer next to a plain
 * concat + indexOf + JSON.parse of the same chunks. Best of `passes` (default 5) passes each, alternating
 * (the machine may be busy).
 */
export async function benchLongLine(megabytes: number, passes = 5): Promise<LongLineBench> {
	const chunks = lineChunks(megabytes);
	const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
	let oursMs = Number.POSITIVE_INFINITY;
	let plainMs = Number.POSITIVE_INFINITY;
	let worstChunkMs = 0;
	const records = { ours: 0, plain: 0 };
	for (let pass = 0; pass < passes; pass++) {
		const ours = await frameOurs(chunks);
		oursMs = Math.min(oursMs, ours.ms);
		worstChunkMs = Math.max(worstChunkMs, ours.worstChunkMs);
		const plain = framePlain(chunks);
		plainMs = Math.min(plainMs, plain.ms);
		Object.assign(records, { ours: ours.records, plain: plain.records });
	}
	const oursMBps = bytes / 1e6 / (oursMs / 1000);
	const plainMBps = bytes / 1e6 / (plainMs / 1000);
	return { bytes, chunks: chunks.length, records, oursMBps, plainMBps, ratio: oursMBps / plainMBps, worstChunkMs };
}

/** `npm run bench`'s rows for one long line (20 and 60 MB; 1 MB in the smoke run, under the same row names). */
export const longLineBench: Bench = {
	rows: ["framing, one 20 MB line", "framing, one 60 MB line"],
	async run(size) {
		const details: string[] = [];
		const rows = [];
		for (const megabytes of [20, 60]) {
			const line = size === "smoke" ? await benchLongLine(1, 1) : await benchLongLine(megabytes);
			details.push(
				`framing one ${fixed(line.bytes / 1e6, 0)} MB line in 64 KiB chunks: ours ${fixed(line.oursMBps)} MB/s, ` +
					`plain concat + Buffer.indexOf + one JSON.parse ${fixed(line.plainMBps)} MB/s, ratio ${fixed(line.ratio, 2)}; ` +
					`longest single write ${fixed(line.worstChunkMs)} ms (the chunk with the LF: join, decode, JSON.parse)`,
			);
			const input = `${line.bytes} bytes in ${line.chunks} chunks`;
			rows.push({
				name: `framing, one ${megabytes} MB line`,
				value: `${fixed(line.oursMBps)} MB/s`,
				baseline: `${fixed(line.plainMBps)} MB/s`,
				ratio: line.ratio,
				meaning: "ours ÷ concat+indexOf+JSON.parse; goal ≥ 0.90",
				work: [
					{
						measured: { argv: [], input, output: `${line.records.ours} records` },
						baseline: { argv: [], input, output: `${line.records.plain} records` },
					},
				],
			});
		}
		return { detail: details.join("\n"), rows };
	},
};
