/**
 * Warm pi children (issue 21 item 3; docs/settings.md §Warm pi children): what a single delegation saves when an
 * idle child of its launch waits.
 *
 * - **Value**: median wall time, ms, of `runChild` of one pi child exactly as `subagent({ agent_type: "pi" })`
 *   launches it (bench/launch.ts), taking the warm child the previous run of that launch left, which has
 *   answered its readiness probe (as it has when the parent model takes a moment between two calls).
 * - **Baseline**: median wall time, ms, of `runChild` of the same launch without warm children (a cold spawn).
 * - **Ratio**: value ÷ baseline, median of alternating pairs; the goal is ≤ 0.5.
 *
 * Both talk to the same fake model server (echo answers, no delay) in the same isolated pi home. The warm-up
 * records one launch of each kind (bench/launch.ts `recordPiLaunches`): the warm child's command, environment,
 * cwd and task are checked to be the cold child's.
 */
import { ProjectTrustStore } from "@earendil-works/pi-coding-agent";
import { runChild } from "../src/runs/run-child.ts";
import { WarmChildren } from "../src/runs/warm-children.ts";
import { startE2eEnv } from "../test/support/e2e-env.ts";
import type { Bench } from "./bench.ts";
import { type BuiltLaunch, buildLaunch, LAUNCH_NORMALIZATION, recordPiLaunches, taskOfRpcInput } from "./launch.ts";
import { alternatingPairs, median } from "./stats.ts";
import { fixed } from "./table.ts";
import type { WorkComparison } from "./work.ts";

const TASK = "warm child probe";

export interface WarmChildrenBench {
	runs: number;
	/** Median wall time of a run that took a ready warm child, ms. */
	warmMs: number;
	/** Median wall time of a cold run, ms. */
	coldMs: number;
	/** Median of the per-pair ratios warm ÷ cold, and their range. */
	ratio: number;
	range: [number, number];
	work: WorkComparison;
}

/**
 * Runs `launch` (with `pool`, whose warm child it takes) and returns its wall time, ms; then waits, untimed,
 * until the warm child it left has answered its probe.
 * @throws Error when it does not answer, or (with `pool`) did not take a warm child.
 */
async function timed(launch: BuiltLaunch, pool?: WarmChildren): Promise<number> {
	const waiting = pool?.idleChildren()[0]?.pid;
	if (pool && waiting === undefined) throw new Error("no warm child waits");
	const started = performance.now();
	const result = await runChild(launch.spec, launch.adapter, { env: launch.env, warm: pool });
	const wallMs = performance.now() - started;
	if (result.status !== "completed" || result.finalAnswer !== `echo: ${TASK}`) {
		throw new Error(`pi run failed: ${result.status} ${result.error ?? ""} ${result.finalAnswer}`);
	}
	if (pool && result.pid !== waiting) throw new Error(`the run did not take the warm child ${waiting}`);
	await ready(pool);
	return wallMs;
}

/** Waits until the pool's warm child has answered its probe. @throws Error when it died first. */
async function ready(pool: WarmChildren | undefined): Promise<void> {
	const [next] = pool?.idleChildren() ?? [];
	if (pool && !(await next?.ready)) throw new Error("the warm child did not get ready");
}

/**
 * Measures {@link WarmChildrenBench}: `runs` alternating pairs after one recorded warm-up of each kind.
 * @throws Error when a run does not complete with the echo answer or a warm run did not take its warm child.
 */
export async function benchWarmChildren(runs = 9): Promise<WarmChildrenBench> {
	const env = await startE2eEnv();
	const pool = new WarmChildren({ idleTimeoutMs: 600_000, max: 1 });
	try {
		new ProjectTrustStore(env.home.agentDir).set(env.workDir, false);
		const [launch] = await buildLaunch(
			{ agent_type: "pi", task: TASK },
			{ cwd: env.workDir, agentDir: env.home.agentDir, projectTrusted: true },
		);
		if (!launch) throw new Error("the call has no child");
		// Recorded: a cold run, a run that leaves the first warm child, the run that takes it (its launch is the
		// third recorded); the fourth, its successor, is ended unrecorded.
		const { launches } = await recordPiLaunches(async () => {
			await timed(launch);
			await runChild(launch.spec, launch.adapter, { env: launch.env, warm: pool });
			await ready(pool);
			await timed(launch, pool);
			await pool.close();
		});
		const [cold, , warm] = launches;
		if (!cold || !warm) throw new Error(`expected at least 3 recorded launches, got ${launches.length}`);
		const work = {
			measured: { ...warm, input: taskOfRpcInput(warm.input) },
			baseline: { ...cold, input: taskOfRpcInput(cold.input) },
			...LAUNCH_NORMALIZATION,
		};
		const timedPool = new WarmChildren({ idleTimeoutMs: 600_000, max: 1 });
		try {
			await runChild(launch.spec, launch.adapter, { env: launch.env, warm: timedPool });
			await ready(timedPool);
			const pairs = await alternatingPairs(
				runs,
				() => timed(launch, timedPool),
				() => timed(launch),
			);
			const ratios = pairs.map((pair) => pair.measured / pair.baseline);
			return {
				runs,
				warmMs: median(pairs.map((pair) => pair.measured)),
				coldMs: median(pairs.map((pair) => pair.baseline)),
				ratio: median(ratios),
				range: [Math.min(...ratios), Math.max(...ratios)],
				work,
			};
		} finally {
			await timedPool.close();
		}
	} finally {
		await pool.close();
		await env.close();
	}
}

/** `npm run bench`'s row: a single delegation that takes a warm child ÷ a cold one. */
export const warmChildrenBench: Bench = {
	rows: ["warm vs cold pi child"],
	async run(size) {
		const bench = await benchWarmChildren(size === "smoke" ? 1 : 9);
		const detail =
			`single pi child taking a ready warm child vs a cold spawn, ${bench.runs} alternating pairs after a warm-up: ` +
			`warm ${fixed(bench.warmMs)} ms, cold ${fixed(bench.coldMs)} ms, per-pair ratios ` +
			`${fixed(bench.range[0], 2)}–${fixed(bench.range[1], 2)}, median ${fixed(bench.ratio, 2)} (goal ≤ 0.5)`;
		const row = {
			name: "warm vs cold pi child",
			value: `${fixed(bench.warmMs)} ms`,
			baseline: `${fixed(bench.coldMs)} ms`,
			ratio: bench.ratio,
			meaning: "single delegation, warm child (warm_children on) ÷ cold spawn, wall time (median of pairs); goal ≤ 0.5",
			work: [bench.work],
		};
		return { detail, rows: [row] };
	},
};
