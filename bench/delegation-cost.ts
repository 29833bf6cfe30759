/**
 * Delegation cost (issue 21 item 2): one whole pi run that delegates once through this package, against the same
 * run through Pi's official subagent example (`examples/extensions/subagent` of the pinned Pi).
 *
 * - **What runs**: `pi --mode json -p --no-session -e <extension>`, this package installed as users get it
 *   (bench/installed-package.ts), whose fake model calls
 *   `subagent({ agent: "echo", task: "delegation probe" })` (the same single call both tools take), the child
 *   (a real pi) answers with the echo model, and the parent answers `Tool said: …`. Both parents find the
 *   same agent file in the same isolated pi home, against the same fake model server.
 * - **Value / baseline**: medians over alternating pairs (after one warm-up each) of
 *   wall time (ms, the parent's start to its exit), CPU time (ms, user + system of every process of the
 *   run, the child and anything that outlives the parent included: `bench/support/tree-usage.py` runs the
 *   parent as a child subreaper) and the parent's peak RSS (MB, its VmHWM).
 * - **Ratio**: median of the per-pair ratios, ours ÷ official; the goal is ≤ 1.00 in wall and CPU time and
 *   ≤ 1.05 in peak RSS. The detail line gives each ratio's range and how many processes each run had.
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { resolvePiInvocation } from "../src/harness/pi/invocation.ts";
import { startFakeModelServer } from "../test/support/fake-model/index.ts";
import { createPiHome } from "../test/support/pi-home.ts";
import type { Bench } from "./bench.ts";
import { installedPackage } from "./installed-package.ts";
import { alternatingPairs, median } from "./stats.ts";
import { fixed } from "./table.ts";
import type { WorkComparison, WorkShape } from "./work.ts";

const ROOT = join(import.meta.dirname, "..");
/** Pi's official subagent example, as the pinned Pi ships it. */
export const OFFICIAL_EXAMPLE = join(
	ROOT,
	...["node_modules", "@earendil-works", "pi-coding-agent", "examples", "extensions", "subagent", "index.ts"],
);
const TREE_USAGE = join(import.meta.dirname, "support", "tree-usage.py");
/** Fake-model rule (test/support/fake-model/rules.ts): one `subagent` call, then `Tool said: <its output>`. */
const TASK = 'TOOL:subagent:{"agent":"echo","task":"delegation probe"}';
/**
 * Alternating pairs a full run measures: 31, as the per-pair ratios spread about ±10–20% on a 2-core machine and the
 * goal is a ratio near 1 (9 pairs moved the median by up to 0.06 between back-to-back runs, 15 pairs by about ±0.03).
 */
const PAIRS = 31;
/** What both parents answer with: the child's echo answer came back through the tool. */
const ANSWER = "Tool said: echo:";

/** What one run cost (tree-usage.py's report). */
export interface RunCost {
	wallMs: number;
	cpuMs: number;
	peakRssMB: number;
	/** Processes of the run's tree, the parent included. */
	processes: number;
}

/** One kind of figure over the pairs. */
export interface CostFigures {
	oursMedian: number;
	officialMedian: number;
	/** Median of the per-pair ratios ours ÷ official. */
	ratio: number;
	range: [number, number];
}

export interface DelegationCostBench {
	runs: number;
	wall: CostFigures;
	cpu: CostFigures;
	rss: CostFigures;
	/** Processes per run (median): ours, official. */
	processes: [number, number];
	work: WorkComparison;
}

/**
 * Runs `argv` under tree-usage.py in `cwd` with `env`; resolves with its cost once every process of it is gone.
 * @throws Error with the stderr tail when it does not exit 0 with `ANSWER` in its output.
 */
