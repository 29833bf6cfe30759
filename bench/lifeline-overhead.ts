/**
 * What tying children to Pi's life costs (SECURITY.md, "Processes"): spawn latency with the child
 * registered with the parent-death watchdog next to the same spawn unregistered, alternating in the same
 * run, and the cost of one leader-exit sweep of /proc. One entry of bench/benches.ts.
 */
import { type Lifeline, lifeline, noLifeline } from "../src/process/lifeline.ts";
import { processTable, stopAndKillFamily } from "../src/process/proc-table.mjs";
import { startProcess } from "../src/process/start-process.ts";
import type { ChildCommand } from "../src/process/types.ts";
import type { Bench } from "./bench.ts";
import { DEFAULT_LIMITS } from "./defaults.ts";
import { median } from "./stats.ts";
import { fixed } from "./table.ts";
import type { WorkShape } from "./work.ts";

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
	/** What the warm-up spawn of each kind ran. */
	work: { with: WorkShape; without: WorkShape };
}

/** The child both kinds start: one record, then exit. */
const ECHO: ChildCommand = {
	file: "echo",
	args: ["{}"],
	cwd: process.cwd(),
	env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
};

/** ms from startProcess() until `echo {}` delivers its record, and what was started, for the comparison. */
async function spawnLatency(withLifeline: Lifeline): Promise<{ ms: number; ran: WorkShape }> {
	const command = { ...ECHO };
	const limits = DEFAULT_LIMITS.run;
	const start = performance.now();
	let first = 0;
	let records = 0;
	const running = startProcess(command, {
		limits,
		lifeline: withLifeline,
		onRecord: () => {
			first ||= performance.now() - start;
			records++;
		},
		onDiagnostic: () => {},
	});
	await running.done;
	const ran = {
		argv: [command.file, ...command.args],
		env: command.env,
		cwd: command.cwd,
		output: `${records} records`,
		options: { limits: JSON.stringify(limits) },
	};
	return { ms: first, ran };
}

export async function benchLifeline(runs = 40): Promise<LifelineBench> {
	const before = performance.now();
	const unregister = lifeline.register({ command: ["true"] });
	const firstRegistrationMs = performance.now() - before;
	unregister();
	const work = { without: (await spawnLatency(noLifeline)).ran, with: (await spawnLatency(lifeline)).ran };
	const withTimes: number[] = [];
	const withoutTimes: number[] = [];
	// ABBA order, so neither side always runs right after the other.
	for (let i = 0; i < runs; i++) {
		const pair = i % 2 === 0 ? [lifeline, noLifeline] : [noLifeline, lifeline];
		for (const which of pair) (which === lifeline ? withTimes : withoutTimes).push((await spawnLatency(which)).ms);
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
		work,
	};
}

/** `npm run bench`'s row for what the lifeline adds to a spawn. */
export const lifelineBench: Bench = {
	rows: ["spawn latency, lifeline"],
	async run(size) {
		const life = await benchLifeline(size === "smoke" ? 1 : 40);
		const detail =
			`lifeline, ${life.runs} alternating spawns of \`echo {}\` (startProcess → first record): registered with the watchdog ` +
			`${fixed(life.withMs, 2)} ms, unregistered ${fixed(life.withoutMs, 2)} ms, ratio ${fixed(life.ratio, 2)}; ` +
			`first registration (starts the watchdog, once per Pi process) ${fixed(life.firstRegistrationMs, 2)} ms; ` +
			`one leader-exit sweep of ${life.processes} processes (blocks the event loop) ${fixed(life.sweepMs, 2)} ms`;
		const row = {
			name: "spawn latency, lifeline",
			value: `${fixed(life.withMs, 2)} ms`,
			baseline: `${fixed(life.withoutMs, 2)} ms`,
			ratio: life.ratio,
			meaning: "registered with the watchdog ÷ unregistered; 1.00 = free",
			// The same command and limits through the same startProcess; only the lifeline differs.
			work: [{ measured: life.work.with, baseline: life.work.without }],
		};
		return { detail, rows: [row] };
	},
};
