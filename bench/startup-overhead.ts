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
 * `pi install` do, so Pi reads `package.json`'s `pi.extensions` exactly as it does for a user.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeModelServer } from "../test/support/fake-model/index.ts";
import { createPiHome } from "../test/support/pi-home.ts";
import { median } from "./stats.ts";

const ROOT = join(import.meta.dirname, "..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const PI_CLI = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");
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
}

/** One run's wall and CPU time, ms. */
interface RunTimes {
	wallMs: number;
	cpuMs: number;
}

/**
 * Measures {@link StartupOverheadBench} over `runs` alternating pairs; `packageDir` is the package loaded
 * (default: this checkout), so another checkout can be measured for comparison.
 * @throws Error when a run does not exit 0 with the expected answer (the stderr tail is in the message).
 */
export async function benchStartupOverhead(runs = 9, packageDir = ROOT): Promise<StartupOverheadBench> {
	const server = await startFakeModelServer({ fallback: "rules" });
	const home = createPiHome(server);
	try {
		const work = join(home.dir, "work");
		mkdirSync(work);
		writeFileSync(join(work, "probe.txt"), "startup probe\n");
		const empty = join(home.dir, "empty-extension.ts");
		writeFileSync(empty, "export default function emptyExtension(): void {}\n");
		const run = (extension: string) => runPi(extension, work, { ...process.env, ...home.env });
		await run(packageDir);
		await run(empty);
		const pairs: Array<{ ours: RunTimes; baseline: RunTimes }> = [];
		for (let i = 0; i < runs; i++) {
			// Alternate which kind goes first, so a slow second run of a pair does not always hit the same kind.
			if (i % 2 === 0) {
				const ours = await run(packageDir);
				pairs.push({ ours, baseline: await run(empty) });
			} else {
				const baseline = await run(empty);
				pairs.push({ ours: await run(packageDir), baseline });
			}
		}
		return { runs, wall: figures(pairs, "wallMs"), cpu: figures(pairs, "cpuMs") };
	} finally {
		await server.close();
		home.cleanup();
	}
}

function figures(pairs: ReadonlyArray<{ ours: RunTimes; baseline: RunTimes }>, key: keyof RunTimes): StartupFigures {
	const ratios = pairs.map((pair) => pair.ours[key] / pair.baseline[key]);
	return {
		extensionMs: median(pairs.map((pair) => pair.ours[key])),
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

/** One pi run with `-e extension`; resolves with its wall and CPU time. */
function runPi(extension: string, cwd: string, env: NodeJS.ProcessEnv): Promise<RunTimes> {
	const cpuBefore = childrenCpuMs();
	const started = performance.now();
	const child = spawn(NODE, [PI_CLI, "--mode", "json", "-p", "--no-session", "-e", extension, TASK], {
		cwd,
		env,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
		stdout += chunk;
	});
	child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
		stderr += chunk;
	});
	return new Promise((resolve, reject) => {
		child.once("error", reject);
		child.once("close", (code) => {
			const wallMs = performance.now() - started;
			if (code === 0 && stdout.includes(ANSWER)) resolve({ wallMs, cpuMs: childrenCpuMs() - cpuBefore });
			else reject(new Error(`pi -e ${extension} failed (exit ${code}): ${stderr.slice(-2000)}`));
		});
	});
}
