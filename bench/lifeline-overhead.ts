/**
 * What tying children to Pi's life costs (SECURITY.md, "Processes"): spawn latency with the child
 * registered with the parent-death watchdog next to the same spawn unregistered, alternating in the same
 * run, and the cost of one leader-exit sweep of /proc. Wired into `npm run bench` by bench/run-bench.ts.
 */
import { type Lifeline, lifeline, noLifeline } from "../src/process/lifeline.ts";
import { processTable, stopAndKillFamily } from "../src/process/proc-table.mjs";
import { startProcess } from "../src/process/start-process.ts";
import { median } from "./stats.ts";

export interface LifelineBench {
	runs: number;
	/** Median time from startProcess() to the child's first record, registered with the watchdog, ms. */
	withMs: number;
	/** The same, unregistered (no watchdog), ms. */
	withoutMs: number;
	/** withMs ÷ withoutMs (1.00 = free). */
	ratio: number;
	/** Time of the first registration, which starts the watchdog (once per Pi process), ms. */
	firstRegistrationMs: number;
	/** Median time one leader-exit sweep blocks the event loop (a listing of /proc that finds nothing to stop), ms. */
	sweepMs: number;
	/** Processes in the table during the sweep. */
	processes: number;
}

const LIMITS = {
	timeoutMs: 10_000,
	killGraceMs: 500,
	terminalGraceMs: 500,
	drainMs: 500,
	maxLineBytes: 1024 * 1024,
	stderrTailBytes: 4096,
};

/** ms from startProcess() until `echo {}` delivers its record. */
async function spawnLatency(withLifeline: Lifeline): Promise<number> {
	const start = performance.now();
	let first = 0;
	const running = startProcess(
		{ file: "echo", args: ["{}"], cwd: process.cwd(), env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } },
		{
			limits: LIMITS,
			lifeline: withLifeline,
			onRecord: () => {
				first ||= performance.now() - start;
			},
			onDiagnostic: () => {},
		},
	);
	await running.done;
	return first;
}

export async function benchLifeline(runs = 40): Promise<LifelineBench> {
	const before = performance.now();
	const unregister = lifeline.register({ command: ["true"] });
	const firstRegistrationMs = performance.now() - before;
	unregister();
	await spawnLatency(noLifeline);
	await spawnLatency(lifeline);
	const withTimes: number[] = [];
	const withoutTimes: number[] = [];
	// ABBA order, so neither side always runs right after the other.
	for (let i = 0; i < runs; i++) {
		const pair = i % 2 === 0 ? [lifeline, noLifeline] : [noLifeline, lifeline];
		for (const which of pair) (which === lifeline ? withTimes : withoutTimes).push(await spawnLatency(which));
	}
	const sweeps: number[] = [];
	let processes = 0;
	for (let i = 0; i < 10; i++) {
		const start = performance.now();
		// A marker no process carries and no group: nothing is stopped, the cost is the listing.
		stopAndKillFamily("PI_NATIVE_SUBAGENTS_RUN=bench/1\0", []);
		sweeps.push(performance.now() - start);
		processes = processTable().length;
	}
	const withMs = median(withTimes);
	const withoutMs = median(withoutTimes);
	return {
		runs,
		withMs,
		withoutMs,
		ratio: withMs / withoutMs,
		firstRegistrationMs,
		sweepMs: median(sweeps),
		processes,
	};
}
