/**
 * Launcher overhead (issue 2 item 9): what the extension adds on top of starting the same pi child by hand.
 *
 * - **Value**: median wall time, ms, of one `subagent({ agent, task })` single run made by the parent model in a
 *   real in-process Pi session with this extension loaded (test/support/e2e-env.ts): the parent's turn,
 *   argument preparation, agent discovery, launch resolution, spawn through the process core, framing, event
 *   parsing, the child's exit and drain, and the result text.
 * - **Baseline**: median wall time, ms, of a bare spawn-and-parse of the same child: `node:child_process`
 *   `spawn` of the exact command the pi adapter builds (same file, args and environment), the task written to
 *   stdin as pi's RPC prompt command (stdin closed at `agent_settled`), stdout read to its end split on LF and
 *   `JSON.parse`d, until the process has closed.
 * - **Ratio**: value ÷ baseline; 1.00 means the extension costs nothing measurable over a hand-rolled launch.
 *
 * Both kinds talk to the same fake model server (echo answers, no delay), in the same isolated pi home. Each
 * kind is warmed up once (pi's compile cache, the page cache); then the two kinds alternate so drift on the
 * machine hits both alike.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { discoverAgents } from "../src/config/agents.ts";
import { readDepthState } from "../src/config/depth.ts";
import type { SubagentDetails } from "../src/core/details.ts";
import type { HarnessCommand } from "../src/core/harness-adapter.ts";
import type { LaunchSpec, RunLimits } from "../src/core/launch-spec.ts";
import { createPiAdapter } from "../src/harness/pi/adapter.ts";
import { resolvePiInvocation } from "../src/harness/pi/invocation.ts";
import { applyEnvOverrides, buildChildEnv } from "../src/runs/child-env.ts";
import { describeCommand } from "../src/runs/settle.ts";
import { type E2eEnv, startE2eEnv } from "../test/support/e2e-env.ts";
import { median } from "./stats.ts";

const AGENT = "echo";
const TASK = "launcher overhead probe";
/** The answer the fake server's echo fallback gives to TASK. */
const ANSWER = `echo: ${TASK}`;
/** Prefix of the adapter's per-run directory (runs/run-child.ts); its random suffix differs per run. */
const RUN_DIR_PREFIX = "pi-native-subagents-run-";

/** Only the process layer reads limits; buildCommand ignores them. Values of src/index.ts. */
const LIMITS: RunLimits = {
	timeoutMs: 30 * 60_000,
	killGraceMs: 3_000,
	terminalGraceMs: 2_000,
	drainMs: 1_000,
	maxLineBytes: 16 * 1024 * 1024,
	stderrTailBytes: 16 * 1024,
};

export interface LauncherOverheadBench {
	/** Measured runs of each kind (after one warm-up each). */
	runs: number;
	/** Median wall time of a `subagent` single run through the extension, ms. */
	extensionMs: number;
	/** Median `RunResult.durationMs` of those runs (spawn to end as the process core saw it), ms. */
	extensionChildMs: number;
	/** Median wall time of the bare spawn-and-parse of the same command, ms. */
	bareMs: number;
	/** extensionMs ÷ bareMs. */
	ratio: number;
	/** The child command both kinds ran (task as an RPC prompt command on stdin). */
	command: string;
}

/**
 * Measures {@link LauncherOverheadBench}. `runs` alternating pairs follow one warm-up of each kind.
 * @throws Error when a run of either kind does not end with the expected answer, or when the command the
 *   extension ran differs from the one built here (then the baseline would not be the same child).
 */
export async function benchLauncherOverhead(runs = 15): Promise<LauncherOverheadBench> {
	const env = await startE2eEnv({
		agents: { [AGENT]: { description: "Answers plainly", body: "You answer plainly." } },
	});
	const runDir = mkdtempSync(join(tmpdir(), RUN_DIR_PREFIX));
	try {
		const { command, childEnv, cwd } = buildBareCommand(env, runDir);
		const expected = describeRun(command);
		const extension: number[] = [];
		const extensionChild: number[] = [];
		const bare: number[] = [];
		for (let i = 0; i <= runs; i++) {
			const viaExtension = await runThroughExtension(env);
			if (viaExtension.command !== expected) {
				throw new Error(
					`the extension ran a different command than the baseline:\n  extension: ${viaExtension.command}\n  baseline:  ${expected}`,
				);
			}
			const direct = await runBare(command, cwd, childEnv);
			if (i === 0) continue;
			extension.push(viaExtension.ms);
			extensionChild.push(viaExtension.childMs);
			bare.push(direct);
		}
		const extensionMs = median(extension);
		const bareMs = median(bare);
		return {
			runs,
			extensionMs,
			extensionChildMs: median(extensionChild),
			bareMs,
			ratio: extensionMs / bareMs,
			command: expected,
		};
	} finally {
		rmSync(runDir, { recursive: true, force: true });
		await env.close();
	}
}

