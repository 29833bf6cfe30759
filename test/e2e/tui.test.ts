/**
 * A real interactive Pi in a terminal (tmux on a private socket), loading this package by its directory
 * against the fake model: Pi lists the extension under the package directory's name, not `src`, and a
 * parallel call renders a live headline and each child's phase and elapsed time, then the final state.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";
import { isRunning, processTree, waitUntil } from "../support/processes.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const PI_CLI = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");

let server: FakeModelServer;
let home: PiHome;
let dir: string;
let socket: string;

const tmux = (...args: string[]) => execFileSync("tmux", ["-S", socket, ...args], { encoding: "utf8" });
const screen = () => tmux("capture-pane", "-p", "-t", "pi");

/** The pid of the pane's process (pi: the pane's script execs it), or `undefined` when the pane is gone. */
function panePid(): number | undefined {
	try {
		const pid = Number(tmux("display-message", "-p", "-t", "pi", "#{pane_pid}").trim());
		return Number.isInteger(pid) && pid > 0 ? pid : undefined;
	} catch {
		return undefined;
	}
}

beforeAll(async () => {
	server = await startFakeModelServer({ fallback: "rules" });
	home = createPiHome(server);
	dir = mkdtempSync(join(tmpdir(), "pi-tui-"));
	socket = join(dir, "tmux.sock");
	const work = join(home.dir, "work");
	mkdirSync(work);
	const env = { ...home.env, PATH: process.env.PATH ?? "", TERM: "xterm-256color" };
	const exports = Object.entries(env).map(([key, value]) => `export ${key}='${value.replaceAll("'", "'\\''")}'`);
	const script = join(dir, "pi.sh");
	writeFileSync(
		script,
		["#!/bin/sh", `cd '${work}'`, ...exports, `exec '${NODE}' '${PI_CLI}' --no-session -e '${ROOT}'`, ""].join("\n"),
		{
			mode: 0o755,
		},
	);
	tmux("new-session", "-d", "-x", "150", "-y", "50", "-s", "pi", script);
});

afterAll(async () => {
	// Pi writes its compile cache into the home while it exits: the home may go only once the pane's pi and
	// every process under it are gone, not merely signalled.
	const pane = socket ? panePid() : undefined;
	const tree = pane === undefined ? [] : processTree(pane);
	try {
		tmux("kill-server");
	} catch {
		// Already gone.
	}
	await waitUntil(
		() => tree.every((target) => !isRunning(target)),
		"the tmux-run pi and its descendants to exit",
		15_000,
	);
	await server?.close();
	rmSync(dir, { recursive: true, force: true });
	home?.cleanup();
});

describe("the TUI", () => {
	it("lists the extension under the package directory's name at start-up", async () => {
		await waitUntil(() => screen().includes("[Extensions]"), "Pi's start-up listing", 30_000);
		const lines = screen().split("\n");
		const at = lines.findIndex((line) => line.trim() === "[Extensions]");
		expect(lines[at + 1]?.trim()).toBe(basename(ROOT));
		expect(lines.some((line) => line.trim() === "src")).toBe(false);
	});

	it("shows a parallel call's live headline and each child's phase and elapsed time, then the result", async () => {
		let release: () => void = () => {};
		const released = new Promise<void>((resolve) => {
			release = resolve;
		});
		// Only the child's own request (the parent's prompt quotes the task too).
		server.route((request) =>
			request.lastUserText === "tui slow child" ? released.then(() => ({ text: "slow child answer" })) : undefined,
		);
		const call = {
			tasks: [
				{ agent_type: "pi", task: "tui slow child" },
				{ agent_type: "pi", task: "tui fast child" },
			],
		};
		tmux("send-keys", "-t", "pi", "-l", `TOOL:subagent:${JSON.stringify(call)}`);
		tmux("send-keys", "-t", "pi", "Enter");
		// The slow child's model holds its answer: the screen must show it waiting, with its elapsed time.
		await waitUntil(
			() => /⏳ 1\. pi waiting for the model · \d+\.\ds/.test(screen()) && /1\/2 done · 1 running/.test(screen()),
			"the slow child waiting for its model under a 1/2 headline",
			45_000,
		).catch((error: Error) => {
			throw new Error(`${error.message}; the screen:\n${screen()}`);
		});
		const live = screen();
		expect(live).toMatch(/✓ 2\. pi completed · \d+\.\ds/);
		expect(live).not.toContain("model unknown");
		expect(live.match(/tui slow child/g)?.length).toBe(1);
		release();
		await waitUntil(() => screen().includes("Tool said:"), "the parent's answer", 45_000);
		const done = screen();
		expect(done).toMatch(/2\/2 done · ↑[\d.]+k? ↓\d+ \$0\.\d{4}/);
		expect(done).toMatch(/✓ 1\. pi completed · \d+\.\ds/);
	});
});
