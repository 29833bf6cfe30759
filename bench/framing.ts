/**
 * Benchmarks for the process layer (docs/rules.md §Child processes): is split2 + our JSON step fast enough, and does
 * the core hold no unbounded buffers? Wired into `npm run bench` by bench/run-bench.ts.
 */
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath } from "node:url";
import { createFramer } from "../src/process/framing.ts";
import { startProcess } from "../src/process/start-process.ts";
import type { Bench } from "./bench.ts";
import { DEFAULT_LIMITS } from "./defaults.ts";
import { fixed } from "./table.ts";

const MiB = 1024 * 1024;
/** The framer's line limit, as every child run has it. */
const MAX_LINE_BYTES = DEFAULT_LIMITS.run.maxLineBytes;

export interface FramingBench {
	/** Bytes framed per pass. */
	bytes: number;
	/** Records per pass of createFramer. */
	records: number;
	/** Records per pass of the plain loop (the same work: equal to `records`). */
	plainRecords: number;
	/** Chunks per pass. */
	chunks: number;
	/** Throughput of createFramer (split2 + our JSON step), MB/s (10^6 bytes). */
	oursMBps: number;
	/** Throughput of a plain decode, split-on-"\n" and JSON.parse loop over the same chunks, MB/s. */
	plainMBps: number;
	/** oursMBps ÷ plainMBps, measured in the same run. */
	ratio: number;
}

/**
 * A pi-like event stream: a few MiB of varied JSON lines (text deltas with non-ASCII text and U+2028, tool
 * events, usage), repeated to `totalBytes`, cut into `chunkBytes` chunks exactly as a pipe would deliver
 * them (records and characters straddle chunk boundaries). The base is reused, so memory stays small.
 */
function syntheticChunks(totalBytes: number, chunkBytes: number): Buffer[] {
	const lines: string[] = [];
	// Counted as they are added: joining everything again on every step made this quadratic (seconds).
	let length = 0;
	for (let i = 0; length < 4 * MiB; i++) {
		const step = [
			`${JSON.stringify({ type: "message_update", assistantMessageEvent: { type: "text_delta", delta: `word ${i} — naïve café 😀\u2028 `.repeat(1 + (i % 7)) } })}\n`,
			`${JSON.stringify({ type: "tool_execution_start", toolCallId: `call_${i}`, toolName: "bash", args: { command: `ls -la /tmp/${i}` } })}\n`,
			`${JSON.stringify({ type: "tool_execution_end", toolCallId: `call_${i}`, result: { content: [{ type: "text", text: "x".repeat(i % 2000) }] }, isError: false })}\n`,
			`${JSON.stringify({ type: "turn_end", usage: { input: 1200 + i, output: 300, cacheRead: 0, cost: { total: 0.0012 } } })}\n`,
		];
		lines.push(...step);
		for (const line of step) length += line.length;
	}
	const base = Buffer.from(lines.join(""));
	const chunks: Buffer[] = [];
	let produced = 0;
	let offset = 0;
	while (produced < totalBytes) {
		const chunk = base.subarray(offset, Math.min(offset + chunkBytes, base.length));
		chunks.push(chunk);
		produced += chunk.length;
		offset = offset + chunk.length === base.length ? 0 : offset + chunk.length;
	}
	return chunks;
}

async function frameOurs(chunks: Buffer[]): Promise<number> {
	let records = 0;
	const framer = createFramer({
		maxLineBytes: MAX_LINE_BYTES,
		onRecord: () => {
			records++;
		},
		onDiagnostic: () => {},
		// The stream may end mid-record (it is cut at a byte count); the plain loop drops that tail too.
		onFault: () => {},
	});
	const finished = new Promise((resolve) => framer.once("finish", resolve));
	for (const chunk of chunks) framer.write(chunk);
	framer.end();
	await finished;
	return records;
}

function framePlain(chunks: Buffer[]): number {
	let records = 0;
	const decoder = new StringDecoder("utf8");
	let rest = "";
	for (const chunk of chunks) {
		const lines = (rest + decoder.write(chunk)).split("\n");
		rest = lines.pop() ?? "";
		for (const line of lines) {
			if (line === "") continue;
			JSON.parse(line);
			records++;
		}
	}
	return records;
}

async function timed<T>(work: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
	const start = performance.now();
	const value = await work();
	return { value, ms: performance.now() - start };
}

/**
 * Framing throughput of createFramer next to a plain split/JSON.parse loop over the same chunks.
 * @param totalBytes size of the stream, bytes (default 200 MB = 200e6 bytes).
 * @param chunkBytes chunk size, bytes (default 64 KiB, a pipe read).
 * @param passes passes of each framer after a warm-up (default 2); the fastest counts.
 */
