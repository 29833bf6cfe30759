/**
 * Benchmarks for the process layer (docs/rules.md §Child processes): is split2 + our JSON step fast enough, and does
 * the core hold no unbounded buffers? Wired into `npm run bench` by bench/run-bench.ts.
 */
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath } from "node:url";
import { createFramer } from "../src/process/framing.ts";
import { startProcess } from "../src/process/start-process.ts";

const MiB = 1024 * 1024;

export interface FramingBench {
	/** Bytes framed per pass. */
	bytes: number;
	/** Records per pass (the same for both framers, checked). */
	records: number;
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
	for (let i = 0; lines.join("").length < 4 * MiB; i++) {
		lines.push(
			`${JSON.stringify({ type: "message_update", assistantMessageEvent: { type: "text_delta", delta: `word ${i} — naïve café 😀\u2028 `.repeat(1 + (i % 7)) } })}\n`,
			`${JSON.stringify({ type: "tool_execution_start", toolCallId: `call_${i}`, toolName: "bash", args: { command: `ls -la /tmp/${i}` } })}\n`,
			`${JSON.stringify({ type: "tool_execution_end", toolCallId: `call_${i}`, result: { content: [{ type: "text", text: "x".repeat(i % 2000) }] }, isError: false })}\n`,
			`${JSON.stringify({ type: "turn_end", usage: { input: 1200 + i, output: 300, cacheRead: 0, cost: { total: 0.0012 } } })}\n`,
		);
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

async function frameOurs(chunks: Buffer[], maxLineBytes: number): Promise<number> {
	let records = 0;
	const framer = createFramer({
		maxLineBytes,
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
 * Each framer runs twice after a warm-up; the faster pass counts.
 */
export async function benchFraming(totalBytes = 200e6, chunkBytes = 64 * 1024): Promise<FramingBench> {
	const chunks = syntheticChunks(totalBytes, chunkBytes);
	const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
	const warmUp = chunks.slice(0, 200);
	await frameOurs(warmUp, MiB);
	framePlain(warmUp);
	let oursMs = Number.POSITIVE_INFINITY;
	let plainMs = Number.POSITIVE_INFINITY;
	let records = 0;
	for (let pass = 0; pass < 2; pass++) {
		const ours = await timed(() => frameOurs(chunks, MiB));
		const plain = await timed(() => framePlain(chunks));
		if (ours.value !== plain.value) throw new Error(`record counts differ: ${ours.value} vs ${plain.value}`);
		records = ours.value;
		oursMs = Math.min(oursMs, ours.ms);
		plainMs = Math.min(plainMs, plain.ms);
	}
	const oursMBps = bytes / 1e6 / (oursMs / 1000);
	const plainMBps = bytes / 1e6 / (plainMs / 1000);
	return { bytes, records, oursMBps, plainMBps, ratio: oursMBps / plainMBps };
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
			limits: {
				timeoutMs: 600_000,
				killGraceMs: 2000,
				terminalGraceMs: 2000,
				drainMs: 2000,
				maxLineBytes: MiB,
				stderrTailBytes: 64 * 1024,
			},
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
