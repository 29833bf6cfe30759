/**
 * Framing one very long line (issue: a 20 MB record took seconds and blocked Pi's event loop because the
 * line was re-joined on every chunk). Wired into `npm run bench` by bench/run-bench.ts.
 */
import { createFramer } from "../src/process/framing.ts";

const CHUNK = 64 * 1024;

export interface LongLineBench {
	/** Size of the line, bytes (LF included). */
	bytes: number;
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

async function frameOurs(chunks: Buffer[]): Promise<{ ms: number; worstChunkMs: number }> {
	let records = 0;
	const framer = createFramer({
		maxLineBytes: 64 * 1024 * 1024,
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
	if (records !== 1) throw new Error(`expected 1 record, got ${records}`);
	return { ms: performance.now() - start, worstChunkMs };
}

function framePlain(chunks: Buffer[]): number {
	const start = performance.now();
	const all = Buffer.concat(chunks);
	const lf = all.indexOf(0x0a);
	JSON.parse(all.subarray(0, lf).toString("utf8"));
	return performance.now() - start;
}

/**
 * One line of `megabytes` MB (10^6 bytes) cut into 64 KiB chunks: createFramer next to a plain
 * concat + indexOf + JSON.parse of the same chunks. Best of 5 passes each, alternating (the machine may be busy).
 */
export async function benchLongLine(megabytes: number): Promise<LongLineBench> {
	const chunks = lineChunks(megabytes);
	const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
	let oursMs = Number.POSITIVE_INFINITY;
	let plainMs = Number.POSITIVE_INFINITY;
	let worstChunkMs = 0;
	for (let pass = 0; pass < 5; pass++) {
		const ours = await frameOurs(chunks);
		oursMs = Math.min(oursMs, ours.ms);
		worstChunkMs = Math.max(worstChunkMs, ours.worstChunkMs);
		plainMs = Math.min(plainMs, framePlain(chunks));
	}
	const oursMBps = bytes / 1e6 / (oursMs / 1000);
	const plainMBps = bytes / 1e6 / (plainMs / 1000);
	return { bytes, oursMBps, plainMBps, ratio: oursMBps / plainMBps, worstChunkMs };
}
