/**
 * Start-up overhead (issue 12 item 1): what loading this extension adds to a whole pi run.
 *
 * - **Value**: median wall time, ms, of a real `pi --mode json -p --no-session -e <this package>` run in which
 *   the fake model makes one trivial tool call (`read` of a one-line file) and then answers: process start,
 *   extension load, session start, two model requests, the tool call, exit.
 * - **Baseline**: median wall time, ms, of the same run with an empty extension (`export default () => {}`)
 *   instead of this package, so both runs pay Pi's extension loader once.
 * - **Ratio**: median of the per-pair ratios (this package ÷ empty), pairs run back to back in alternating
 *   order so drift on the machine hits both alike; 1.00 = loading the extension is free.
 * - **CPU**: the same figures in CPU time (user + system, ms, of the pi process and its descendants, read
 *   from `/proc/self/stat`'s `cutime`/`cstime` around each run; 10 ms resolution). On a machine shared with
 *   other work, wall times swing with the load while CPU time does not, so the CPU ratio is the steadier one.
 *
 * Both kinds run in the same isolated pi home against the same fake model server; one warm-up of each kind
 * fills Pi's and jiti's caches first. The package is loaded by its directory, as `pi -e <path>` and
 * `pi install` do, so Pi reads `package.json`'s `pi.extensions` exactly as it does for a user; pi itself is
 * the one `subagent` starts (test/support/pi-cli.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeModelServer } from "../test/support/fake-model/index.ts";
import { runPiCli } from "../test/support/pi-cli.ts";
import { createPiHome } from "../test/support/pi-home.ts";
import type { Bench } from "./bench.ts";
import { installedPackage } from "./installed-package.ts";
import { alternatingPairs, median } from "./stats.ts";
import { fixed } from "./table.ts";
import type { WorkComparison, WorkShape } from "./work.ts";

/** Fake-model rule (test/support/fake-model/rules.ts): one `read` call, then `Tool said: <output>`. */
const TASK = 'TOOL:read:{"path":"probe.txt"}';
const ANSWER = "Tool said: startup probe";
/** Linux USER_HZ: the unit of `/proc/<pid>/stat` times (100 on every mainstream kernel build). */
const CLOCK_TICKS = 100;

/** Wall and CPU figures of one kind of run, ms. */
export interface StartupFigures {
	/** Median over the measured runs, this package loaded. */
	extensionMs: number;
	/** Median over the measured runs, the empty extension loaded. */
	emptyMs: number;
	/** Median of the per-pair ratios extension ÷ empty. */
	ratio: number;
	/** Lowest and highest per-pair ratio. */
	range: [number, number];
}

export interface StartupOverheadBench {
	/** Measured pairs (after one warm-up of each kind). */
	runs: number;
	wall: StartupFigures;
	cpu: StartupFigures;
	/** What the warm-up run of each kind ran; the extension loaded reads `<extension>` on both sides. */
	work: WorkComparison;
}

/** One run's wall and CPU time, ms, and what it ran. */
interface RunTimes {
	wallMs: number;
	cpuMs: number;
	ran: WorkShape;
}

/**
 * Measures {@link StartupOverheadBench} over `runs` alternating pairs; `packageDir` is the package loaded
 * (default: this package installed as users get it, bench/installed-package.ts), so another checkout can be
 * measured for comparison.
 * @throws Error when a run does not exit 0 with the expected answer (the stderr tail is in the message).
 */
