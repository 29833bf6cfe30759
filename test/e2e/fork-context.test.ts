/**
 * `defaultContext: fork` (pi-subagents; docs/agent-libraries.md §pi format): under a real `pi` parent whose
 * session is saved, the child is a real pi started with `--fork <the parent's session file>`, so its first
 * request carries the parent's own conversation before the child's task.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPiCli } from "../fake-model/run-pi.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";

const ROOT = resolve(import.meta.dirname, "../..");

let server: FakeModelServer;
let home: PiHome;

beforeAll(async () => {
	server = await startFakeModelServer();
	home = createPiHome(server, {
		agents: {
			forker: {
				description: "Continues from the parent's conversation",
				body: "FORKED-AGENT-BODY",
				model: "fake/fake-model",
				fields: { defaultContext: "fork" },
			},
			fresh: { description: "Starts fresh", body: "FRESH-AGENT-BODY", model: "fake/fake-model" },
		},
	});
	mkdirSync(join(home.dir, "work"), { recursive: true });
});
afterAll(async () => {
	await server?.close();
	home?.cleanup();
});

/** The parent model: on a prompt containing `marker` it calls `agent` with `childTask`, then echoes the tool's output. */
function parentDelegates(marker: string, agent: string, childTask: string): void {
	server.route((request) => {
		if (request.lastUserText === childTask) return undefined;
		if (!request.userTexts.some((text) => text.includes(marker))) return undefined;
		if (request.lastToolOutput !== undefined) return { text: `tool said: ${request.lastToolOutput}` };
		return { toolCalls: [{ name: "subagent", arguments: { agent, task: childTask } }] };
	});
}

describe("defaultContext: fork under a real pi parent", () => {
	it("starts the child from a fork of the parent's saved session: its first request carries the parent's conversation", async () => {
		const parentPrompt = "FORK-PARENT-SECRET is walrus; delegate to forker";
		parentDelegates("FORK-PARENT-SECRET", "forker", "forked child task");
		server.scriptFor("forked child task", { text: "the walrus" });
		const sessionDir = join(home.dir, "parent-sessions");
		const run = await runPiCli(home, ["-e", ROOT, "--session-dir", sessionDir, "-p", parentPrompt]);
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toContain("tool said:");
		expect(run.stdout).toContain("the walrus");
		const child = server.requests.find((r) => r.lastUserText === "forked child task");
		expect(child?.userTexts[0]).toBe(parentPrompt);
		expect(child?.systemPrompt).toContain("FORKED-AGENT-BODY");
	});

	it("starts a child without defaultContext fresh, without the parent's conversation", async () => {
		const parentPrompt = "FRESH-PARENT-SECRET is otter; delegate to fresh";
		parentDelegates("FRESH-PARENT-SECRET", "fresh", "fresh child task");
		server.scriptFor("fresh child task", { text: "no otter here" });
		const run = await runPiCli(home, [
			"-e",
			ROOT,
			"--session-dir",
			join(home.dir, "parent-sessions"),
			"-p",
			parentPrompt,
		]);
		expect(run.code, run.stderr).toBe(0);
		const child = server.requests.find((r) => r.lastUserText === "fresh child task");
		expect(child?.userTexts).toEqual(["fresh child task"]);
	});

	it("refuses a fork agent under a parent whose session is not saved, naming the file and the key", async () => {
		parentDelegates("NOSESSION-PARENT", "forker", "unsaved fork task");
		const run = await runPiCli(home, ["-e", ROOT, "--no-session", "-p", "NOSESSION-PARENT delegate"]);
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toContain(
			`${join(home.agentDir, "agents", "forker.md")}: defaultContext: "fork" needs the parent's session file`,
		);
		expect(server.requests.some((r) => r.lastUserText === "unsaved fork task")).toBe(false);
	});
});
