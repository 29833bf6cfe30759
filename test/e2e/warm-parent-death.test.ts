/**
 * A warm pi child dies with a SIGKILLed pi parent (SECURITY.md, "Processes"): a REAL pi parent (`--mode rpc`,
 * a host that stays open) with warm children on delegates once; once its warm child waits, the test SIGKILLs
 * only the parent pid it spawned and checks the warm child (pid + start time) is gone within 3 s.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readStat } from "../../src/process/proc-table.mjs";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";
import { isRunning, type ProcessIdentity, waitUntil } from "../support/processes.ts";
import { waitForWarmChild, writeWarmSettings } from "../support/warm-children.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const PI_CLI = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");
const PROMPT = "warm parent-death";

let server: FakeModelServer;
let home: PiHome;
let parent: ChildProcess | undefined;
let recorded: ProcessIdentity[] = [];

beforeAll(async () => {
	server = await startFakeModelServer();
	home = createPiHome(server);
	writeWarmSettings(home.agentDir, { enabled: true });
	// The parent delegates once, then answers; its child answers at once.
	server.route((request) => {
		if (!request.userTexts.some((text) => text.includes(PROMPT))) return undefined;
		if (request.toolNames.includes("subagent") && request.lastToolOutput === undefined)
			return { toolCalls: [{ name: "subagent", arguments: { agent_type: "pi", task: "warm child task" } }] };
		return { text: "done" };
	});
	server.route((request) => (request.lastUserText === "warm child task" ? { text: "child answer" } : undefined));
});
afterAll(async () => {
	await home?.cleanup();
	await server?.close();
});
afterEach(() => {
	// Whatever a failed test left behind: only processes this test recorded, by pid and start time.
	for (const target of recorded) if (isRunning(target)) process.kill(target.pid, "SIGKILL");
	recorded = [];
	if (parent?.pid && parent.exitCode === null) parent.kill("SIGKILL");
	parent?.stdin?.destroy();
	parent = undefined;
});

describe("warm children and parent death", () => {
	it("SIGKILL of the parent leaves no warm child", { timeout: 90_000 }, async () => {
		const cwd = join(home.dir, "work");
		mkdirSync(cwd, { recursive: true });
		parent = spawn(NODE, [PI_CLI, "--no-session", "-e", ROOT, "--mode", "rpc"], {
			cwd,
			env: { ...process.env, ...home.env },
			stdio: ["pipe", "ignore", "ignore"],
		});
		parent.stdin?.on("error", () => {}); // SIGKILLed with its stdin open.
		parent.stdin?.write(`${JSON.stringify({ type: "prompt", message: PROMPT })}\n`);
		// The parent's last request (after the tool result): the call has returned and left its warm child.
		await server.waitFor(
			(requests) => requests.some((r) => r.userTexts.some((t) => t.includes(PROMPT)) && r.lastToolOutput !== undefined),
			60_000,
		);
		const warmPid = await waitForWarmChild(home.agentDir, parent.pid as number);
		const stat = readStat(warmPid);
		expect(stat).toBeDefined();
		recorded = [{ pid: warmPid, startTime: stat?.startTime ?? "" }];
		expect(isRunning(recorded[0])).toBe(true);
		parent.kill("SIGKILL");
		await waitUntil(() => !isRunning(recorded[0]), "the warm child to die with its parent", 3000);
	});
});
