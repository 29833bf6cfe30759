/**
 * `npm run bench`: runs every benchmark, prints one line of detail each, then a table of
 * name, value, baseline, ratio and meaning. Every ratio is against a baseline measured in the same run;
 * nothing passes or fails. The RSS bench runs first, before the framing bench allocates its synthetic
 * stream and before the end-to-end benches load Pi's SDK (imported dynamically for that reason), so its
 * baseline is not inflated. Takes under a minute on 2 cores.
 */
import { benchChildRss, benchFraming } from "./framing.ts";
import { benchLifeline } from "./lifeline-overhead.ts";
import { benchLongLine } from "./long-line.ts";
import { printTable, type TableRow } from "./table.ts";

const fixed = (value: number, digits = 1) => value.toFixed(digits);
const rows: TableRow[] = [];

const rss = await benchChildRss(500);
console.log(
	`process core, 1 child flooding ${fixed(rss.bytes / 1e6, 0)} MB (${rss.records} records) in ${fixed(rss.seconds)} s: ` +
		`parent RSS ${fixed(rss.baselineRssMB)} → peak ${fixed(rss.peakRssMB)} MB (growth ${fixed(rss.growthMB)} MB)`,
);
rows.push({
	name: "parent RSS, child floods",
	value: `${fixed(rss.peakRssMB)} MB`,
	baseline: `${fixed(rss.baselineRssMB)} MB`,
	ratio: rss.peakRssMB / rss.baselineRssMB,
	meaning: `peak ÷ RSS before the run; +${fixed(rss.growthMB)} MB while ${fixed(rss.bytes / 1e6, 0)} MB streamed`,
});

const { benchPipelineRss } = await import("./pipeline-rss.ts");
const pipeline = await benchPipelineRss(500);
console.log(
	`whole run pipeline (in-process Pi session → subagent tool → pi stand-in streaming ${fixed(pipeline.bytes / 1e6, 0)} MB of ` +
		`text deltas and 256 KiB message ends) in ${fixed(pipeline.seconds)} s: parent RSS ${fixed(pipeline.baselineRssMB)} → ` +
		`peak ${fixed(pipeline.peakRssMB)} MB (growth ${fixed(pipeline.growthMB)} MB, goal ≤ 64)`,
);
rows.push({
	name: "parent RSS, run pipeline",
	value: `${fixed(pipeline.peakRssMB)} MB`,
	baseline: `${fixed(pipeline.baselineRssMB)} MB`,
	ratio: pipeline.peakRssMB / pipeline.baselineRssMB,
	meaning: `peak ÷ RSS before the call; +${fixed(pipeline.growthMB)} MB for ${fixed(pipeline.bytes / 1e6, 0)} MB (goal ≤ 64)`,
});

const framing = await benchFraming();
console.log(
	`framing ${fixed(framing.bytes / 1e6, 0)} MB in 64 KiB chunks (${framing.records} records): ` +
		`split2 + JSON step ${fixed(framing.oursMBps)} MB/s, plain split/JSON.parse ${fixed(framing.plainMBps)} MB/s, ` +
		`ratio ${fixed(framing.ratio, 2)}`,
);
rows.push({
	name: "framing throughput",
	value: `${fixed(framing.oursMBps)} MB/s`,
	baseline: `${fixed(framing.plainMBps)} MB/s`,
	ratio: framing.ratio,
	meaning: "ours ÷ plain split+JSON.parse loop; ≥ 1.00 = no slower",
});

const { benchStartupOverhead } = await import("./startup-overhead.ts");
const startup = await benchStartupOverhead(9);
const describeStartup = (kind: string, f: typeof startup.wall) =>
	`${kind} ${fixed(f.extensionMs)} ms with this package, ${fixed(f.emptyMs)} ms with an empty extension, ` +
	`per-pair ratios ${fixed(f.range[0], 2)}–${fixed(f.range[1], 2)}, median ${fixed(f.ratio, 2)}`;
console.log(
	`start-up overhead, pi -p with one tool call, ${startup.runs} alternating pairs after a warm-up:\n` +
		`  ${describeStartup("wall", startup.wall)}\n  ${describeStartup("CPU", startup.cpu)}`,
);
for (const [kind, f] of [
	["wall", startup.wall],
	["CPU", startup.cpu],
] as const) {
	rows.push({
		name: `start-up overhead, ${kind}`,
		value: `${fixed(f.extensionMs)} ms`,
		baseline: `${fixed(f.emptyMs)} ms`,
		ratio: f.ratio,
		meaning: `pi run with this package ÷ with an empty extension, ${kind} time (median of pairs); 1.00 = free`,
	});
}

