/** Resuming child sessions (docs/rules.md §Resumption) with real pi children. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { LAUNCH_RECORD_TYPE, type LaunchRecord } from "../../src/sessions/launch-record.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";
import { writeJson } from "../support/files.ts";
import { Gate } from "../support/gate.ts";
import { expectRefused } from "../support/refusals.ts";

let env: E2eEnv;
let rosterDir: string;

beforeAll(async () => {
	env = await startE2eEnv({});
	mkdirSync(join(env.home.agentDir, "agents"), { recursive: true });
	rosterDir = join(env.home.dir, "rosters");
	writeJson(join(rosterDir, "lead/agent.json"), {
		agent: { name: "lead", description: "Leads", agent_type: "pi", model: "fake/fake-model", effort: "low" },
		roster: { enabled: true, roles: [{ agent_file: "../owner/agent.json" }] },
	});
	writeJson(join(rosterDir, "owner/agent.json"), {
		agent: { name: "owner", description: "Owns", agent_type: "pi", model: "fake/fake-reasoner", effort: "high" },
		roster: { enabled: false, roles: [] },
	});
	process.env.PI_AGENTSHELL_ROSTER_FILE = join(rosterDir, "lead/agent.json");
	env.session.dispose();
	env.session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
});
afterAll(async () => {
	delete process.env.PI_AGENTSHELL_ROSTER_FILE;
	await env?.close();
});

async function start(args: Record<string, unknown>): Promise<string> {
	const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", args);
	expect(isError, textOf(result)).toBe(false);
	const id = runOf(result.details).nativeSessionId;
	expect(id).toBeDefined();
	return id as string;
}

describe("resuming a child session", () => {
	it("continues the same pi session with its history, and records the launch on the branch", async () => {
		env.server.scriptFor("remember banana", { text: "remembered" });
		const id = await start({ agent_type: "pi", task: "remember banana", allowed_tools: ["bash"] });
		const record = env.session
			.branch()
			.find((e) => e.customType === LAUNCH_RECORD_TYPE && (e.data as LaunchRecord).nativeSessionId === id);
		expect(record?.data).toMatchObject({ kind: "plain", harness: "pi", cwd: env.workDir });
		expect((record?.data as LaunchRecord | undefined)?.previousControls.allowedTools).toEqual(["bash"]);

		env.server.scriptFor("what was the word", { text: "banana" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: id,
			task: "what was the word",
		});
		expect(isError, textOf(result)).toBe(false);
		expect(runOf(result.details).nativeSessionId).toBe(id);
		const request = env.server.requests.find((r) => r.lastUserText === "what was the word");
		expect(request?.userTexts).toEqual(["remember banana", "what was the word"]);
		expect(request?.roles).toContain("assistant");
		// This package re-applies no tool controls; pi itself keeps the loadout recorded in its transcript.
		expect(request?.toolNames).toEqual(["bash"]);
		env.server.scriptFor("now with read", { text: "ok" });
		await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: id,
			task: "now with read",
			allowed_tools: ["read", "bash"],
		});
		const widened = env.server.requests.find((r) => r.lastUserText === "now with read");
		expect(widened?.toolNames.sort()).toEqual(["bash", "read"]);
	});

	it("gives the model each child's session id in the result text, and a resume driven by that text alone continues it", async () => {
		env.server.scriptFor("remember kiwi", { text: "kiwi noted" });
		env.server.scriptFor("remember plum", { text: "plum noted" });
		const first = await env.session.callTool<SubagentDetails>("subagent", {
			tasks: [
				{ agent_type: "pi", task: "remember kiwi" },
				{ agent_type: "pi", task: "remember plum" },
			],
		});
		const text = textOf(first.result);
		const ids = [...text.matchAll(/^session: (\S+) \(resume with resume_session_id\)$/gm)].map((m) => m[1]);
		expect(ids).toHaveLength(2);
		env.server.scriptFor("which fruit", { text: "plum" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: ids[1],
			task: "which fruit",
		});
		expect(isError, textOf(result)).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText === "which fruit");
		expect(request?.userTexts).toEqual(["remember plum", "which fruit"]);
		expect(textOf(result)).toContain(`session: ${ids[1]} (resume with resume_session_id)`);
	});

	it("resumes a child that failed by the session line its result gives, which names its agent_type", async () => {
		env.server.scriptFor("remember mango", { error: { status: 500, message: "provider down" } });
		const failed = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "remember mango",
		});
		expect(failed.isError).toBe(true);
		const line = /^session: (\S+) \(not recorded, .*: resume with resume_session_id and agent_type: "(\w+)"\)$/m.exec(
			textOf(failed.result),
		);
		expect(line, textOf(failed.result)).not.toBeNull();
		const [, id = "", harness = ""] = line ?? [];
		env.server.scriptFor("try mango again", { text: "mango" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: id,
			agent_type: harness,
			task: "try mango again",
		});
		expect(isError, textOf(result)).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText === "try mango again");
		expect(request?.userTexts).toEqual(["remember mango", "try mango again"]);
	});

	it("gives a resumed Markdown-agent session its agent's instructions again", async () => {
		writeFileSync(
			join(env.home.agentDir, "agents/tutor.md"),
			"---\nname: tutor\ndescription: Teaches\n---\nTUTOR-BODY: explain step by step.\n",
		);
		env.server.scriptFor("tutor starts", { text: "ok" });
		const id = await start({ agent: "tutor", task: "tutor starts" });
		env.server.scriptFor("tutor continues", { text: "ok again" });
		const { isError } = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: id,
			task: "tutor continues",
		});
		expect(isError).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText === "tutor continues");
		expect(request?.systemPrompt).toContain("TUTOR-BODY: explain step by step.");
		expect(request?.systemPrompt.split("TUTOR-BODY").length).toBe(2);
	});

	it("lets a plain session change model and effort, but not its cwd or harness", async () => {
		env.server.scriptFor("plain start", { text: "ok" });
		const id = await start({ agent_type: "pi", task: "plain start" });
		env.server.scriptFor("plain continue", { text: "ok again" });
		const { isError } = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: id,
			task: "plain continue",
			model: "fake/fake-reasoner",
			effort: "high",
		});
		expect(isError).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText === "plain continue");
		expect(request?.model).toBe("fake-reasoner");
		expect(request?.effort).toBe("high");
		const refused = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: id,
			task: "x",
			agent_type: "codex",
			cwd: "..",
		});
		expect(refused.isError).toBe(true);
		expect(textOf(refused.result)).toContain('agent_type "codex" conflicts with the session\'s saved "pi"');
		expect(textOf(refused.result)).toContain(
			`cwd "${join(env.workDir, "..")}" conflicts with the session's saved "${env.workDir}"`,
		);
	});

	it("keeps a roster-selected session's model and effort without repeating roster_entry, and refuses changes", async () => {
		env.server.scriptFor("owner starts", { text: "started" });
		const id = await start({ roster_entry: "owner", task: "owner starts" });
		env.server.scriptFor("owner continues", { text: "continued" });
		const { isError } = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: id,
			task: "owner continues",
		});
		expect(isError).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText === "owner continues");
		expect(request?.model).toBe("fake-reasoner");
		expect(request?.effort).toBe("high");
		const refused = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: id,
			task: "x",
			model: "fake/fake-model",
			resources: { include_instruction_files: false },
		});
		expect(refused.isError).toBe(true);
		const text = textOf(refused.result);
		expect(text).toContain('model "fake/fake-model" conflicts with the session\'s saved "fake/fake-reasoner"');
		expect(text).toContain('resources {"skills":[]');
	});

	it("refuses to resume a roster-selected session whose definition changed since, naming the file", async () => {
		env.server.scriptFor("owner before edit", { text: "ok" });
		const id = await start({ roster_entry: "owner", task: "owner before edit" });
		const file = join(rosterDir, "owner/agent.json");
		const original = readFileSync(file, "utf8");
		try {
			writeFileSync(file, original.replace('"high"', '"medium"'));
			await expectRefused(
				env,
				{
					resume_session_id: id,
					task: "x",
				},
				`${file}: the agent definition of roster entry "owner" changed after load`,
			);
		} finally {
			writeFileSync(file, original);
		}
	});

	it("never runs two resumes of one session at once: in one call, or in two calls of one turn", async () => {
		env.server.scriptFor("twice start", { text: "ok" });
		const id = await start({ agent_type: "pi", task: "twice start" });
		await expectRefused(
			env,
			{
				tasks: [
					{ resume_session_id: id, task: "twice a" },
					{ resume_session_id: id, task: "twice b" },
				],
			},
			`resume_session_id "${id}": that session is running now (or is resumed twice in this call)`,
		);

		// The resume that runs is held at the model until the other call of the turn has been refused.
		const gate = new Gate();
		const unroute = env.server.route(gate.rule("turn resume", () => ({ text: "resumed once" })));
		const refusal = env.session.waitForToolEnd((end) => end.isError);
		const turn = env.session.callTools([
			{ name: "subagent", args: { resume_session_id: id, task: "turn resume" } },
			{ name: "subagent", args: { resume_session_id: id, task: "turn resume" } },
		]);
		await gate.waitHeld(1);
		await refusal;
		gate.releaseOne();
		const [first, second] = await turn;
		unroute();
		const outcomes = [first, second].map((o) => o.isError);
		expect(outcomes.sort()).toEqual([false, true]);
		const refused = [first, second].find((o) => o.isError);
		expect(textOf(refused?.result as { content: Array<{ type: string; text?: string }> })).toContain(
			"that session is running now",
		);
		expect(env.server.requests.filter((r) => r.lastUserText === "turn resume")).toHaveLength(1);
	});

	it("asks for the harness of a session it has no record of, and refuses to add a selection to it", async () => {
		const bare = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: "nobody-knows",
			task: "x",
		});
		expect(bare.isError).toBe(true);
		expect(textOf(bare.result)).toContain("has no launch record of that session; give agent_type");
		const missing = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: "nobody-knows",
			agent_type: "pi",
			task: "x",
		});
		expect(missing.isError).toBe(true);
		expect(textOf(missing.result)).toContain('pi harness: no pi session "nobody-knows" in');
		const selected = await env.session.callTool<SubagentDetails>("subagent", {
			resume_session_id: "nobody-knows",
			roster_entry: "owner",
			task: "x",
		});
		expect(textOf(selected.result)).toContain("roster_entry cannot be added to it");
	});
});
