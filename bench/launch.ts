/**
 * Child launches for the benchmarks, made the way `subagent` makes them, and a recorder of what each
 * launch really ran, so a benchmark's baseline can be checked to do the same work as its measured run.
 *
 * `buildLaunch` writes no launch spec by hand: it takes the adapters src/index.ts wires (`createAdapters`, src/harness/adapters.ts), the
 * configuration the extension reads (`ExtensionState`, so the package's default limits unless a settings
 * file says otherwise), the tool's own planning (src/tools/plan-call.ts: mode, launch resolution with the
 * trust gate, each harness's check) and the child environment the scheduler builds (src/runs/run-plan.ts,
 * src/runs/run-child.ts). Trust is read from Pi's trust store, so a benchmark states its decision there.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { hasTrustRequiringProjectResources, ProjectTrustStore } from "@earendil-works/pi-coding-agent";
import { ExtensionState } from "../src/config/extension-state.ts";
import type { HarnessAdapter, HarnessCommand } from "../src/core/harness-adapter.ts";
import type { Harness, LaunchSpec } from "../src/core/launch-spec.ts";
import { Problems } from "../src/core/problems.ts";
import { SessionStartTrust } from "../src/core/session-start-trust.ts";
import { createAdapters } from "../src/harness/adapters.ts";
import { PI_COMMAND_ENV, resolvePiInvocation } from "../src/harness/pi/invocation.ts";
import { ConsentRecord, readApproveFlag } from "../src/launch/trust.ts";
import { RUN_MARKER } from "../src/process/proc-table.mjs";
import { applyEnvOverrides, buildChildEnv, filterEnvironment } from "../src/runs/child-env.ts";
import { LaunchRecords } from "../src/sessions/launch-records.ts";
import { planCall } from "../src/tools/plan-call.ts";
import type { SubagentArgs } from "../src/tools/subagent-schema.ts";
import type { WorkComparison, WorkShape } from "./work.ts";

/** One child of a call as `subagent` would start it. */
export interface BuiltLaunch {
	spec: LaunchSpec;
	adapter: HarnessAdapter;
	/** The child's base environment (before its harness's own variables and the run marker). */
	env: Record<string, string>;
}

/**
 * Plans `args` as a `subagent` call made in a session at `cwd` with Pi's agent dir `agentDir`, from the current
 * `process.env` (which must hold the isolated home), with no UI. `projectTrusted` is what Pi's
 * `ctx.isProjectTrusted()` says for `cwd`.
 * @throws Error listing every problem when the call would be refused.
 */
export async function buildLaunch(
	args: SubagentArgs,
	where: { cwd: string; agentDir: string; projectTrusted: boolean },
): Promise<BuiltLaunch[]> {
	const { cwd, agentDir } = where;
	const adapters = createAdapters(agentDir, process.env, process.getuid?.());
	const config = new ExtensionState(agentDir, process.env, process.cwd());
	config.reload();
	const state = config.toolState();
	if (!state.limits) throw new Error(`the call would be refused: ${state.refusal}`);
	const startTrust = new SessionStartTrust();
	startTrust.record(cwd, "startup", hasTrustRequiringProjectResources(cwd));
	const deps = {
		adapters: adapters.loaded,
		loadAdapters: (harnesses: Iterable<Harness>) => adapters.load(harnesses),
		agentDir,
		sessions: new LaunchRecords(),
		trustStore: new ProjectTrustStore(agentDir),
		approveFlag: readApproveFlag(process.argv),
		startTrust,
		consents: new ConsentRecord(),
	};
	const ui = { confirm: async () => false };
	// The benchmarks' sessions are in memory (test/support/extension-session.ts): no session file to fork from.
	const sessionManager = { getSessionFile: () => undefined };
	const context = { cwd, isProjectTrusted: () => where.projectTrusted, hasUI: false, ui, sessionManager };
	const problems = new Problems();
	const plan = await planCall(deps, state, state.limits, args, context, problems);
	if (!plan) throw new Error(`the call would be refused:\n  ${problems.list.join("\n  ")}`);
	const base = filterEnvironment(process.env, state.environment);
	const { maxDepth } = state.depth;
	return plan.specs.map((spec) => ({
		spec,
		adapter: adapters.loaded[spec.harness] as HarnessAdapter,
		env: buildChildEnv(base, { depth: spec.depth, maxDepth, rosterFile: spec.rosterFile }),
	}));
}

/** The command of `launch` in `runDir`, with the complete environment the child gets from it. */
export function commandOf(
	launch: BuiltLaunch,
	runDir: string,
): { command: HarnessCommand; env: Record<string, string> } {
	const command = launch.adapter.buildCommand(launch.spec, runDir);
	return { command, env: applyEnvOverrides(launch.env, command.env) };
}

/** Per-run directories of the process layer (src/runs/run-child.ts) and of the benchmarks: random names. */
export const RUN_DIR = /pi-native-subagents-run-[^/\s"]+/;

/** What a comparison of two recorded pi launches ignores: the random run directories, the run marker. */
export const LAUNCH_NORMALIZATION: Pick<WorkComparison, "intended" | "envOnlyOneSide"> = {
	intended: [{ pattern: RUN_DIR, as: "pi-native-subagents-run-*" }],
	envOnlyOneSide: [RUN_MARKER],
};

const RECORDER = fileURLToPath(new URL("./launch-recorder.mjs", import.meta.url));

/**
 * Records every pi child started while `during` runs, by whoever starts it (the extension, a benchmark's
 * bare spawn): pi's invocation is pointed at bench/launch-recorder.mjs for that time (`PI_NATIVE_SUBAGENTS_PI_COMMAND`,
 * which `resolvePiInvocation` honours), which logs the command, environment, cwd and stdin of each child it
 * passes on. Both sides of a comparison recorded this way ran the same recorder, so it cancels out.
 */
export async function recordPiLaunches<T>(during: () => Promise<T>): Promise<{ value: T; launches: WorkShape[] }> {
	const dir = mkdtempSync(join(tmpdir(), "bench-launches-"));
	const log = join(dir, "launches.jsonl");
	const pi = resolvePiInvocation();
	const saved = process.env[PI_COMMAND_ENV];
	process.env[PI_COMMAND_ENV] = JSON.stringify([process.execPath, RECORDER, log, pi.file, ...pi.args]);
	try {
		const value = await during();
		const launches = readLog(log).map(({ env, ...rest }) => {
			// The override itself is there only while recording; the timed runs do not have it.
			const { [PI_COMMAND_ENV]: _override, ...kept } = env;
			return { ...rest, env: kept };
		});
		return { value, launches };
	} finally {
		if (saved === undefined) delete process.env[PI_COMMAND_ENV];
		else process.env[PI_COMMAND_ENV] = saved;
		rmSync(dir, { recursive: true, force: true });
	}
}

function readLog(log: string): Array<WorkShape & { env: Record<string, string> }> {
	let text = "";
	try {
		text = readFileSync(log, "utf8");
	} catch {
		return [];
	}
	return text
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line));
}

/**
 * The task text of a pi RPC conversation's input (its `prompt` command; src/harness/pi/rpc.ts), or the input
 * unchanged when it holds none: how two launches that hand pi the task differently are compared.
 */
export function taskOfRpcInput(input: string | undefined): string | undefined {
	for (const line of (input ?? "").split("\n")) {
		try {
			const command = JSON.parse(line) as { type?: string; message?: unknown };
			if (command.type === "prompt" && typeof command.message === "string") return command.message;
		} catch {
			// Not a command line.
		}
	}
	return input;
}
