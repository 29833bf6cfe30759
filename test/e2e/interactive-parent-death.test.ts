/**
 * A REAL pi parent with this extension, SIGKILLed while an interactive child runs in its tmux server: the
 * server on the parent's private socket and the child's pane process are gone within 3 s (SECURITY.md,
 * "Processes"; docs/interactive.md). The tmux server daemonizes, so it is no descendant of the
 * parent: only the parent-death lifeline can end it. The parent gets its own TMPDIR, so the one socket
 * directory inside it is this parent's; the test inspects only the server and pane of that socket and
 * the pane's descendants, and SIGKILLs only the parent pid it spawned.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";
import { isRunning, type ProcessIdentity, processTree, waitUntil } from "../support/processes.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const PI_CLI = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");
const CHILD_TASK = "interactive-parent-death child";

let server: FakeModelServer;
let home: PiHome;
let parent: ChildProcess | undefined;
let recorded: ProcessIdentity[] = [];
let socket: string | undefined;

beforeAll(async () => {
	server = await startFakeModelServer();
	home = createPiHome(server);
	server.route((request) => {
		if (!request.userTexts.some((text) => text.includes("interactive-parent-death parent"))) return undefined;
		if (request.toolNames.includes("subagent") && request.lastToolOutput === undefined) {
			return {
				toolCalls: [{ name: "subagent", arguments: { agent_type: "pi", task: CHILD_TASK, interactive: true } }],
			};
		}
		return { hang: true };
	});
	// The child's TUI waits for the model for ever: it is running when the parent dies.
	server.route((request) => (request.lastUserText.includes(CHILD_TASK) ? { hang: true } : undefined));
});
afterAll(async () => {
	await home?.cleanup();
	await server?.close();
});
afterEach(async () => {
	// Whatever a failed test left behind: only what this test recorded, by pid and start time, and its socket.
	const own = parent?.pid ? [...processTree(parent.pid).slice(0, 1)] : [];
	for (const target of [...recorded, ...own]) if (isRunning(target)) process.kill(target.pid, "SIGKILL");
	if (socket) await tmux(socket, "kill-server");
	recorded = [];
	parent = undefined;
	socket = undefined;
});

/** `tmux -S <socket> <args…>`: its stdout, or undefined when it fails (no server). */
async function tmux(at: string, ...args: string[]): Promise<string | undefined> {
	const result = await execa("tmux", ["-S", at, ...args], { reject: false, stdin: "ignore" });
	return result.exitCode === 0 ? result.stdout.trim() : undefined;
}

/** The socket of the only tmux directory the parent made under its own TMPDIR. */
function parentSocket(tmp: string): string | undefined {
	const dirs = existsSync(tmp) ? readdirSync(tmp).filter((name) => name.startsWith("pi-subagents-tmux-")) : [];
	const file = dirs.length === 1 ? join(tmp, dirs[0], "sock") : undefined;
	return file && existsSync(file) ? file : undefined;
}

describe("an interactive child dies with a SIGKILLed pi parent", () => {
	it("leaves no tmux server on the parent's socket and no pane process 3 s later", { timeout: 90_000 }, async () => {
		const tmp = join(home.dir, "parent-tmp");
		const cwd = join(home.dir, "work");
		mkdirSync(tmp, { recursive: true });
		mkdirSync(cwd, { recursive: true });
		const pi = spawn(
			NODE,
			[PI_CLI, "--mode", "json", "-p", "--no-session", "-e", ROOT, "interactive-parent-death parent"],
			{
				cwd,
				env: { ...process.env, ...home.env, TMPDIR: tmp },
				stdio: ["ignore", "ignore", "ignore"],
			},
		);
		parent = pi;
		// The child's TUI is up once its own request reaches the model.
		await waitUntil(
			() => server.requests.some((r) => r.lastUserText.includes(CHILD_TASK)),
			"the child's request",
			60_000,
		);
		socket = parentSocket(tmp);
		expect(socket, "the parent's tmux socket").toBeDefined();
		const at = socket as string;
		const serverPid = Number(await tmux(at, "display-message", "-p", "#{pid}"));
		const panePid = Number(await tmux(at, "list-panes", "-a", "-F", "#{pane_pid}"));
		expect(serverPid).toBeGreaterThan(0);
		expect(panePid).toBeGreaterThan(0);
		// The server daemonized: it is no descendant of the parent, so nothing but the lifeline can end it.
		expect(processTree(pi.pid as number).map((p) => p.pid)).not.toContain(serverPid);
		recorded = [...processTree(serverPid).slice(0, 1), ...processTree(panePid)];
		expect(recorded.every(isRunning)).toBe(true);

		pi.kill("SIGKILL");
		await waitUntil(
			() => recorded.every((target) => !isRunning(target)),
			"the tmux server and the pane to die",
			3000,
		).catch(() => {
			throw new Error(`still alive 3 s after the parent's SIGKILL: ${JSON.stringify(recorded.filter(isRunning))}`);
		});
		expect(await tmux(at, "list-sessions")).toBeUndefined();
	});
});
