/**
 * A real interactive Pi in a terminal (tmux on a private socket), loading this package by its directory
 * against the fake model: Pi lists the extension under the package directory's name, not `src`, and a
 * parallel call renders a live headline and each child's phase and elapsed time, then the final state;
 * background jobs show the jobs line (oldest three, elapsed time, `+N more`) while they run, and a Pi whose
 * settings say `silent` never shows it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeModelServer, type RecordedRequest, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";
import { PiTuiHost, ROOT, startedJobs } from "../support/pi-tui.ts";
import { waitUntil } from "../support/processes.ts";

let server: FakeModelServer;
let home: PiHome;
let silentHome: PiHome;
let host: PiTuiHost;

const screen = (name = "pi") => host.screen(name);
const scrollback = (name: string) => host.scrollback(name);
const submit = (target: string, text: string) => host.submit(target, text);
const waitForScreen = (target: string, check: (text: string) => boolean, what: string) =>
	host.waitForScreen(target, check, what);

beforeAll(async () => {
	server = await startFakeModelServer({ fallback: "rules" });
	home = createPiHome(server);
	silentHome = createPiHome(server);
	mkdirSync(join(silentHome.agentDir, "extensions"), { recursive: true });
	writeFileSync(join(silentHome.agentDir, "extensions", "agentshell.json"), JSON.stringify({ silent: true }));
	host = new PiTuiHost();
	host.startPi("pi", home);
	host.startPi("silent", silentHome);
});

afterAll(async () => {
	await host?.close();
	// Pi writes its compile cache into the home while it exits: each home goes only once no process uses it.
	await home?.cleanup();
	await silentHome?.cleanup();
	await server?.close();
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
		submit("pi", `TOOL:subagent:${JSON.stringify(call)}`);
		// The slow child's model holds its answer: the screen must show it waiting, with its elapsed time.
		await waitUntil(
			() => /⏳ 1\. pi waiting for the model · \d+\.\ds/.test(screen()) && /1 ✓ · 1 running/.test(screen()),
			"the slow child waiting for its model under a 1/2 headline",
			45_000,
		).catch((error: Error) => {
			throw new Error(`${error.message}; the screen:\n${screen()}`);
		});
		const live = screen();
		expect(live).toMatch(/✓ 2\. pi completed · \d+\.\ds/);
		expect(live).not.toContain("model unknown");
		// Once in the prompt, once in the child's card (an unnamed child shows its task), never in the call line.
		expect(live.match(/tui slow child/g)?.length).toBe(2);
		expect(live).toMatch(/⏳ 1\. pi waiting for the model · .*— tui slow child/);
		release();
		await waitUntil(() => screen().includes("Tool said:"), "the parent's answer", 45_000);
		const done = screen();
		expect(done).toMatch(/2 ✓ · ↑[\d.]+k? ↓\d+ \$0\.\d{4}/);
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
			r.userTexts.some((text) => text.startsWith(`Background job ${id} (pi: tui job `) && text.includes(") completed"));
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