export function runMeasured(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<RunCost> {
	const child = spawn("python3", [TREE_USAGE, ...argv], { cwd, env, stdio: ["ignore", "pipe", "pipe", "pipe"] });
	let stdout = "";
	let stderr = "";
	let report = "";
	child.stdout?.setEncoding("utf8").on("data", (text: string) => {
		stdout += text;
	});
	child.stderr?.setEncoding("utf8").on("data", (text: string) => {
		stderr += text;
	});
	child.stdio[3]?.on("data", (data: Buffer) => {
		report += data.toString("utf8");
	});
	return new Promise((resolve, reject) => {
		child.once("error", reject);
		child.once("close", (code) => {
			if (code !== 0 || report === "" || !stdout.includes(ANSWER)) {
				reject(new Error(`${argv.join(" ")} failed (exit ${code}): ${stderr.slice(-2000)}`));
				return;
			}
			const cost = JSON.parse(report) as { wallMs: number; cpuMs: number; peakRssKiB: number; processes: number };
			resolve({ wallMs: cost.wallMs, cpuMs: cost.cpuMs, peakRssMB: cost.peakRssKiB / 1024, processes: cost.processes });
		});
	});
}

/**
 * Measures {@link DelegationCostBench} over `runs` alternating pairs after one warm-up of each kind.
 * @throws Error when a run fails (see {@link runMeasured}).
 */
export async function benchDelegationCost(runs = PAIRS): Promise<DelegationCostBench> {
	const server = await startFakeModelServer({ fallback: "rules" });
	const home = createPiHome(server, {
		agents: { echo: { description: "Answers plainly", body: "You answer plainly." } },
	});
	try {
		const cwd = join(home.dir, "work");
		mkdirSync(cwd);
		const env = { ...process.env, ...home.env };
		const invocation = resolvePiInvocation();
		const argv = (extension: string) => [
			invocation.file,
			...invocation.args,
			...["--mode", "json", "-p", "--no-session", "-e", extension, TASK],
		];
		const ours = installedPackage(home.dir);
		const run = (extension: string) => runMeasured(argv(extension), cwd, env);
		await run(ours);
		await run(OFFICIAL_EXAMPLE);
		const pairs = await alternatingPairs(
			runs,
			() => run(ours),
			() => run(OFFICIAL_EXAMPLE),
		);
		const shape = (extension: string): WorkShape => ({
			argv: argv(extension),
			env: env as Record<string, string>,
			cwd,
			input: TASK,
			output: ANSWER,
		});
		return {
			runs,
			wall: figures(pairs, "wallMs"),
			cpu: figures(pairs, "cpuMs"),
			rss: figures(pairs, "peakRssMB"),
			processes: [median(pairs.map((p) => p.measured.processes)), median(pairs.map((p) => p.baseline.processes))],
			work: {
				measured: shape(ours),
				baseline: shape(OFFICIAL_EXAMPLE),
				intended: [OFFICIAL_EXAMPLE, ours].map((path) => ({
					pattern: new RegExp(`^${literal(path)}$`),
					as: "<extension>",
				})),
			},
		};
	} finally {
		await home.cleanup();
		await server.close();
	}
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function figures(
	pairs: ReadonlyArray<{ measured: RunCost; baseline: RunCost }>,
	key: "wallMs" | "cpuMs" | "peakRssMB",
): CostFigures {
	const ratios = pairs.map((pair) => pair.measured[key] / pair.baseline[key]);
	return {
		oursMedian: median(pairs.map((pair) => pair.measured[key])),
		officialMedian: median(pairs.map((pair) => pair.baseline[key])),
		ratio: median(ratios),
		range: [Math.min(...ratios), Math.max(...ratios)],
	};
}

const KINDS = [
	{ name: "wall", key: "wall", unit: "ms", goal: "≤ 1.00" },
	{ name: "CPU", key: "cpu", unit: "ms", goal: "≤ 1.00" },
	{ name: "peak RSS", key: "rss", unit: "MB", goal: "≤ 1.05" },
] as const;

/** `npm run bench`'s rows: a single delegation through this package ÷ through Pi's official subagent example. */
export const delegationBench: Bench = {
	rows: KINDS.map((kind) => `delegation vs official example, ${kind.name}`),
	async run(size) {
		const cost = await benchDelegationCost(size === "smoke" ? 1 : PAIRS);
		const describe = (kind: (typeof KINDS)[number]) => {
			const f = cost[kind.key];
			return (
				`${kind.name} ${fixed(f.oursMedian)} ${kind.unit} ours, ${fixed(f.officialMedian)} ${kind.unit} official, ` +
				`per-pair ratios ${fixed(f.range[0], 2)}–${fixed(f.range[1], 2)}, median ${fixed(f.ratio, 2)} (goal ${kind.goal})`
			);
		};
		const detail =
			`single delegation, whole pi -p run, ${cost.runs} alternating pairs after a warm-up (processes per run: ` +
			`${cost.processes[0]} ours, ${cost.processes[1]} official):\n` +
			KINDS.map((kind) => `  ${describe(kind)}`).join("\n");
		const rows = KINDS.map((kind) => ({
			name: `delegation vs official example, ${kind.name}`,
			value: `${fixed(cost[kind.key].oursMedian)} ${kind.unit}`,
			baseline: `${fixed(cost[kind.key].officialMedian)} ${kind.unit}`,
			ratio: cost[kind.key].ratio,
			meaning: `one subagent call, this package ÷ Pi's subagent example (median of pairs); goal ${kind.goal}`,
			work: [cost.work],
		}));
		return { detail, rows };
	},
};