for (const megabytes of [20, 60]) {
	const line = await benchLongLine(megabytes);
	console.log(
		`framing one ${megabytes} MB line in 64 KiB chunks: ours ${fixed(line.oursMBps)} MB/s, ` +
			`plain concat + Buffer.indexOf + one JSON.parse ${fixed(line.plainMBps)} MB/s, ratio ${fixed(line.ratio, 2)}; ` +
			`longest single write ${fixed(line.worstChunkMs)} ms (the chunk with the LF: join, decode, JSON.parse)`,
	);
	rows.push({
		name: `framing, one ${megabytes} MB line`,
		value: `${fixed(line.oursMBps)} MB/s`,
		baseline: `${fixed(line.plainMBps)} MB/s`,
		ratio: line.ratio,
		meaning: "ours ÷ concat+indexOf+JSON.parse; goal ≥ 0.90",
	});
}

const life = await benchLifeline(40);
console.log(
	`lifeline, ${life.runs} alternating spawns of \`echo {}\` (startProcess → first record): registered with the watchdog ` +
		`${fixed(life.withMs, 2)} ms, unregistered ${fixed(life.withoutMs, 2)} ms, ratio ${fixed(life.ratio, 2)}; ` +
		`first registration (starts the watchdog, once per Pi process) ${fixed(life.firstRegistrationMs, 2)} ms; ` +
		`one leader-exit sweep of ${life.processes} processes (blocks the event loop) ${fixed(life.sweepMs, 2)} ms`,
);
rows.push({
	name: "spawn latency, lifeline",
	value: `${fixed(life.withMs, 2)} ms`,
	baseline: `${fixed(life.withoutMs, 2)} ms`,
	ratio: life.ratio,
	meaning: "registered with the watchdog ÷ unregistered; 1.00 = free",
});

const { benchLauncherOverhead } = await import("./launcher-overhead.ts");
const launcher = await benchLauncherOverhead(15);
console.log(
	`launcher overhead, ${launcher.runs} alternating runs each after a warm-up: subagent single run ${fixed(launcher.extensionMs)} ms ` +
		`(child ${fixed(launcher.extensionChildMs)} ms of it), bare spawn-and-parse ${fixed(launcher.bareMs)} ms, ` +
		`ratio ${fixed(launcher.ratio, 2)}\n  child: ${launcher.command} (task as an RPC prompt on stdin)`,
);
rows.push({
	name: "launcher overhead",
	value: `${fixed(launcher.extensionMs)} ms`,
	baseline: `${fixed(launcher.bareMs)} ms`,
	ratio: launcher.ratio,
	meaning: "subagent single run ÷ bare spawn of the same pi child; 1.00 = free",
});

const { benchPiRpcMode } = await import("./pi-rpc-mode.ts");
const rpcMode = await benchPiRpcMode(10);
console.log(
	`pi child in RPC mode vs JSON mode, ${rpcMode.runs} alternating runs each after a warm-up: ` +
		`rpc ${fixed(rpcMode.rpcMs)} ms, json ${fixed(rpcMode.jsonMs)} ms, ratio ${fixed(rpcMode.ratio, 2)}`,
);
rows.push({
	name: "pi RPC vs JSON mode",
	value: `${fixed(rpcMode.rpcMs)} ms`,
	baseline: `${fixed(rpcMode.jsonMs)} ms`,
	ratio: rpcMode.ratio,
	meaning: "single pi child, --mode rpc ÷ --mode json; ≤ 1.00 = no slower",
});

const { benchParallelEfficiency } = await import("./parallel-efficiency.ts");
const parallel = await benchParallelEfficiency({ tasks: 8, delayMs: 1500, runs: 3 });
console.log(
	`parallel efficiency, ${parallel.tasks} tasks at concurrency ${parallel.concurrency}, model reply delayed ${parallel.delayMs} ms, ` +
		`medians of ${parallel.runs}: parallel call ${fixed(parallel.parallelMs)} ms, single-task call ${fixed(parallel.singleMs)} ms, ` +
		`ideal ${parallel.waves} × single = ${fixed(parallel.idealMs)} ms, ratio ${fixed(parallel.ratio, 2)} ` +
		`(peak ${parallel.peakInFlight} model requests in flight, ${parallel.cpus} CPUs)\n` +
		`  1.00 = each wave of ${parallel.concurrency} children costs one child's time. A child took ${fixed(parallel.parallelChildMs)} ms in the parallel call ` +
		`vs ${fixed(parallel.singleChildMs)} ms alone: ${parallel.concurrency} pi start-ups share ${parallel.cpus} CPUs; ` +
		`the rest is the scheduler's hand-off between waves`,
);
rows.push({
	name: "parallel efficiency",
	value: `${fixed(parallel.parallelMs)} ms`,
	baseline: `${fixed(parallel.idealMs)} ms`,
	ratio: parallel.ratio,
	meaning: `${parallel.tasks} tasks @${parallel.concurrency} ÷ ${parallel.waves} × single call; 1.00 = perfect`,
});

console.log("");
printTable(rows);
