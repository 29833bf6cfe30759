/**
 * One `subagent` call through the load probe (test/support/load-probe.mjs `--call`) of the package entry
 * `entry`, in `<home.dir>/work`, with the pi home's environment and `env` over it: the tool result's text, every module URL
 * the process resolved, what became of the code cache of each bundle chunk it loaded and the most memory it held.
 */
import { execFile, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { PiHome } from "./pi-home.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/** What the probe reports: the tool result's text, the module URLs, each bundle chunk's code cache use. */
export interface ProbeCall {
	result: string;
	modules: string[];
	codeCache: Record<string, "used" | "absent" | "refused">;
	/** The most memory the probe held, in KiB (`process.resourceUsage().maxRSS`). */
	maxRss: number;
}

export async function probeSubagentCall(
	entry: string,
	home: PiHome,
	args: Record<string, unknown>,
	env: Record<string, string> = {},
): Promise<ProbeCall> {
	const work = join(home.dir, "work");
	mkdirSync(work, { recursive: true });
	// Not execFile's promise: the fake model server answers the child from this process meanwhile.
	const stdout = await new Promise<string>((resolve, reject) =>
		execFile(
			join(ROOT, "node_modules", ".bin", "node"),
			[join(ROOT, "test", "support", "load-probe.mjs"), entry, "--call", work, JSON.stringify(args)],
			{ env: { PATH: process.env.PATH, ...home.env, TMPDIR: home.dir, ...env } },
			(error, out) => (error ? reject(error) : resolve(out)),
		),
	);
	return JSON.parse(stdout) as ProbeCall;
}

/** A probe call held after its load ({@link holdSubagentCall}): its pid, and `release` to run the call. */
export interface HeldProbeCall {
	pid: number;
	/** Runs the session and the call, and resolves with what the probe reports once it exited with 0. */
	release(): Promise<ProbeCall>;
}

/**
 * {@link probeSubagentCall}, held once the package is loaded (the probe's `PROBE_WAIT`): resolves when it says so,
 * before the session starts.
 * @throws (from `release`) the probe's stderr when it exits with another code
 */
export async function holdSubagentCall(
	entry: string,
	home: PiHome,
	args: Record<string, unknown>,
): Promise<HeldProbeCall> {
	const work = join(home.dir, "work");
	mkdirSync(work, { recursive: true });
	const probe = spawn(
		join(ROOT, "node_modules", ".bin", "node"),
		[join(ROOT, "test", "support", "load-probe.mjs"), entry, "--call", work, JSON.stringify(args)],
		{ env: { PATH: process.env.PATH, ...home.env, TMPDIR: home.dir, PROBE_WAIT: "1" } },
	);
	let stdout = "";
	let stderr = "";
	probe.stdout.on("data", (chunk) => (stdout += chunk));
	const exited = new Promise<number | null>((resolve) => probe.on("close", resolve));
	await new Promise<void>((resolve, reject) => {
		probe.stderr.on("data", (chunk) => {
			stderr += chunk;
			if (stderr.includes("probe: loaded")) resolve();
		});
		exited.then(() => reject(new Error(`load probe exited before its load: ${stderr}`)));
	});
	return {
		pid: probe.pid ?? 0,
		async release() {
			probe.stdin.end("call\n");
			const code = await exited;
			if (code !== 0) throw new Error(`load probe exited with ${code}: ${stderr}`);
			return JSON.parse(stdout) as ProbeCall;
		},
	};
}
