/**
 * A REAL pi parent with this extension, SIGKILLed while its children run: nothing it started outlives it
 * by more than the lifeline's 2 s (SECURITY.md, "Processes"). Each child runs a bash tool command that
 * leaves a setsid'd process behind (re-parented out of the tree, found only by its run marker) and then
 * waits; the test records every descendant of the parent from /proc plus those escaped pids, SIGKILLs only
 * the parent pid it spawned, and checks each recorded process (pid + start time) is gone within 3 s.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readStat } from "../../src/process/proc-table.mjs";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";
import { isRunning, type ProcessIdentity, processTree, waitUntil } from "../support/processes.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const PI_CLI = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");

let server: FakeModelServer;
let home: PiHome;
let parent: ChildProcess | undefined;
let recorded: ProcessIdentity[] = [];

beforeAll(async () => {
	server = await startFakeModelServer();
	home = createPiHome(server);
	// Children: leave a setsid'd sleeper behind (its subshell exits, so it is re-parented), then wait.
	server.route((request) => {
		const task = /parent-death-child (\S+)/.exec(request.lastUserText)?.[1];
		if (task === undefined || request.toolNames.includes("subagent")) return undefined;
		if (request.lastToolOutput !== undefined) return { hang: true };
		const dir = join(home.dir, "pids", task);
		mkdirSync(dir, { recursive: true });
		const command = `(setsid sleep 600 & echo $! > ${dir}/escaped.pid); echo $$ > ${dir}/shell.pid; exec sleep 600`;
		return { toolCalls: [{ name: "bash", arguments: { command } }] };
	});
});
afterAll(async () => {
	await home?.cleanup();
	await server?.close();
});
afterEach(() => {
	// Whatever a failed test left behind: only processes this test recorded, by pid and start time.
	for (const target of [...recorded, ...(parent?.pid ? [{ pid: parent.pid, startTime: startTime(parent.pid) }] : [])]) {
		if (isRunning(target)) process.kill(target.pid, "SIGKILL");
	}
	recorded = [];
	parent?.stdin?.destroy();
	parent = undefined;
});

function startTime(pid: number): string {
	return readStat(pid)?.startTime ?? "";
}

/**
 * Starts the real pi parent; its model calls `subagent` with `args` (and, after a background start, `then`).
 * `host`: "print" runs `pi --mode json -p`; "rpc" runs `pi --mode rpc` (a host that stays open, as background
 * jobs need: print mode refuses them) and sends the prompt on its stdin.
 */
function startParent(scenario: string, args: unknown, then?: unknown, host: "print" | "rpc" = "print"): ChildProcess {
	server.route((request) => {
		if (!request.userTexts.some((text) => text.includes(`parent-death ${scenario}`))) return undefined;
		if (!request.toolNames.includes("subagent")) return undefined;
		if (request.lastToolOutput === undefined)
			return { toolCalls: [{ name: "subagent", arguments: args as Record<string, unknown> }] };
		if (then && request.roles.filter((role) => role === "tool").length === 1) {
			return { toolCalls: [{ name: "subagent", arguments: then as Record<string, unknown> }] };
		}
		return { hang: true };
	});
	const cwd = join(home.dir, "work");
	mkdirSync(cwd, { recursive: true });
	const prompt = `parent-death ${scenario}`;
	const mode = host === "print" ? ["--mode", "json", "-p", prompt] : ["--mode", "rpc"];
	const pi = spawn(NODE, [PI_CLI, "--no-session", "-e", ROOT, ...mode], {
		cwd,
		env: { ...process.env, ...home.env },
		stdio: [host === "print" ? "ignore" : "pipe", "ignore", "ignore"],
	});
	pi.stdin?.on("error", () => {}); // The parent is SIGKILLed with its stdin open.
	pi.stdin?.write(`${JSON.stringify({ type: "prompt", message: prompt })}\n`);
	return pi;
}

/** Waits until every named child task recorded its pids; returns the escaped ones. */
async function childrenUp(tasks: string[]): Promise<ProcessIdentity[]> {
	const files = tasks.flatMap((task) => ["escaped.pid", "shell.pid"].map((name) => join(home.dir, "pids", task, name)));
	await waitUntil(
		() => files.every((file) => existsSync(file) && readFileSync(file, "utf8").endsWith("\n")),
		`pids of ${tasks.join(", ")}`,
		60_000,
	);
	return files
		.filter((file) => file.endsWith("escaped.pid"))
		.map((file) => {
			const pid = Number(readFileSync(file, "utf8"));
			return { pid, startTime: startTime(pid) };
		});
}

async function killParentAndCheck(tasks: string[]): Promise<void> {
	const pi = parent as ChildProcess;
	const escaped = await childrenUp(tasks);
	recorded = [...processTree(pi.pid as number).slice(1), ...escaped];
	// The children and their bash commands are up: at least pi child + shell-exec'd sleep + escaped per task.
	expect(recorded.length).toBeGreaterThanOrEqual(3 * tasks.length);
	expect(escaped.every(isRunning)).toBe(true);
	pi.kill("SIGKILL");
	await waitUntil(
		() => recorded.every((target) => !isRunning(target)),
		"every process the parent started to die",
		3000,
	).catch(() => {
		throw new Error(`still alive 3 s after the parent's SIGKILL: ${JSON.stringify(recorded.filter(isRunning))}`);
	});
}

const child = (task: string) => ({ agent_type: "pi", task: `parent-death-child ${task}` });

describe("children die with a SIGKILLed pi parent", () => {
	it("kills a single call's child, its descendants and a setsid escapee within 3 s", { timeout: 90_000 }, async () => {
		parent = startParent("single", child("single-1"));
		await killParentAndCheck(["single-1"]);
	});

	it("kills all 3 children of a parallel call within 3 s", { timeout: 90_000 }, async () => {
		parent = startParent("parallel", { tasks: [child("par-1"), child("par-2"), child("par-3")] });
		await killParentAndCheck(["par-1", "par-2", "par-3"]);
	});

	it("kills a background job's child and a foreground call's child within 3 s", { timeout: 90_000 }, async () => {
		parent = startParent("background", { ...child("bg-1"), background: true }, child("fg-1"), "rpc");
		await killParentAndCheck(["bg-1", "fg-1"]);
	});
});