/**
 * The command, cwd and environment the extension builds for `subagent({ agent: AGENT, task: TASK })`, made
 * from the same pieces src/index.ts and the tool wire together: the agent definition as discovered, a
 * LaunchSpec with the fields the launch layer sets for an agent call (docs/architecture.md; the bench checks the
 * resulting command against the one the extension ran, so a drift shows up as an error, not a wrong
 * baseline), the pi adapter with the same invocation and session dir, and buildChildEnv with the same depth.
 */
function buildBareCommand(
	env: E2eEnv,
	runDir: string,
): { command: HarnessCommand; childEnv: Record<string, string>; cwd: string } {
	const agentDir = env.home.agentDir;
	const agent = discoverAgents({ cwd: env.workDir, agentDir, scope: "user" }).agents.find((a) => a.name === AGENT);
	if (!agent) throw new Error(`agent "${AGENT}" was not discovered in ${agentDir}`);
	const depth = readDepthState(process.env, 1);
	const spec: LaunchSpec = {
		harness: agent.harness,
		task: TASK,
		cwd: env.workDir,
		model: agent.model,
		effort: agent.effort,
		allowedTools: agent.tools,
		autoApprove: false,
		projectTrusted: true,
		systemPromptAddition: agent.systemPrompt || undefined,
		session: { kind: "new" },
		depth: depth.depth + 1,
		limits: LIMITS,
		provenance: { kind: "agent", agentName: agent.name, agentFile: agent.filePath, agentSource: agent.source },
	};
	const adapter = createPiAdapter({
		invocation: () => resolvePiInvocation(),
		sessionDir: join(agentDir, "pi-native-subagents", "sessions"),
		agentDir,
	});
	const command = adapter.buildCommand(spec, runDir);
	const base = buildChildEnv(process.env, { depth: spec.depth, maxDepth: depth.maxDepth });
	return { command, childEnv: applyEnvOverrides(base, command.env), cwd: spec.cwd };
}

async function runThroughExtension(env: E2eEnv): Promise<{ ms: number; childMs: number; command: string }> {
	const started = performance.now();
	const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", { agent: AGENT, task: TASK });
	const ms = performance.now() - started;
	const run = result.details?.children[0]?.result;
	if (isError || run?.finalAnswer !== ANSWER) {
		throw new Error(`extension run failed: ${JSON.stringify(result.content)}`);
	}
	return { ms, childMs: run.durationMs, command: normalizeRunDir(run.command) };
}

/**
 * Spawns `command` with plain node:child_process, writes its task to stdin, frames stdout on LF with
 * JSON.parse until the process has closed, and returns the wall time in ms.
 * @throws Error when the child did not exit 0 with the expected final answer.
 */
async function runBare(command: HarnessCommand, cwd: string, env: Record<string, string>): Promise<number> {
	const started = performance.now();
	const child = spawn(command.file, command.args, { cwd, env, stdio: ["pipe", "pipe", "ignore"] });
	// A conversation (pi --mode rpc) takes its task as command lines and ends when stdin closes after the run.
	const lines = command.conversation?.startLines();
	if (lines) child.stdin.write(lines.map((line) => `${line}\n`).join(""));
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
			if (record.type === "agent_settled" && lines) child.stdin.end();
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

/** RunResult.command's rendering (runs/settle.ts describeCommand), with the run dir normalized. */
function describeRun(command: HarnessCommand): string {
	return normalizeRunDir(describeCommand(command.file, command.args));
}

function normalizeRunDir(command: string): string {
	return command.replace(new RegExp(`${RUN_DIR_PREFIX}[^/]+`, "g"), `${RUN_DIR_PREFIX}*`);
}
