/**
 * Warm pi children seen from outside (docs/settings.md §Warm pi children): the setting written to a home's
 * settings file, and the idle pi children of that home found in /proc by their command line.
 */
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { settingsFilePath } from "../../src/config/paths.ts";
import { childSessionsDir } from "../../src/core/package-dirs.ts";
import { processTable, RUN_MARKER } from "../../src/process/proc-table.mjs";
import { writeJson } from "./files.ts";
import { waitUntil } from "./processes.ts";

/** Writes the settings file of `agentDir` with `warm_children` (and any other `settings`). */
export function writeWarmSettings(
	agentDir: string,
	warm: { enabled: boolean; idle_timeout_ms?: number; max?: number },
	settings: Record<string, unknown> = {},
): void {
	writeJson(settingsFilePath(agentDir), { ...settings, warm_children: warm });
}

/**
 * pids of the live pi children of `agentDir` that `parentPid` (default this process) started: its children
 * whose environment names that agent dir and carries the run marker. Not by command line: pi sets its
 * process title once it runs.
 */
export function piChildrenOf(agentDir: string, parentPid = process.pid): number[] {
	const home = `PI_CODING_AGENT_DIR=${agentDir}`;
	return processTable()
		.filter((stat) => stat.ppid === parentPid && stat.state !== "Z")
		.map((stat) => stat.pid)
		.filter((pid) => {
			const environ = environOf(pid);
			return environ.includes(home) && environ.some((entry) => entry.startsWith(`${RUN_MARKER}=`));
		});
}

function environOf(pid: number): string[] {
	try {
		return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0");
	} catch {
		return []; // gone meanwhile
	}
}

/**
 * Waits until exactly one pi child of `agentDir` started by `parentPid` runs, which after a call has
 * returned is its warm child, and returns its pid.
 */
export async function waitForWarmChild(agentDir: string, parentPid = process.pid): Promise<number> {
	await waitUntil(() => piChildrenOf(agentDir, parentPid).length === 1, `one warm pi child of ${agentDir}`);
	return piChildrenOf(agentDir, parentPid)[0];
}

/**
 * This process's run directories in the system temp dir (`pi-native-subagents-run-<pid>-…`); after a call
 * has returned, only its warm child's are left (each test file runs in its own process).
 */
export function ownRunDirs(): string[] {
	return readdirSync(tmpdir())
		.filter((name) => name.startsWith(`pi-native-subagents-run-${process.pid}-`))
		.map((name) => join(tmpdir(), name));
}

/** The session files of `agentDir`'s pi children, sorted. */
export function childSessionFiles(agentDir: string): string[] {
	try {
		return readdirSync(childSessionsDir(agentDir)).sort();
	} catch {
		return [];
	}
}
