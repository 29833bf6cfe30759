/**
 * One `subagent` call through the load probe (test/support/load-probe.mjs `--call`) of the package entry
 * `entry`, in `<home.dir>/work`, with the pi home's environment: the tool result's text, every module URL
 * the process resolved and what became of the code cache of each bundle chunk it loaded.
 */
import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { PiHome } from "./pi-home.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/** What the probe reports: the tool result's text, the module URLs, each bundle chunk's code cache use. */
export interface ProbeCall {
	result: string;
	modules: string[];
	codeCache: Record<string, "used" | "absent" | "refused">;
}

export async function probeSubagentCall(
	entry: string,
	home: PiHome,
	args: Record<string, unknown>,
): Promise<ProbeCall> {
	const work = join(home.dir, "work");
	mkdirSync(work, { recursive: true });
	// Not execFile's promise: the fake model server answers the child from this process meanwhile.
	const stdout = await new Promise<string>((resolve, reject) =>
		execFile(
			join(ROOT, "node_modules", ".bin", "node"),
			[join(ROOT, "test", "support", "load-probe.mjs"), entry, "--call", work, JSON.stringify(args)],
			{ env: { PATH: process.env.PATH, ...home.env, TMPDIR: home.dir } },
			(error, out) => (error ? reject(error) : resolve(out)),
		),
	);
	return JSON.parse(stdout) as ProbeCall;
}
