/**
 * Bad configuration on the lazily loaded paths (docs/settings.md §Settings file: a bad file refuses launches,
 * naming the file and each field): the runtime, the tools and the commands load with their first use, and a
 * malformed file must still be named, with its field, by the first calls of a session (made at once, so that
 * they meet while the runtime loads), by the second call, and after `/reload`.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2eEnv, settingsFileOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession, type UiCall } from "../support/extension-session.ts";

let env: E2eEnv;
beforeAll(async () => {
	env = await startE2eEnv({});
});
afterAll(async () => {
	await env?.close();
});

function writeSettingsText(text: string): string {
	const file = settingsFileOf(env);
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, text);
	return file;
}

describe("a malformed settings file met by lazily loaded tools", () => {
	it("is named with its field by every first call of a session made at once, and by the second call", async () => {
		// Written after the session started: nothing read it yet, the first calls load the runtime.
		const file = writeSettingsText('{"limits": {"concurrency": "four"}}');
		const problem = `${file}: limits.concurrency: expected an integer (children), got string`;
		try {
			const before = env.server.requests.length;
			const [subagent, roster, jobs, graph] = await env.session.callTools([
				{ name: "subagent", args: { agent_type: "pi", task: "never runs" } },
				{ name: "subagent_roster", args: {} },
				{ name: "subagent_jobs", args: {} },
				{ name: "agent_graph", args: { name: "no-such-graph" } },
			]);
			expect([subagent.isError, roster.isError, graph.isError]).toEqual([true, true, true]);
			for (const outcome of [subagent, roster, graph]) expect(textOf(outcome.result)).toContain(problem);
			expect(textOf(subagent.result)).toContain("nothing was started");
			// Listing jobs needs no settings: it answers.
			expect({ isError: jobs.isError, text: textOf(jobs.result) }).toEqual({
				isError: false,
				text: "No background jobs.",
			});
			const second = await env.session.callTool("subagent", { agent_type: "pi", task: "never runs" });
			expect(second.isError).toBe(true);
			expect(textOf(second.result)).toContain(problem);
			expect(env.server.requests.length).toBe(before);
		} finally {
			rmSync(file, { force: true });
		}
	});

	it("is named with its repeated key at session start and after /reload, and a fixed file is read on /reload", async () => {
		const file = writeSettingsText('{"silent": false, "silent": true}');
		const uiLog: UiCall[] = [];
		const notes = () => uiLog.filter((call) => call.method === "notify").map((call) => String(call.args[0]));
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, uiLog });
		try {
			const repeated = (note: string) => note.includes(file) && note.includes('duplicate key "silent"');
			expect(notes().filter(repeated)).toHaveLength(1);
			await session.reload();
			expect(notes().filter(repeated)).toHaveLength(2);
			writeSettingsText('{"silent": true}');
			uiLog.length = 0;
			await session.reload();
			expect(notes().filter((note) => note.includes(file))).toEqual([]);
		} finally {
			await session.shutdown();
			session.dispose();
			rmSync(file, { force: true });
		}
	});
});

describe("calls that meet the runtime's load", () => {
	it("answers a command, the jobs and roster tools and a subagent call made while a session start's load runs", async () => {
		// Child sessions to retain: the session start begins the runtime's load without waiting for it.
		const sessions = join(env.home.agentDir, "pi-native-subagents", "sessions");
		mkdirSync(sessions, { recursive: true });
		const uiLog: UiCall[] = [];
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, uiLog });
		try {
			env.server.scriptFor("during the load", { text: "answered" });
			const [calls] = await Promise.all([
				session.callTools([
					{ name: "subagent_jobs", args: {} },
					{ name: "subagent_roster", args: {} },
					{ name: "subagent", args: { agent_type: "pi", task: "during the load" } },
				]),
				session.prompt("/subagent-jobs"),
			]);
			expect(calls.map((call) => call.isError)).toEqual([false, false, false]);
			expect(textOf(calls[0].result)).toBe("No background jobs.");
			expect(textOf(calls[1].result)).toContain("scout (builtin)");
			expect(textOf(calls[2].result)).toContain("answered");
			const notes = uiLog.filter((call) => call.method === "notify").map((call) => String(call.args[0]));
			expect(notes).toContain("/subagent-jobs: no background jobs");
		} finally {
			await session.shutdown();
			session.dispose();
		}
	});
});
