/**
 * Parallel efficiency (issue 3 item 9): how close a parallel call comes to ideal scheduling.
 *
 * - **Value**: wall time, ms, of one `subagent({ tasks })` call with `tasks` (default 8) tasks at the package's
 *   default concurrency (setting `limits.concurrency`), made by the parent model in a real in-process Pi session with this extension loaded
 *   (test/support/e2e-env.ts), every child a real pi process whose model reply the fake server delays by
 *   `delayMs` (default 1500 ms).
 * - **Baseline**: the ideal for that call, ms: waves × the wall time of a single-task call with the same delay,
 *   measured in the same run, where waves = ⌈tasks ÷ concurrency⌉ (2 for 8 tasks at 4).
 * - **Ratio**: value ÷ baseline. 1.00 is perfect: each wave of 4 children costs what one child costs alone.
 *   Above 1 is the price of starting 4 pi processes at once on this machine's cores (CPU contention during
 *   their start-up) plus the scheduler's hand-off between waves; well above 1 would mean the waves are
 *   serialized somewhere.
 *
 * Medians of a few alternating runs of each call are used. One untimed single call and one untimed parallel
 * call warm up first, with their launches recorded: every child of the parallel call must run what the
 * single call's child ran (command, environment, cwd; the task text aside), which `npm run bench` checks.
 */
import { availableParallelism } from "node:os";
import type { SubagentDetails } from "../src/core/details.ts";
import { type E2eEnv, startE2eEnv } from "../test/support/e2e-env.ts";
import { peakInFlight } from "../test/support/request-log.ts";
import type { Bench } from "./bench.ts";
import { DEFAULT_LIMITS } from "./defaults.ts";
import { LAUNCH_NORMALIZATION, recordPiLaunches, taskOfRpcInput } from "./launch.ts";
import { median } from "./stats.ts";
import { fixed } from "./table.ts";
import type { WorkComparison } from "./work.ts";

const AGENT = "echo";
/** Children of one call running at once: the package's default (setting `limits.concurrency`, docs/settings.md §Settings file). */
const CONCURRENCY = DEFAULT_LIMITS.concurrency;

export interface ParallelEfficiencyOptions {
	/** Tasks in the parallel call; default 8 (the default maximum). */
	tasks?: number;
	/** Delay of every child's model reply, ms; default 1500. */
	delayMs?: number;
	/** Measured runs of each call; default 3. */
	runs?: number;
}

export interface ParallelEfficiencyBench {
	tasks: number;
	concurrency: number;
	delayMs: number;
	runs: number;
	/** ⌈tasks ÷ concurrency⌉. */
	waves: number;
	/** Median wall time of the single-task call, ms. */
	singleMs: number;
	/** Median wall time of the parallel call, ms. */
	parallelMs: number;
	/** waves × singleMs, ms. */
	idealMs: number;
	/** parallelMs ÷ idealMs. */
	ratio: number;
	/** Median `RunResult.durationMs` of the single-task call's child, ms. */
	singleChildMs: number;
	/** Median `RunResult.durationMs` over all children of the parallel calls, ms: above singleChildMs by what contention costs each child. */
	parallelChildMs: number;
	/** Most model requests the fake server saw in flight at once during the parallel calls. */
	peakInFlight: number;
	/** Logical CPUs of this machine (`os.availableParallelism()`). */
	cpus: number;
	/** Each child of the recorded parallel call next to the recorded single call's child. */
	work: WorkComparison[];
}

/**
 * Measures {@link ParallelEfficiencyBench}.
 * @throws Error when any child of either call does not complete with the scripted answer.
 */
export async function benchParallelEfficiency(
	options: ParallelEfficiencyOptions = {},
): Promise<ParallelEfficiencyBench> {
	const tasks = options.tasks ?? 8;
	const delayMs = options.delayMs ?? 1500;
	const runs = options.runs ?? 3;
	const env = await startE2eEnv({
		agents: { [AGENT]: { description: "Answers plainly", body: "You answer plainly." } },
	});
	try {
		env.server.route((request) => ({ text: `done: ${request.lastUserText}`, delayMs }));
		const work = await recordedWarmUp(env, tasks);
		const single: number[] = [];
		const parallel: number[] = [];
		const singleChild: number[] = [];
		const parallelChild: number[] = [];
		let peakRequests = 0;
		for (let run = 0; run < runs; run++) {
			const alone = await timeCall(env, [`single ${run}`]);
			single.push(alone.ms);
			singleChild.push(...alone.childMs);
			const before = env.server.requests.length;
			const together = await timeCall(
				env,
				Array.from({ length: tasks }, (_, i) => `parallel ${run} task ${i + 1}`),
			);
			parallel.push(together.ms);
			parallelChild.push(...together.childMs);
			peakRequests = Math.max(peakRequests, peakInFlight(env.server.requests.slice(before)));
		}
		const waves = Math.ceil(tasks / CONCURRENCY);
		const singleMs = median(single);
		const parallelMs = median(parallel);
		const idealMs = waves * singleMs;
		return {
			tasks,
			concurrency: CONCURRENCY,
			delayMs,
			runs,
			waves,
			singleMs,
			parallelMs,
			idealMs,
			ratio: parallelMs / idealMs,
			singleChildMs: median(singleChild),
			parallelChildMs: median(parallelChild),
			peakInFlight: peakRequests,
			cpus: availableParallelism(),
			work,
		};
	} finally {
		await env.close();
	}
}

