/**
 * What a SIGKILLed REAL pi parent leaves in the temp dir (SECURITY.md "Data"): the run directories of its
 * children (with the agent body `append-system-prompt.md`) and the socket directory of its tmux server are
 * removed by its watchdog right after its kills; what is left of a dead parent's is swept at a later session
 * start; nothing that is not this user's, or whose maker still runs. Each
 * parent gets its own TMPDIR, so every directory in it is this test's; the test SIGKILLs only the parent
 * pid it spawned, and waits for the children the lifeline ends before looking.
 */
import { spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACT_PRUNE_INTERVAL_MS, PRUNE_STAMP } from "../../src/runs/artifact-root.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";
import { isRunning, type ProcessIdentity, processTree, waitUntil } from "../support/processes.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const PI_CLI = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");
const HEADLESS_TASK = "leftovers headless child";
const TUI_TASK = "leftovers interactive child";

let server: FakeModelServer;
let home: PiHome;

beforeAll(async () => {
	server = await startFakeModelServer();
	home = createPiHome(server, { agents: { bodied: { description: "Has a body", body: "You keep a body file." } } });
	server.route((request) => {
		if (!request.userTexts.some((text) => text.includes("leftovers parent"))) return undefined;
		if (request.toolNames.includes("subagent") && request.lastToolOutput === undefined) {
			const tasks = [
				{ agent: "bodied", task: HEADLESS_TASK },
				{ agent_type: "pi", task: TUI_TASK, interactive: true },
			];
			return { toolCalls: [{ name: "subagent", arguments: { tasks } }] };
		}
		return { hang: true };
	});
	// Both children wait for the model for ever: they run when the parent dies.
	server.route((request) =>
		request.lastUserText.includes(HEADLESS_TASK) || request.lastUserText.includes(TUI_TASK)
			? { hang: true }
			: undefined,
	);
	server.route((request) => (request.lastUserText === "next session" ? { text: "started" } : undefined));
});
afterAll(async () => {
	await home?.cleanup();
	await server?.close();
});

function runPi(tmp: string, prompt: string) {
	const cwd = join(home.dir, "work");
	mkdirSync(cwd, { recursive: true });
	return spawn(NODE, [PI_CLI, "--mode", "json", "-p", "--no-session", "-e", ROOT, prompt], {
		cwd,
		env: { ...process.env, ...home.env, TMPDIR: tmp },
		stdio: ["ignore", "ignore", "ignore"],
	});
}

const leftovers = (tmp: string) =>
	readdirSync(tmp)
		.filter((name) => name.startsWith("pi-native-subagents-run-") || name.startsWith("pi-subagents-tmux-"))
		.sort();

/**
 * A hold file of `deadPid` naming an old child session (400 days), as a parent killed after recording it
 * leaves them; returns the holds dir and that session file.
 */
function deadParentsHold(deadPid: number): { holds: string; orphan: string } {
	const base = join(home.agentDir, "pi-native-subagents");
	const holds = join(base, "holds");
	mkdirSync(holds, { recursive: true });
	mkdirSync(join(base, "sessions"), { recursive: true });
	writeFileSync(join(holds, `${deadPid}-deadbeef.json`), JSON.stringify({ sessions: ["held-by-the-dead"] }));
	const orphan = join(base, "sessions", "2020-01-01T00-00-00-000Z_held-by-the-dead.jsonl");
	writeFileSync(orphan, "{}\n");
	const at = (Date.now() - 400 * 24 * 60 * 60 * 1000) / 1000;
	utimesSync(orphan, at, at);
	return { holds, orphan };
}

describe("leftovers of a SIGKILLed parent", () => {
	it("the dead parent's watchdog removes its run directories, agent body and tmux directory, a later session start what is left of a dead parent's, and nothing else", {
		timeout: 120_000,
	}, async () => {
		const tmp = join(home.dir, "parent-tmp");
		mkdirSync(tmp, { recursive: true });
		const pi = runPi(tmp, "leftovers parent");
		let children: ProcessIdentity[] = [];
		try {
			await waitUntil(
				() => [HEADLESS_TASK, TUI_TASK].every((task) => server.requests.some((r) => r.lastUserText.includes(task))),
				"both children's requests",
				60_000,
			);
			const made = leftovers(tmp);
			expect(made.filter((name) => name.startsWith("pi-native-subagents-run-"))).toHaveLength(2);
			expect(made.filter((name) => name.startsWith("pi-subagents-tmux-"))).toHaveLength(1);
			const bodies = made.filter((name) => existsSync(join(tmp, name, "append-system-prompt.md")));
			expect(bodies).toHaveLength(1);
			children = processTree(pi.pid as number).slice(1);
			pi.kill("SIGKILL");
			await new Promise((done) => pi.once("exit", done));
			// The lifeline ends the children, and the watchdog (one of them) removes their directories before it exits.
			await waitUntil(() => children.every((child) => !isRunning(child)), "the children to die", 10_000);
			expect(leftovers(tmp)).toEqual([]);

			// What a watchdog could not remove (it was killed too) goes at a later session start, with the hourly
			// artifact prune (docs/tools.md §Artifacts), made due here.
			const left = join(tmp, `pi-native-subagents-run-${pi.pid}-Left01`);
			mkdirSync(left);
			writeFileSync(join(left, "append-system-prompt.md"), "a body");
			const stamp = join(tmp, `pi-native-subagents-${process.getuid?.() ?? "user"}`, PRUNE_STAMP);
			expect(existsSync(stamp)).toBe(true);
			const hourAgo = (Date.now() - ARTIFACT_PRUNE_INTERVAL_MS - 60_000) / 1000;
			utimesSync(stamp, hourAgo, hourAgo);
			// Not swept: a directory whose maker runs (this test process), and one of another user.
			const live = join(tmp, `pi-native-subagents-run-${process.pid}-AbC123`);
			mkdirSync(live);
			const foreign = join(tmp, `pi-native-subagents-run-${pi.pid}-XyZ789`);
			mkdirSync(foreign);
			const root = process.getuid?.() === 0;
			if (root) chownSync(foreign, 65534, 65534);

			// In the agent dir: a hold of the dead parent, and an old child session nobody else holds.
			const { holds, orphan } = deadParentsHold(pi.pid as number);

			const next = runPi(tmp, "next session");
			const code = await new Promise((done) => next.once("exit", done));
			expect(code).toBe(0);
			const kept = [live, ...(root ? [foreign] : [])].map((path) => path.slice(tmp.length + 1)).sort();
			expect(leftovers(tmp)).toEqual(kept);
			// A headless session start without a settings file applies the retention too (docs/rules.md §Child sessions).
			expect(readdirSync(holds).filter((name) => name.startsWith(`${pi.pid}-`))).toEqual([]);
			expect(existsSync(orphan)).toBe(false);
		} finally {
			if (pi.exitCode === null && pi.signalCode === null) pi.kill("SIGKILL");
			for (const child of children) if (isRunning(child)) process.kill(child.pid, "SIGKILL");
		}
	});
});
