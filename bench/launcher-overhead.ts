/**
 * Launcher overhead (issue 2 item 9): what the extension adds on top of starting the same pi child by hand.
 *
 * - **Value**: median wall time, ms, of one `subagent({ agent, task })` single run made by the parent model in a
 *   real in-process Pi session with this extension loaded (test/support/e2e-env.ts): the parent's turn,
 *   argument preparation, agent discovery, launch resolution, spawn through the process core, framing, event
 *   parsing, the child's exit and drain, and the result text.
 * - **Baseline**: median wall time, ms, of a bare spawn-and-parse of the same child: `node:child_process`
 *   `spawn` of the command `subagent` builds for the same call (bench/launch.ts: the tool's own planning and
 *   adapters; the planning is done before the clock starts), the task written to stdin as pi's RPC prompt
 *   command (stdin closed at `agent_settled`), stdout read to its end split on LF and `JSON.parse`d, until the
 *   process has closed.
 * - **Ratio**: value ÷ baseline; 1.00 means the extension costs nothing measurable over a hand-rolled launch.
 *
 * Both kinds talk to the same fake model server (echo answers, no delay), in the same isolated pi home, and
 * read the same explicit trust decision (the work directory is not trusted, in Pi's trust store). Each kind is
 * warmed up once (pi's compile cache, the page cache) with its launch recorded, so `npm run bench` can check
 * that both ran the same command, environment, cwd and input; then the two kinds alternate so drift on the
 * machine hits both alike.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { ProjectTrustStore } from "@earendil-works/pi-coding-agent";
import type { SubagentDetails } from "../src/core/details.ts";
import type { HarnessCommand } from "../src/core/harness-adapter.ts";
import type { SubagentArgs } from "../src/tools/subagent-schema.ts";
import { type E2eEnv, startE2eEnv } from "../test/support/e2e-env.ts";
import type { Bench } from "./bench.ts";
import { buildLaunch, commandOf, LAUNCH_NORMALIZATION, recordPiLaunches } from "./launch.ts";
import { median } from "./stats.ts";
import { fixed } from "./table.ts";
import type { WorkComparison } from "./work.ts";

const AGENT = "echo";
const TASK = "launcher overhead probe";
/** The call both kinds make. */
const CALL: SubagentArgs = { agent: AGENT, task: TASK };
/** The answer the fake server's echo fallback gives to TASK. */
const ANSWER = `echo: ${TASK}`;
/** Prefix of the baseline's per-run directory, as the process layer names its own (runs/run-child.ts). */
const RUN_DIR_PREFIX = "pi-native-subagents-run-";

export interface LauncherOverheadBench {
	/** Measured runs of each kind (after one recorded warm-up each). */
	runs: number;
	/** Median wall time of a `subagent` single run through the extension, ms. */
	extensionMs: number;
	/** Median `RunResult.durationMs` of those runs (spawn to end as the process core saw it), ms. */
	extensionChildMs: number;
	/** Median wall time of the bare spawn-and-parse of the same command, ms. */
	bareMs: number;
	/** extensionMs ÷ bareMs. */
	ratio: number;
	/** The child command both kinds ran (task as an RPC prompt on stdin). */
	command: string;
	/** What the recorded warm-up of each kind ran. */
	work: WorkComparison;
}

/**
 * Measures {@link LauncherOverheadBench}. One recorded warm-up of each kind (what each really ran, compared
 * by the caller), then `runs` alternating pairs.
 * @throws Error when a run of either kind does not end with the expected answer, or the call would be refused.
 */
export async function benchLauncherOverhead(runs = 15): Promise<LauncherOverheadBench> {
	const env = await startE2eEnv({
		agents: { [AGENT]: { description: "Answers plainly", body: "You answer plainly." } },
	});
	const runDir = mkdtempSync(join(tmpdir(), RUN_DIR_PREFIX));
	try {
		// The explicit trust decision both kinds read (Pi's trust store): the work directory is not trusted.
		new ProjectTrustStore(env.home.agentDir).set(env.workDir, false);
		const bare = () => bareLaunch(env, runDir);
		const recorded = await recordPiLaunches(async () => {
			const viaExtension = await runThroughExtension(env);
			await runBare(await bare());
			return viaExtension.command;
		});
		const [measured, baseline] = recorded.launches;
		if (!measured || !baseline) throw new Error(`expected 2 recorded launches, got ${recorded.launches.length}`);
		const extension: number[] = [];
		const extensionChild: number[] = [];
		const bareTimes: number[] = [];
		let command = recorded.value;
		for (let i = 0; i < runs; i++) {
			const viaExtension = await runThroughExtension(env);
			extension.push(viaExtension.ms);
			extensionChild.push(viaExtension.childMs);
			command = viaExtension.command;
			bareTimes.push(await runBare(await bare()));
		}
		const extensionMs = median(extension);
		const bareMs = median(bareTimes);
		return {
			runs,
			extensionMs,
			extensionChildMs: median(extensionChild),
			bareMs,
			ratio: extensionMs / bareMs,
			command,
			work: { measured, baseline, ...LAUNCH_NORMALIZATION },
		};
	} finally {
		rmSync(runDir, { recursive: true, force: true });
		await env.close();
	}
}