/**
 * One `subagent` call: single mode for one task, parallel mode otherwise. Returns its wall time and each
 * child's `RunResult.durationMs`, ms.
 */
async function timeCall(env: E2eEnv, taskTexts: string[]): Promise<{ ms: number; childMs: number[] }> {
	const args =
		taskTexts.length === 1
			? { agent: AGENT, task: taskTexts[0] }
			: { tasks: taskTexts.map((task) => ({ agent: AGENT, task })) };
	const started = performance.now();
	const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", args);
	const ms = performance.now() - started;
	const answers = result.details?.children.map((child) => child.result?.finalAnswer) ?? [];
	const ok = answers.length === taskTexts.length && answers.every((answer, i) => answer?.endsWith(taskTexts[i] ?? ""));
	if (isError || !ok) throw new Error(`subagent call failed: ${JSON.stringify(result.content)}`);
	return { ms, childMs: result.details.children.map((child) => child.result?.durationMs ?? 0) };
}

/**
 * One single call and one parallel call of `tasks` tasks, untimed, with every pi child recorded; returns each
 * parallel child's launch next to the single child's (task texts read as `<task>`).
 */
async function recordedWarmUp(env: E2eEnv, tasks: number): Promise<WorkComparison[]> {
	const single = "warm-up single";
	const parallel = Array.from({ length: tasks }, (_, i) => `warm-up parallel task ${i + 1}`);
	const { launches } = await recordPiLaunches(async () => {
		await timeCall(env, [single]);
		await timeCall(env, parallel);
	});
	const read = (launch: (typeof launches)[number]) => ({ ...launch, input: taskOfRpcInput(launch.input) });
	const [alone, ...together] = launches.map(read);
	if (!alone || together.length !== tasks)
		throw new Error(`expected ${tasks + 1} recorded launches, got ${launches.length}`);
	const intended = [
		...(LAUNCH_NORMALIZATION.intended ?? []),
		...[single, ...parallel].map((task) => ({ pattern: new RegExp(`^${task}$`), as: "<task>" })),
	];
	return together.map((child) => ({
		measured: child,
		baseline: alone,
		intended,
		envOnlyOneSide: LAUNCH_NORMALIZATION.envOnlyOneSide,
	}));
}

/** `npm run bench`'s row for how close a parallel call comes to ideal scheduling. */
export const parallelBench: Bench = {
	rows: ["parallel efficiency"],
	async run(size) {
		const parallel = await benchParallelEfficiency(
			size === "smoke" ? { tasks: 2, delayMs: 0, runs: 1 } : { tasks: 8, delayMs: 1500, runs: 3 },
		);
		const detail =
			`parallel efficiency, ${parallel.tasks} tasks at concurrency ${parallel.concurrency}, model reply delayed ${parallel.delayMs} ms, ` +
			`medians of ${parallel.runs}: parallel call ${fixed(parallel.parallelMs)} ms, single-task call ${fixed(parallel.singleMs)} ms, ` +
			`ideal ${parallel.waves} × single = ${fixed(parallel.idealMs)} ms, ratio ${fixed(parallel.ratio, 2)} ` +
			`(peak ${parallel.peakInFlight} model requests in flight, ${parallel.cpus} CPUs)\n` +
			`  1.00 = each wave of ${parallel.concurrency} children costs one child's time. A child took ${fixed(parallel.parallelChildMs)} ms in the parallel call ` +
			`vs ${fixed(parallel.singleChildMs)} ms alone: ${parallel.concurrency} pi start-ups share ${parallel.cpus} CPUs; ` +
			`the rest is the scheduler's hand-off between waves`;
		const row = {
			name: "parallel efficiency",
			value: `${fixed(parallel.parallelMs)} ms`,
			baseline: `${fixed(parallel.idealMs)} ms`,
			ratio: parallel.ratio,
			meaning: `${parallel.tasks} tasks @${parallel.concurrency} ÷ ${parallel.waves} × single call; 1.00 = perfect`,
			work: parallel.work,
		};
		return { detail, rows: [row] };
	},
};
