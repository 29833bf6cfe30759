/**
 * Runs the pi CLI as a user runs `pi <args>`: the Pi that `subagent` itself starts for a pi child, resolved the
 * same way (src/harness/pi/invocation.ts), with stdin ignored. One helper for the tests, the demo and the
 * benchmarks.
 */
import { spawn } from "node:child_process";
import { resolvePiInvocation } from "../../src/harness/pi/invocation.ts";

/** How a pi CLI run ended and its raw output. */
export interface PiCliRun {
	/** The complete command that ran: the resolved invocation, then `args`. */
	argv: string[];
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

/** Runs pi with exactly `args` in `cwd` with `env` as its whole environment. Resolves on close; never rejects for a non-zero exit. */
export function runPiCli(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<PiCliRun> {
	const invocation = resolvePiInvocation();
	const argv = [invocation.file, ...invocation.args, ...args];
	const child = spawn(argv[0] as string, argv.slice(1), {
		cwd: options.cwd,
		env: options.env,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8").on("data", (data: string) => {
		stdout += data;
	});
	child.stderr.setEncoding("utf8").on("data", (data: string) => {
		stderr += data;
	});
	return new Promise((resolve, reject) => {
		child.on("error", reject);
		child.on("close", (code, signal) => resolve({ argv, code, signal, stdout, stderr }));
	});
}
