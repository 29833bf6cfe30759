/**
 * Background jobs under a real `pi` parent: print and JSON mode refuse them (no follow-up could arrive), and a
 * job running when the session is replaced (`/new`) reports its cancellation to the session that started it.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { JOB_MESSAGE_TYPE } from "../../src/runs/jobs.ts";
import { runPiCli } from "../fake-model/run-pi.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";
import { groupMembers, isAlive, waitUntil } from "../support/processes.ts";
import { ROOT, startRpcPi } from "../support/rpc-pi.ts";

let server: FakeModelServer;
let home: PiHome;
let workDir: string;

beforeAll(async () => {
	server = await startFakeModelServer();
	home = createPiHome(server);
	workDir = join(home.dir, "work");
	mkdirSync(workDir, { recursive: true });
});
afterAll(async () => {
	await home?.cleanup();
	await server?.close();
});

/**
 * The parent model: on a prompt containing `marker` it calls subagent in the background with `childTask`, then
 * answers `tool said: <the tool's output>`.
 */
function parentCallsBackground(marker: string, childTask: string): void {
	server.route((request) => {
		if (!request.userTexts.some((text) => text.includes(marker))) return undefined;
		if (request.lastToolOutput !== undefined) return { text: `tool said: ${request.lastToolOutput}` };
		return { toolCalls: [{ name: "subagent", arguments: { agent_type: "pi", task: childTask, background: true } }] };
	});
}

/** Runs the real pi with this package loaded (`-e`), no session file, and `args`. */
function runPi(args: string[]) {
	return runPiCli(home, ["-e", ROOT, "--no-session", ...args]);
}

describe("background jobs in print and JSON mode", () => {
	it("refuses background: true under `pi -p` with a clear message, and runs no child", async () => {
		parentCallsBackground("print mode delegation", "print mode child task");
		const run = await runPi(["-p", "print mode delegation"]);
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toContain("tool said: subagent: nothing was started.");
		expect(run.stdout).toContain("background: true needs a session that stays open to receive the result");
		expect(run.stdout).toContain("pi runs in print mode (-p)");
		expect(server.requests.some((r) => r.lastUserText === "print mode child task")).toBe(false);
	});

	it("refuses background: true under `pi --mode json`, and runs no child", async () => {
		parentCallsBackground("json mode delegation", "json mode child task");
		const run = await runPi(["--mode", "json", "-p", "json mode delegation"]);
		expect(run.code, run.stderr).toBe(0);
		const ends = run.stdout
			.split("\n")
			.filter((line) => line.startsWith("{"))
			.map((line) => JSON.parse(line) as { type: string; toolName?: string; isError?: boolean; result?: unknown })
			.filter((event) => event.type === "tool_execution_end" && event.toolName === "subagent");
		expect(ends).toHaveLength(1);
		expect(ends[0].isError).toBe(true);
		expect(JSON.stringify(ends[0].result)).toContain("pi runs in json mode (--mode json)");
		expect(server.requests.some((r) => r.lastUserText === "json mode child task")).toBe(false);
	});
});

/** A real `pi --mode rpc` parent in the work dir, its sessions in `sessionDir`. */
function startPi(sessionDir: string) {
	return startRpcPi(["--session-dir", sessionDir], { cwd: workDir, env: { ...process.env, ...home.env } });
}

/** The custom_message entries of a session file with this package's job message type. */
function jobMessages(sessionFile: string): Array<{ content: string; details: SubagentDetails }> {
	if (!existsSync(sessionFile)) return [];
	return readFileSync(sessionFile, "utf8")
		.split("\n")
		.filter((line) => line.trim().length > 0)
		.map(
			(line) => JSON.parse(line) as { type: string; customType?: string; content: unknown; details: SubagentDetails },
		)
		.filter((entry) => entry.type === "custom_message" && entry.customType === JOB_MESSAGE_TYPE)
		.map((entry) => ({
			content: typeof entry.content === "string" ? entry.content : JSON.stringify(entry.content),
			details: entry.details,
		}));
}

describe("background jobs when the session is replaced", () => {
	it("reports a job running at /new to the session that started it, as cancelled, and kills its children", async () => {
		parentCallsBackground("start a job, then /new", "job running at /new");
		server.scriptFor("job running at /new", { hang: true });
		const pi = startPi(join(home.dir, "rpc-sessions"));
		try {
			await pi.command({ type: "prompt", message: "start a job, then /new" });
			await waitUntil(() => pi.events.some((e) => e.type === "agent_end"), "the parent's turn to end", 30_000);
			await server.waitFor((requests) => requests.some((r) => r.lastUserText === "job running at /new"), 30_000);
			const oldFile = (await pi.command({ type: "get_state" })).sessionFile as string;
			expect(jobMessages(oldFile)).toEqual([]);

			expect((await pi.command({ type: "new_session" })).cancelled).toBe(false);

			const reports = jobMessages(oldFile);
			expect(reports, pi.stderr()).toHaveLength(1);
			expect(reports[0].content).toMatch(
				/^Background job \w+ \(pi: job running at \/new\) cancelled \(the session was replaced \(\/new\); its children were stopped\)\./,
			);
			const pid = reports[0].details.children[0].result?.pid as number;
			expect(pid).toBeGreaterThan(0);
			expect(isAlive(pid)).toBe(false);
			expect(groupMembers(pid)).toEqual([]);
			const newFile = (await pi.command({ type: "get_state" })).sessionFile as string;
			expect(newFile).not.toBe(oldFile);
			expect(jobMessages(newFile)).toEqual([]);
		} finally {
			await pi.stop();
		}
	});
});
