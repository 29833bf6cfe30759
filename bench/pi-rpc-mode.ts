/**
 * pi children in RPC mode vs JSON mode (docs/harness-support.md §How each CLI is driven): does keeping stdin open for
 * steering cost anything on a plain single delegation?
 *
 * - **Value**: median wall time, ms, of `runChild` of one pi child as the extension starts it: `--mode rpc`,
 *   the task as an RPC `prompt` command, stdin closed at `agent_settled`.
 * - **Baseline**: median wall time, ms, of `runChild` of the same child in `--mode json` with the task piped
 *   on stdin (then closed), which is how pi children were started before RPC mode.
 * - **Ratio**: value ÷ baseline; ≤ 1.00 means RPC mode is no slower.
 *
 * Both go through the same process layer and parser, talk to the same fake model server (echo answers, no
 * delay) in the same isolated pi home, are warmed up once and then alternate so drift hits both alike.
 */
import type { HarnessAdapter } from "../src/core/harness-adapter.ts";
import type { LaunchSpec } from "../src/core/launch-spec.ts";
import { createPiAdapter } from "../src/harness/pi/adapter.ts";
import { resolvePiInvocation } from "../src/harness/pi/invocation.ts";
import { runChild } from "../src/runs/run-child.ts";
import { startFakeModelServer } from "../test/support/fake-model/index.ts";
import { createPiHome } from "../test/support/pi-home.ts";
import { median } from "./stats.ts";

export interface PiRpcModeBench {
	runs: number;
	/** Median wall time of a run in RPC mode, ms. */
	rpcMs: number;
	/** Median wall time of the same run in JSON mode, ms. */
	jsonMs: number;
	/** rpcMs ÷ jsonMs. */
	ratio: number;
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

/**
 * Measures {@link PiRpcModeBench}: `runs` alternating pairs after one warm-up of each mode.
 * @throws Error when a run of either mode does not complete with the echo answer.
 */
export async function benchPiRpcMode(runs = 10): Promise<PiRpcModeBench> {
	const server = await startFakeModelServer();
	const home = createPiHome(server);
	try {
		const rpc = createPiAdapter({
			invocation: () => resolvePiInvocation(),
			sessionDir: `${home.dir}/sessions`,
			agentDir: home.agentDir,
		});
		const json = jsonModeAdapter(rpc);
		const env = { ...(process.env as Record<string, string>), ...home.env };
		const spec: LaunchSpec = {
			harness: "pi",
			task: "rpc mode probe",
			cwd: home.dir,
			autoApprove: false,
			projectTrusted: true,
			session: { kind: "new" },
			depth: 1,
			limits: {
				timeoutMs: 60_000,
				killGraceMs: 3_000,
				terminalGraceMs: 2_000,
				drainMs: 1_000,
				maxLineBytes: 16 * 1024 * 1024,
				stderrTailBytes: 16 * 1024,
			},
			provenance: { kind: "ad_hoc" },
		};
		const timed = async (adapter: HarnessAdapter): Promise<number> => {
			const started = performance.now();
			const result = await runChild(spec, adapter, { env });
			if (result.status !== "completed" || result.finalAnswer !== "echo: rpc mode probe") {
				throw new Error(`pi run failed: ${result.status} ${result.error ?? ""} ${result.finalAnswer}`);
			}
			return performance.now() - started;
		};
		const rpcTimes: number[] = [];
		const jsonTimes: number[] = [];
		for (let i = 0; i <= runs; i++) {
			const r = await timed(rpc);
			const j = await timed(json);
			if (i === 0) continue;
			rpcTimes.push(r);
			jsonTimes.push(j);
		}
		const rpcMs = median(rpcTimes);
		const jsonMs = median(jsonTimes);
		return { runs, rpcMs, jsonMs, ratio: rpcMs / jsonMs };
	} finally {
		await server.close();
		home.cleanup();
	}
}
