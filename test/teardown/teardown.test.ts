/**
 * Teardown that owns what a test started (test/support/teardown.ts): a home's directories go only once no
 * process uses them, and a process that outlives the test is named, not left behind.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isAlive, processesUsing, waitUntil } from "../support/processes.ts";
import { releaseDirectories, removeTree, waitUntilNoProcessUses } from "../support/teardown.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const started: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
	for (const child of started.splice(0)) child.kill("SIGKILL");
	for (const dir of dirs.splice(0)) await removeTree(dir);
});

function tempDir(prefix: string): string {
	const dir = makeTempDir(prefix);
	dirs.push(dir);
	return dir;
}

function start(command: string, options: { cwd: string; env?: Record<string, string> }): ChildProcess {
	const child = spawn("sh", ["-c", command], {
		cwd: options.cwd,
		env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...options.env },
		stdio: "ignore",
	});
	started.push(child);
	return child;
}

describe("teardown of a test's directories", () => {
	it("finds a process by an environment entry naming a path in the directory, wherever its cwd is", async () => {
		const home = tempDir("teardown-home-");
		const child = start("exec sleep 600", { cwd: "/", env: { SOME_HOME: join(home, "agent") } });
		await waitUntil(() => processesUsing([home]).includes(child.pid as number), "the sleeper to be found");
		expect(processesUsing([`${home}x`])).not.toContain(child.pid);
	});

	it("removes a tree a process keeps writing into only after the process is gone", async () => {
		const home = tempDir("teardown-home-");
		const control = tempDir("teardown-control-");
		const stop = join(control, "stop");
		// Writes a new file into the home's cache until told to stop, as pi writes its compile cache on exit.
		const writer = start(`i=0; while [ ! -e ${stop} ]; do mkdir -p cache; : > cache/f$i; i=$((i+1)); done`, {
			cwd: home,
		});
		await waitUntil(() => existsSync(join(home, "cache")) && readdirSync(join(home, "cache")).length > 10, "writes");
		let released = false;
		const release = releaseDirectories([home]).then(() => {
			released = true;
		});
		// While the writer runs, the directory stays and the release waits.
		const count = readdirSync(join(home, "cache")).length;
		await waitUntil(() => readdirSync(join(home, "cache")).length > count + 10, "more writes");
		expect(released).toBe(false);
		writeFileSync(stop, "");
		await release;
		expect(existsSync(home)).toBe(false);
		expect(isAlive(writer.pid as number)).toBe(false);
	});

	it("names a process still using the directory at the deadline, and kills it", async () => {
		const home = tempDir("teardown-home-");
		mkdirSync(join(home, "work"));
		const sleeper = start("exec sleep 600", { cwd: join(home, "work") });
		await waitUntil(() => processesUsing([home]).includes(sleeper.pid as number), "the sleeper to be found");
		await expect(waitUntilNoProcessUses([home], 300)).rejects.toThrow(
			new RegExp(`still running 300 ms after the test was done with ${home}: ${sleeper.pid} \\(sleep 600\\)`),
		);
		await waitUntil(() => !isAlive(sleeper.pid as number), "the sleeper to be killed");
	});
});
