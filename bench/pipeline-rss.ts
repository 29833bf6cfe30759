/**
 * Parent RSS through the whole run pipeline (docs/benchmarks.md): a real in-process Pi session with
 * this extension loaded (test/support/e2e-env.ts) calls `subagent`, and the child is a stand-in for pi
 * (test/support/fault-cli/pi-flood.mjs) streaming pi-shaped text deltas and message ends. Everything the
 * tool does runs: spawn, framing, the pi parser, RunState, the scheduler, the tool's throttled progress
 * updates (bounded copies of the live children, `childDetails`), the result text and the artifact. One entry
 * of bench/benches.ts.
 */
import { fileURLToPath } from "node:url";
import type { SubagentDetails } from "../src/core/details.ts";
import { PI_COMMAND_ENV as COMMAND_ENV } from "../src/harness/pi/invocation.ts";
import { startE2eEnv } from "../test/support/e2e-env.ts";
import type { Bench } from "./bench.ts";
import { fixed } from "./table.ts";

const FLOOD = fileURLToPath(new URL("../test/support/fault-cli/pi-flood.mjs", import.meta.url));

export interface PipelineRssBench {
	/** Bytes the child wrote, from its final answer. */
	bytes: number;
	/** Parent RSS just before the call (after a 1 MB warm-up call), MB (10^6 bytes). */
	baselineRssMB: number;
	/** Highest parent RSS sampled during the call, MB. */
	peakRssMB: number;
	/** peakRssMB − baselineRssMB, MB (goal ≤ 64 for 500 MB). */
	growthMB: number;
	seconds: number;
}

/** One `subagent` call whose child streams `megabytes` MB; returns the bytes the child wrote. */
async function floodCall(
	env: Awaited<ReturnType<typeof startE2eEnv>>,
	megabytes: number,
	messageBytes: number,
	sample: () => void,
) {
	process.env[COMMAND_ENV] = JSON.stringify([process.execPath, FLOOD, String(megabytes), String(messageBytes)]);
	const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
		agent_type: "pi",
		task: "flood",
	});
	sample();
	const child = result.details?.children[0]?.result;
	if (isError || !child || !/^flood done: \d+ bytes$/.test(child.finalAnswer)) {
		throw new Error(`flood call failed: ${JSON.stringify(result.content).slice(0, 500)}`);
	}
	return Number(/\d+/.exec(child.finalAnswer)?.[0]);
}

/**
 * Measures {@link PipelineRssBench}: RSS sampled every 10 ms while one child streams `megabytes` MB.
 * @throws Error when the call does not complete with the child's final answer.
 */
export async function benchPipelineRss(megabytes = 500, messageBytes = 256 * 1024): Promise<PipelineRssBench> {
	const saved = process.env[COMMAND_ENV];
	const env = await startE2eEnv({ keepUpdates: false });
	try {
		await floodCall(env, 1, messageBytes, () => {});
		const baseline = process.memoryUsage.rss();
		let peak = baseline;
		const sample = () => {
			peak = Math.max(peak, process.memoryUsage.rss());
		};
		const sampler = setInterval(sample, 10);
		const started = performance.now();
		const bytes = await floodCall(env, megabytes, messageBytes, sample).finally(() => clearInterval(sampler));
		return {
			bytes,
			baselineRssMB: baseline / 1e6,
			peakRssMB: peak / 1e6,
			growthMB: (peak - baseline) / 1e6,
			seconds: (performance.now() - started) / 1000,
		};
	} finally {
		await env.close();
		if (saved === undefined) delete process.env[COMMAND_ENV];
		else process.env[COMMAND_ENV] = saved;
	}
}

/** `npm run bench`'s row for the parent's memory through the whole run pipeline. */
export const pipelineRssBench: Bench = {
	rows: ["parent RSS, run pipeline"],
	async run(size) {
		const pipeline = await benchPipelineRss(size === "smoke" ? 5 : 500);
		const detail =
			`whole run pipeline (in-process Pi session → subagent tool → pi stand-in streaming ${fixed(pipeline.bytes / 1e6, 0)} MB of ` +
			`text deltas and 256 KiB message ends) in ${fixed(pipeline.seconds)} s: parent RSS ${fixed(pipeline.baselineRssMB)} → ` +
			`peak ${fixed(pipeline.peakRssMB)} MB (growth ${fixed(pipeline.growthMB)} MB, goal ≤ 64)`;
		const row = {
			name: "parent RSS, run pipeline",
			value: `${fixed(pipeline.peakRssMB)} MB`,
			baseline: `${fixed(pipeline.baselineRssMB)} MB`,
			ratio: pipeline.peakRssMB / pipeline.baselineRssMB,
			meaning: `peak ÷ RSS before the call; +${fixed(pipeline.growthMB)} MB for ${fixed(pipeline.bytes / 1e6, 0)} MB (goal ≤ 64)`,
			work: { noBaselineRun: "the baseline is this process's RSS just before the call (after a 1 MB warm-up call)" },
		};
		return { detail, rows: [row] };
	},
};
