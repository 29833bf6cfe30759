/**
 * pi children in RPC mode vs JSON mode (docs/harness-support.md §How each CLI is driven): does keeping stdin open for
 * steering cost anything on a plain single delegation?
 *
 * - **Value**: median wall time, ms, of `runChild` of one pi child exactly as `subagent({ agent_type: "pi" })`
 *   launches it (bench/launch.ts: the tool's planning, adapter and child environment): `--mode rpc`, the task as
 *   an RPC `prompt` command, stdin closed at `agent_settled`.
 * - **Baseline**: median wall time, ms, of `runChild` of the same child with the adapter's command switched to
 *   `--mode json` and the task piped on stdin (then closed), which is how pi children were started before RPC
 *   mode.
 * - **Ratio**: value ÷ baseline; ≤ 1.00 means RPC mode is no slower.
 *
 * Both go through the same process layer and parser, talk to the same fake model server (echo answers, no
 * delay) in the same isolated pi home, read the same explicit trust decision (the work directory is not
 * trusted, in Pi's trust store), are warmed up once with their launches recorded (the same command but for
 * the mode, environment, cwd and task: checked) and then alternate so drift hits both alike.
 */
import { ProjectTrustStore } from "@earendil-works/pi-coding-agent";
import type { HarnessAdapter } from "../src/core/harness-adapter.ts";
import { runChild } from "../src/runs/run-child.ts";
import { startE2eEnv } from "../test/support/e2e-env.ts";
import type { Bench } from "./bench.ts";
import { type BuiltLaunch, buildLaunch, LAUNCH_NORMALIZATION, recordPiLaunches, taskOfRpcInput } from "./launch.ts";
import { median } from "./stats.ts";
import { fixed } from "./table.ts";
import type { WorkComparison } from "./work.ts";

const TASK = "rpc mode probe";

export interface PiRpcModeBench {
	runs: number;
	/** Median wall time of a run in RPC mode, ms. */
	rpcMs: number;
	/** Median wall time of the same run in JSON mode, ms. */
	jsonMs: number;
	/** rpcMs ÷ jsonMs. */
	ratio: number;
	/** What the recorded warm-up of each mode ran (the RPC side's input read as its task). */
	work: WorkComparison;
}

/** The pi adapter's command switched back to `--mode json` with the task piped on stdin. */
function jsonModeAdapter(pi: HarnessAdapter): HarnessAdapter {
	return {
		...pi,
		buildCommand(spec, runDir) {
			const command = pi.buildCommand(spec, runDir);
			const args = command.args.map((arg, i) => (command.args[i - 1] === "--mode" ? "json" : arg));
			return { file: command.file, args, env: command.env, stdin: spec.task };
		},
	};
}

/** Runs `launch` with `adapter` and returns its wall time, ms. @throws Error when it does not answer. */
async function timed(launch: BuiltLaunch, adapter: HarnessAdapter): Promise<number> {
	const started = performance.now();
	const result = await runChild(launch.spec, adapter, { env: launch.env });
	if (result.status !== "completed" || result.finalAnswer !== `echo: ${TASK}`) {
		throw new Error(`pi run failed: ${result.status} ${result.error ?? ""} ${result.finalAnswer}`);
	}
	return performance.now() - started;
}

/**
 * Measures {@link PiRpcModeBench}: `runs` alternating pairs after one recorded warm-up of each mode.
 * @throws Error when a run of either mode does not complete with the echo answer.
 */
export async function benchPiRpcMode(runs = 10): Promise<PiRpcModeBench> {
	const env = await startE2eEnv();
	try {
		new ProjectTrustStore(env.home.agentDir).set(env.workDir, false);
		const [launch] = await buildLaunch(
			{ agent_type: "pi", task: TASK },
			{ cwd: env.workDir, agentDir: env.home.agentDir, projectTrusted: true },
		);
		if (!launch) throw new Error("the call has no child");
		const json = jsonModeAdapter(launch.adapter);
		const { launches } = await recordPiLaunches(async () => {
			await timed(launch, launch.adapter);
			await timed(launch, json);
		});
		const [rpcRun, jsonRun] = launches;
		if (!rpcRun || !jsonRun) throw new Error(`expected 2 recorded launches, got ${launches.length}`);
		const work = {
			measured: { ...rpcRun, input: taskOfRpcInput(rpcRun.input) },
			baseline: jsonRun,
			intended: [...(LAUNCH_NORMALIZATION.intended ?? []), { pattern: /^(rpc|json)$/, as: "<mode>" }],
			envOnlyOneSide: LAUNCH_NORMALIZATION.envOnlyOneSide,
		};
		const rpcTimes: number[] = [];
		const jsonTimes: number[] = [];
		for (let i = 0; i < runs; i++) {
			rpcTimes.push(await timed(launch, launch.adapter));
			jsonTimes.push(await timed(launch, json));
		}
		const rpcMs = median(rpcTimes);
		const jsonMs = median(jsonTimes);
		return { runs, rpcMs, jsonMs, ratio: rpcMs / jsonMs, work };
	} finally {
		await env.close();
	}
}

/** `npm run bench`'s row for pi's RPC mode next to its JSON mode. */
export const piRpcModeBench: Bench = {
	rows: ["pi RPC vs JSON mode"],
	async run(size) {
		const rpcMode = await benchPiRpcMode(size === "smoke" ? 1 : 10);
		const detail =
			`pi child in RPC mode vs JSON mode, ${rpcMode.runs} alternating runs each after a warm-up: ` +
			`rpc ${fixed(rpcMode.rpcMs)} ms, json ${fixed(rpcMode.jsonMs)} ms, ratio ${fixed(rpcMode.ratio, 2)}`;
		const row = {
			name: "pi RPC vs JSON mode",
			value: `${fixed(rpcMode.rpcMs)} ms`,
			baseline: `${fixed(rpcMode.jsonMs)} ms`,
			ratio: rpcMode.ratio,
			meaning: "single pi child, --mode rpc ÷ --mode json; ≤ 1.00 = no slower",
			work: [rpcMode.work],
		};
		return { detail, rows: [row] };
	},
};