export async function benchStartupOverhead(runs = 9, given?: string): Promise<StartupOverheadBench> {
	const server = await startFakeModelServer({ fallback: "rules" });
	const home = createPiHome(server);
	try {
		const packageDir = given ?? installedPackage(home.dir);
		const work = join(home.dir, "work");
		mkdirSync(work);
		writeFileSync(join(work, "probe.txt"), "startup probe\n");
		const empty = join(home.dir, "empty-extension.ts");
		writeFileSync(empty, "export default function emptyExtension(): void {}\n");
		const run = (extension: string) => runPi(extension, work, { ...process.env, ...home.env });
		const measured = (await run(packageDir)).ran;
		const baseline = (await run(empty)).ran;
		const intended = [packageDir, empty].map((path) => ({ pattern: path, as: "<extension>" }));
		const pairs = await alternatingPairs(
			runs,
			() => run(packageDir),
			() => run(empty),
		);
		return {
			runs,
			wall: figures(pairs, "wallMs"),
			cpu: figures(pairs, "cpuMs"),
			work: { measured, baseline, intended },
		};
	} finally {
		await home.cleanup();
		await server.close();
	}
}

function figures(
	pairs: ReadonlyArray<{ measured: RunTimes; baseline: RunTimes }>,
	key: "wallMs" | "cpuMs",
): StartupFigures {
	const ratios = pairs.map((pair) => pair.measured[key] / pair.baseline[key]);
	return {
		extensionMs: median(pairs.map((pair) => pair.measured[key])),
		emptyMs: median(pairs.map((pair) => pair.baseline[key])),
		ratio: median(ratios),
		range: [Math.min(...ratios), Math.max(...ratios)],
	};
}

/** CPU time (user + system) of this process's reaped children so far, ms (`/proc/self/stat` fields 16–17). */
function childrenCpuMs(): number {
	const stat = readFileSync("/proc/self/stat", "utf8");
	// Fields after the parenthesised command name; cutime and cstime are fields 16 and 17 (1-based).
	const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
}

/**
 * One pi run with `-e extension`; resolves with its wall and CPU time and what it ran.
 * @throws Error with the stderr tail when it does not exit 0 with the expected answer.
 */
async function runPi(extension: string, cwd: string, env: NodeJS.ProcessEnv): Promise<RunTimes> {
	const cpuBefore = childrenCpuMs();
	const started = performance.now();
	const run = await runPiCli(["--mode", "json", "-p", "--no-session", "-e", extension, TASK], { cwd, env });
	const wallMs = performance.now() - started;
	const answered = run.stdout.includes(ANSWER);
	if (run.code !== 0 || !answered) {
		throw new Error(`pi -e ${extension} failed (exit ${run.code}): ${run.stderr.slice(-2000)}`);
	}
	const ran = { argv: run.argv, env: env as Record<string, string>, cwd, input: TASK, output: ANSWER };
	return { wallMs, cpuMs: childrenCpuMs() - cpuBefore, ran };
}

/** `npm run bench`'s rows for what loading this package adds to a whole pi run, in wall and CPU time. */
export const startupBench: Bench = {
	rows: ["start-up overhead, wall", "start-up overhead, CPU"],
	async run(size) {
		const startup = await benchStartupOverhead(size === "smoke" ? 1 : 9);
		const describe = (kind: string, f: StartupFigures) =>
			`${kind} ${fixed(f.extensionMs)} ms with this package, ${fixed(f.emptyMs)} ms with an empty extension, ` +
			`per-pair ratios ${fixed(f.range[0], 2)}–${fixed(f.range[1], 2)}, median ${fixed(f.ratio, 2)}`;
		const detail =
			`start-up overhead, pi -p with one tool call, ${startup.runs} alternating pairs after a warm-up:\n` +
			`  ${describe("wall", startup.wall)}\n  ${describe("CPU", startup.cpu)}`;
		const rows = (["wall", "CPU"] as const).map((kind) => {
			const f = kind === "wall" ? startup.wall : startup.cpu;
			return {
				name: `start-up overhead, ${kind}`,
				value: `${fixed(f.extensionMs)} ms`,
				baseline: `${fixed(f.emptyMs)} ms`,
				ratio: f.ratio,
				meaning: `pi run with this package ÷ with an empty extension, ${kind} time (median of pairs); 1.00 = free`,
				work: [startup.work],
			};
		});
		return { detail, rows };
	},
};
