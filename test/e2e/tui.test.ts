/**
 * A real interactive Pi in a terminal (tmux on a private socket), loading this package by its directory
 * against the fake model: Pi lists the extension under the package directory's name, not `src`, and a
 * parallel call renders a live headline and each child's phase and elapsed time, then the final state;
 * background jobs show the jobs line (oldest three, elapsed time, `+N more`) while they run, and a Pi whose
 * settings say `silent` never shows it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeModelServer, type RecordedRequest, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";
import { waitUntil } from "../support/processes.ts";
import { removeTree } from "../support/teardown.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const PI_CLI = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");

let server: FakeModelServer;
let home: PiHome;
let silentHome: PiHome;
let dir: string;
let socket: string;

const tmux = (...args: string[]) => execFileSync("tmux", ["-S", socket, ...args], { encoding: "utf8" });
/** The exact tmux target of session `name` (a bare name may match another session's window). */
const pane = (name: string) => `=${name}:`;
const screen = (name = "pi") => tmux("capture-pane", "-p", "-t", pane(name));
/** The screen with its scrollback. */
const scrollback = (name: string) => tmux("capture-pane", "-p", "-S", "-", "-t", pane(name));

/** Starts an interactive pi with `piHome` in tmux session `name`. */
function startPi(name: string, piHome: PiHome): void {
	const work = join(piHome.dir, "work");
	mkdirSync(work);
	const env = { ...piHome.env, PATH: process.env.PATH ?? "", TERM: "xterm-256color" };
	const exports = Object.entries(env).map(([key, value]) => `export ${key}='${value.replaceAll("'", "'\\''")}'`);
	const script = join(dir, `${name}.sh`);
	writeFileSync(
		script,
		["#!/bin/sh", `cd '${work}'`, ...exports, `exec '${NODE}' '${PI_CLI}' --no-session -e '${ROOT}'`, ""].join("\n"),
		{ mode: 0o755 },
	);
	tmux("new-session", "-d", "-x", "150", "-y", "50", "-s", name, script);
}

beforeAll(async () => {
	server = await startFakeModelServer({ fallback: "rules" });
	home = createPiHome(server);
	silentHome = createPiHome(server);
	mkdirSync(join(silentHome.agentDir, "extensions"), { recursive: true });
	writeFileSync(join(silentHome.agentDir, "extensions", "agentshell.json"), JSON.stringify({ silent: true }));
	dir = mkdtempSync(join(tmpdir(), "pi-tui-"));
	socket = join(dir, "tmux.sock");
	startPi("pi", home);
	startPi("silent", silentHome);
});

afterAll(async () => {
	try {
		tmux("kill-server");
	} catch {
		// Already gone.
	}
	// Pi writes its compile cache into the home while it exits: each home goes only once no process uses it.
	await home?.cleanup();
	await silentHome?.cleanup();
	await server?.close();
	await removeTree(dir);
});

/** Types `text` into the pi of tmux session `target` and submits it. */
function submit(target: string, text: string): void {
	tmux("send-keys", "-t", pane(target), "-l", text);
	tmux("send-keys", "-t", pane(target), "Enter");
}

/** Waits for `check` on the screen of `target`; a timeout shows the screen. */
async function waitForScreen(target: string, check: (text: string) => boolean, what: string): Promise<void> {
	await waitUntil(() => check(screen(target)), what, 45_000).catch((error: Error) => {
		throw new Error(`${error.message}; the screen:\n${screen(target)}`);
	});
}

/** Job ids the parent model quoted from the tool's answer, in the order they started. */
const startedJobs = (text: string) => [
	...new Set([...text.matchAll(/Started background job (\w+)/g)].map((m) => m[1])),
];

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
		submit("pi", `TOOL:subagent:${JSON.stringify(call)}`);
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

	it("shows the oldest three running background jobs with elapsed time and +N more, and removes the line when they end", async () => {
		let release: () => void = () => {};
		const released = new Promise<void>((resolve) => {
			release = resolve;
		});
		server.route((request) =>
			/^tui job \d$/.test(request.lastUserText) ? released.then(() => ({ text: "job done" })) : undefined,
		);
		// Four jobs, each started once the previous one's child is waiting for its model: their order is known.
		for (const n of [1, 2, 3, 4]) {
			submit("pi", `TOOL:subagent:${JSON.stringify({ agent_type: "pi", task: `tui job ${n}`, background: true })}`);
			await server.waitFor((requests) => requests.some((r) => r.lastUserText === `tui job ${n}`), 45_000);
		}
		await waitUntil(() => startedJobs(scrollback("pi")).length === 4, "four started jobs", 45_000);
		const [first, second, third, fourth] = startedJobs(scrollback("pi"));
		const line = new RegExp(
			`⏳ background: ${first} .*· \\d+\\.\\ds · ${second} .*· \\d+\\.\\ds · ${third} .*· \\d+\\.\\ds · \\+1 more`,
		);
		await waitForScreen("pi", (text) => line.test(text), "the jobs line naming the oldest three");
		expect(screen()).not.toMatch(new RegExp(`⏳ background:.*${fourth}`));
		release();
		// Each job's report reaches the parent model; once all four have, no job runs and the line is gone.
		const reported = (id: string | undefined) => (r: RecordedRequest) =>
			r.userTexts.some((text) => text.startsWith(`Background job ${id} (pi) completed`));
		await server.waitFor(
			(requests) => [first, second, third, fourth].every((id) => requests.some(reported(id))),
			45_000,
		);
		await waitForScreen("pi", (text) => !text.includes("⏳ background:"), "the jobs line to go");
		expect(server.requests.filter((r) => /^tui job \d$/.test(r.lastUserText))).toHaveLength(4);
	});

	it("never shows the jobs line when the settings say silent", async () => {
		await waitForScreen("silent", (text) => text.includes("[Extensions]"), "the silent Pi's start-up");
		let release: () => void = () => {};
		const released = new Promise<void>((resolve) => {
			release = resolve;
		});
		server.route((request) =>
			request.lastUserText === "tui silent job" ? released.then(() => ({ text: "silent job done" })) : undefined,
		);
		submit("silent", `TOOL:subagent:${JSON.stringify({ agent_type: "pi", task: "tui silent job", background: true })}`);
		// The job runs (its child waits for the model) and the parent has answered: the line would be drawn now.
		await server.waitFor((requests) => requests.some((r) => r.lastUserText === "tui silent job"), 45_000);
		await waitUntil(() => startedJobs(scrollback("silent")).length === 1, "the started job", 45_000);
		expect(screen("silent")).not.toContain("⏳ background:");
		release();
		await server.waitFor(
			(requests) => requests.some((r) => r.userTexts.some((text) => text.includes("silent job done"))),
			45_000,
		);
		expect(screen("silent")).not.toContain("⏳ background:");
	});
});