export async function benchFraming(totalBytes = 200e6, chunkBytes = 64 * 1024, passes = 2): Promise<FramingBench> {
	const chunks = syntheticChunks(totalBytes, chunkBytes);
	const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
	const warmUp = chunks.slice(0, 200);
	await frameOurs(warmUp);
	framePlain(warmUp);
	let oursMs = Number.POSITIVE_INFINITY;
	let plainMs = Number.POSITIVE_INFINITY;
	let records = 0;
	let plainRecords = 0;
	for (let pass = 0; pass < passes; pass++) {
		const ours = await timed(() => frameOurs(chunks));
		const plain = await timed(() => framePlain(chunks));
		records = ours.value;
		plainRecords = plain.value;
		oursMs = Math.min(oursMs, ours.ms);
		plainMs = Math.min(plainMs, plain.ms);
	}
	const oursMBps = bytes / 1e6 / (oursMs / 1000);
	const plainMBps = bytes / 1e6 / (plainMs / 1000);
	return { bytes, records, plainRecords, chunks: chunks.length, oursMBps, plainMBps, ratio: oursMBps / plainMBps };
}

export interface ChildRssBench {
	/** Bytes the child wrote (from its terminal record). */
	bytes: number;
	/** Records delivered to onRecord. */
	records: number;
	/** Parent RSS just before the run, MB (10^6 bytes). */
	baselineRssMB: number;
	/** Highest parent RSS sampled during the run, MB. */
	peakRssMB: number;
	/** peakRssMB − baselineRssMB. */
	growthMB: number;
	seconds: number;
}

/**
 * Parent RSS growth while one child (test/support/fault-cli/flood.mjs) writes `megabytes` MiB of events
 * through startProcess with a no-op onRecord: it stays flat if the core holds no unbounded buffers.
 * RSS is sampled every 10 ms and after every 1000 records. Run it before other allocations in the process.
 */
export async function benchChildRss(megabytes = 500): Promise<ChildRssBench> {
	const flood = fileURLToPath(new URL("../test/support/fault-cli/flood.mjs", import.meta.url));
	const baseline = process.memoryUsage.rss();
	let peak = baseline;
	const sample = () => {
		peak = Math.max(peak, process.memoryUsage.rss());
	};
	const sampler = setInterval(sample, 10);
	let records = 0;
	let bytes = 0;
	const started = performance.now();
	const outcome = await startProcess(
		{
			file: process.execPath,
			args: [flood, String(megabytes)],
			cwd: process.cwd(),
			env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
		},
		{
			limits: DEFAULT_LIMITS.run,
			onRecord: (record) => {
				records++;
				if (records % 1000 === 0) sample();
				const settled = record as { type?: string; bytes?: number };
				if (settled.type === "agent_settled") bytes = settled.bytes ?? 0;
			},
			onDiagnostic: () => {},
		},
	).done;
	clearInterval(sampler);
	sample();
	if (outcome.end !== "exited" || outcome.exitCode !== 0) {
		throw new Error(`flood child ended badly: ${JSON.stringify(outcome)}`);
	}
	return {
		bytes,
		records,
		baselineRssMB: baseline / 1e6,
		peakRssMB: peak / 1e6,
		growthMB: (peak - baseline) / 1e6,
		seconds: (performance.now() - started) / 1000,
	};
}

/** `npm run bench`'s rows for the process core's memory while a child floods it. */
export const childRssBench: Bench = {
	rows: ["parent RSS, child floods"],
	async run(size) {
		const rss = await benchChildRss(size === "smoke" ? 5 : 500);
		const detail =
			`process core, 1 child flooding ${fixed(rss.bytes / 1e6, 0)} MB (${rss.records} records) in ${fixed(rss.seconds)} s: ` +
			`parent RSS ${fixed(rss.baselineRssMB)} → peak ${fixed(rss.peakRssMB)} MB (growth ${fixed(rss.growthMB)} MB)`;
		const row = {
			name: "parent RSS, child floods",
			value: `${fixed(rss.peakRssMB)} MB`,
			baseline: `${fixed(rss.baselineRssMB)} MB`,
			ratio: rss.peakRssMB / rss.baselineRssMB,
			meaning: `peak ÷ RSS before the run; +${fixed(rss.growthMB)} MB while ${fixed(rss.bytes / 1e6, 0)} MB streamed`,
			work: { noBaselineRun: "the baseline is this process's RSS just before the run" },
		};
		return { detail, rows: [row] };
	},
};

/** `npm run bench`'s row for framing throughput: createFramer next to a plain loop over the same chunks. */
export const framingBench: Bench = {
	rows: ["framing throughput"],
	async run(size) {
		const framing = size === "smoke" ? await benchFraming(2e6, 64 * 1024, 1) : await benchFraming();
		const detail =
			`framing ${fixed(framing.bytes / 1e6, 0)} MB in 64 KiB chunks (${framing.records} records): ` +
			`split2 + JSON step ${fixed(framing.oursMBps)} MB/s, plain split/JSON.parse ${fixed(framing.plainMBps)} MB/s, ` +
			`ratio ${fixed(framing.ratio, 2)}`;
		const input = `${framing.bytes} bytes in ${framing.chunks} chunks`;
		const row = {
			name: "framing throughput",
			value: `${fixed(framing.oursMBps)} MB/s`,
			baseline: `${fixed(framing.plainMBps)} MB/s`,
			ratio: framing.ratio,
			meaning: "ours ÷ plain split+JSON.parse loop; ≥ 1.00 = no slower",
			work: [
				{
					measured: { argv: [], input, output: `${framing.records} records` },
					baseline: { argv: [], input, output: `${framing.plainRecords} records` },
				},
			],
		};
		return { detail, rows: [row] };
	},
};