/** The only child of CALL, as `subagent` builds it (bench/launch.ts), in `runDir`. */
async function bareLaunch(env: E2eEnv, runDir: string): Promise<BareLaunch> {
	const [launch] = await buildLaunch(CALL, { cwd: env.workDir, agentDir: env.home.agentDir, projectTrusted: true });
	if (!launch) throw new Error("the call has no child");
	return { ...commandOf(launch, runDir), cwd: launch.spec.cwd };
}

interface BareLaunch {
	command: HarnessCommand;
	env: Record<string, string>;
	cwd: string;
}

async function runThroughExtension(env: E2eEnv): Promise<{ ms: number; childMs: number; command: string }> {
	const started = performance.now();
	const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", { agent: AGENT, task: TASK });
	const ms = performance.now() - started;
	const run = result.details?.children[0]?.result;
	if (isError || run?.finalAnswer !== ANSWER) {
		throw new Error(`extension run failed: ${JSON.stringify(result.content)}`);
	}
	return { ms, childMs: run.durationMs, command: run.command };
}

/**
 * Spawns `command` with plain node:child_process, writes its task to stdin, frames stdout on LF with
 * JSON.parse until the process has closed, and returns the wall time in ms.
 * @throws Error when the child did not exit 0 with the expected final answer.
 */
async function runBare({ command, cwd, env }: BareLaunch): Promise<number> {
	const started = performance.now();
	const child = spawn(command.file, command.args, { cwd, env, stdio: ["pipe", "pipe", "ignore"] });
	// A conversation (pi --mode rpc) takes its task as command lines and ends when stdin closes after the run.
	const startLines = command.conversation?.startLines();
	if (startLines) child.stdin.write(startLines.map((line) => `${line}\n`).join(""));
	else child.stdin.end(command.stdin ?? "");
	const decoder = new StringDecoder("utf8");
	let rest = "";
	let answer = "";
	child.stdout.on("data", (chunk: Buffer) => {
		const lines = (rest + decoder.write(chunk)).split("\n");
		rest = lines.pop() ?? "";
		for (const line of lines) {
			if (line === "") continue;
			const record = JSON.parse(line) as {
				type?: string;
				message?: { role?: string; content?: Array<{ type: string; text?: string }> };
			};
			if (record.type === "agent_settled" && startLines) child.stdin.end();
			if (record.type === "message_end" && record.message?.role === "assistant") {
				answer = (record.message.content ?? []).map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
			}
		}
	});
	const exitCode = await new Promise<number | null>((resolve, reject) => {
		child.once("error", reject);
		child.once("close", resolve);
	});
	const ms = performance.now() - started;
	if (exitCode !== 0 || answer !== ANSWER) {
		throw new Error(`bare run failed: exit ${exitCode}, answer ${JSON.stringify(answer)}`);
	}
	return ms;
}

/** `npm run bench`'s row for what the extension adds to a single run over a bare launch of the same child. */
export const launcherBench: Bench = {
	rows: ["launcher overhead"],
	async run(size) {
		const launcher = await benchLauncherOverhead(size === "smoke" ? 1 : 15);
		const detail =
			`launcher overhead, ${launcher.runs} alternating runs each after a warm-up: subagent single run ${fixed(launcher.extensionMs)} ms ` +
			`(child ${fixed(launcher.extensionChildMs)} ms of it), bare spawn-and-parse ${fixed(launcher.bareMs)} ms, ` +
			`ratio ${fixed(launcher.ratio, 2)}\n  child: ${launcher.command} (task as an RPC prompt on stdin)`;
		const row = {
			name: "launcher overhead",
			value: `${fixed(launcher.extensionMs)} ms`,
			baseline: `${fixed(launcher.bareMs)} ms`,
			ratio: launcher.ratio,
			meaning: "subagent single run ÷ bare spawn of the same pi child; 1.00 = free",
			work: [launcher.work],
		};
		return { detail, rows: [row] };
	},
};
