import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { RosterDetails } from "../../src/tools/roster-tool.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";
import { writeJson } from "../support/files.ts";
import { expectRefused } from "../support/refusals.ts";

let env: E2eEnv;
let rosterDir: string;

/** A normalized roster: foreman → feature-owner (pi, reasoner/high, one skill) and plain-helper. */
function writeNormalizedRoster(root: string): string {
	writeJson(join(root, "foreman/agent.json"), {
		agent: { name: "foreman", description: "Coordinates", agent_type: "pi", model: "fake/fake-model", effort: "low" },
		roster: {
			enabled: true,
			roles: [{ agent_file: "../feature-owner/agent.json" }, { agent_file: "../plain-helper/agent.json" }],
		},
	});
	writeJson(join(root, "feature-owner/agent.json"), {
		agent: {
			name: "feature-owner",
			description: "Owns a feature",
			agent_type: "pi",
			model: "fake/fake-reasoner",
			effort: "high",
			resources: { skills: ["./skills/ownership"] },
		},
		roster: { enabled: false, roles: [] },
	});
	mkdirSync(join(root, "feature-owner/skills/ownership"), { recursive: true });
	writeFileSync(
		join(root, "feature-owner/skills/ownership/SKILL.md"),
		"---\nname: ownership\ndescription: Owning a feature end to end. Use when asked to own a feature.\n---\n# Ownership\nDo it all.\n",
	);
	writeJson(join(root, "plain-helper/agent.json"), {
		agent: { name: "plain-helper", description: "Helps", agent_type: "pi", model: "fake/fake-model", effort: "off" },
		roster: { enabled: false, roles: [] },
	});
	return join(root, "foreman/agent.json");
}

beforeAll(async () => {
	env = await startE2eEnv({});
	rosterDir = join(env.home.dir, "rosters");
	process.env.PI_AGENTSHELL_ROSTER_FILE = writeNormalizedRoster(rosterDir);
	env.session.dispose();
	env.session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
});
afterAll(async () => {
	delete process.env.PI_AGENTSHELL_ROSTER_FILE;
	await env?.close();
});

describe("roster entries, end to end", () => {
	it("lists the effective entries with resolved resource paths", async () => {
		const { result, isError } = await env.session.callTool<RosterDetails>("subagent_roster", {});
		expect(isError).toBe(false);
		expect(result.details.entries.map((e) => e.name)).toEqual(["feature-owner", "plain-helper"]);
		expect(result.details.entries[0].resources?.skills).toEqual([join(rosterDir, "feature-owner/skills/ownership")]);
		expect(textOf(result)).toContain(join(rosterDir, "feature-owner/skills/ownership"));
	});

	it("runs the entry's model and effort, shows its skill, and gives it its own roster file", async () => {
		env.server.scriptFor(
			"print your roster",
			{
				toolCalls: [
					{
						name: "bash",
						arguments: { command: 'echo "roster=$PI_AGENTSHELL_ROSTER_FILE depth=$PI_AGENTSHELL_DEPTH"' },
					},
				],
			},
			(request) => ({ text: request.lastToolOutput?.trim() ?? "" }),
		);
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			roster_entry: "feature-owner",
			task_name: "Add export",
			prompt: "print your roster",
		});
		expect(isError, textOf(result)).toBe(false);
		const requests = env.server.requests.filter((r) => r.lastUserText.includes("print your roster"));
		expect(requests[0].model).toBe("fake-reasoner");
		expect(requests[0].effort).toBe("high");
		expect(requests[0].systemPrompt).toContain("ownership");
		expect(requests[0].systemPrompt).toContain("Owning a feature end to end");
		const answer = result.details.children[0].result?.finalAnswer;
		expect(answer).toBe(`roster=${join(rosterDir, "feature-owner/agent.json")} depth=1`);
	});

	it("removes the roster variable from an ad-hoc child with no selection", async () => {
		env.server.scriptFor(
			"show the variable",
			{ toolCalls: [{ name: "bash", arguments: { command: `echo "[\${PI_AGENTSHELL_ROSTER_FILE-unset}]"` } }] },
			(request) => ({ text: request.lastToolOutput?.trim() ?? "" }),
		);
		expect(process.env.PI_AGENTSHELL_ROSTER_FILE).toBeDefined();
		const { result } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "show the variable",
		});
		expect(result.details.children[0].result?.finalAnswer).toBe("[unset]");
	});

	it("refuses a manual model that conflicts with the entry, naming the field, and spawns nothing", async () => {
		await expectRefused(
			env,
			{
				roster_entry: "feature-owner",
				task: "x",
				model: "fake/fake-model",
			},
			'roster entry "feature-owner": model "fake/fake-model" conflicts with the entry\'s "fake/fake-reasoner"',
		);
	});

	it("accepts agent_type repeated with roster_entry when it agrees, and names it when it conflicts", async () => {
		env.server.scriptFor("agreeing harness", { text: "agreed" });
		const ok = await env.session.callTool<SubagentDetails>("subagent", {
			roster_entry: "plain-helper",
			agent_type: "pi",
			task: "agreeing harness",
		});
		expect(ok.isError, textOf(ok.result)).toBe(false);
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			roster_entry: "plain-helper",
			agent_type: "codex",
			task: "x",
		});
		expect(isError).toBe(true);
		expect(textOf(result)).toContain(
			'roster entry "plain-helper": agent_type "codex" conflicts with the entry\'s "pi"',
		);
	});

	it("reports a child's broken roster section once, without claiming its settings changed", async () => {
		const file = join(rosterDir, "plain-helper/agent.json");
		const original = readFileSync(file, "utf8");
		try {
			const edited = JSON.parse(original);
			edited.roster = { enabled: true, roles: [{ agent_file: "../nowhere/agent.json" }] };
			writeFileSync(file, JSON.stringify(edited));
			const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
				roster_entry: "plain-helper",
				task: "x",
			});
			expect(isError).toBe(true);
			const text = textOf(result);
			expect(text).toContain(`${file}: the definition of roster entry "plain-helper" is no longer valid; fix it`);
			expect(text).not.toContain("changed after load");
			expect(text.split(join(rosterDir, "nowhere/agent.json")).length - 1).toBe(1);
		} finally {
			writeFileSync(file, original);
		}
	});

	it("refuses an unknown entry, listing the entries", async () => {
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			roster_entry: "nobody",
			task: "x",
		});
		expect(isError).toBe(true);
		expect(textOf(result)).toContain('unknown roster entry "nobody"');
		expect(textOf(result)).toContain("Entries: feature-owner, plain-helper");
	});

	it("suggests the nearest roster entry and names the roster file searched", async () => {
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			roster_entry: "plain-helpr",
			task: "x",
		});
		expect(isError).toBe(true);
		const text = textOf(result);
		expect(text).toContain('unknown roster entry "plain-helpr"');
		expect(text).toContain('(did you mean "plain-helper"?)');
		expect(text).toContain(
			`Roster searched: ${join(rosterDir, "foreman/agent.json")} (selected by PI_AGENTSHELL_ROSTER_FILE)`,
		);
	});

	it("fails the next launch when a child definition was edited after load, naming the file", async () => {
		const file = join(rosterDir, "plain-helper/agent.json");
		const original = readFileSync(file, "utf8");
		try {
			writeFileSync(file, original.replace('"effort": "off"', '"effort": "low"'));
			const before = env.server.requests.length;
			const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
				roster_entry: "plain-helper",
				task: "x",
			});
			expect(isError).toBe(true);
			expect(textOf(result)).toContain(
				`${file}: the agent definition of roster entry "plain-helper" changed after load`,
			);
			expect(textOf(result)).toContain("/reload");
			expect(env.server.requests.length).toBe(before);
		} finally {
			writeFileSync(file, original);
		}
	});
});

describe("/agentshell-roster", () => {
	afterEach(() => {
		process.env.PI_AGENTSHELL_ROSTER_FILE = join(rosterDir, "foreman/agent.json");
	});

	it("is an in-memory toggle while an override is selected, and a new load restores the file's value", async () => {
		await env.session.prompt("/agentshell-roster");
		const off = await env.session.callTool<RosterDetails>("subagent_roster", {});
		expect(off.result.details.enabled).toBe(false);
		const refused = await env.session.callTool<SubagentDetails>("subagent", {
			roster_entry: "plain-helper",
			task: "x",
		});
		expect(textOf(refused.result)).toContain("is disabled; enable it with /agentshell-roster");
		expect(JSON.parse(readFileSync(join(rosterDir, "foreman/agent.json"), "utf8")).roster.enabled).toBe(true);
		const fresh = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
		try {
			expect((await fresh.callTool<RosterDetails>("subagent_roster", {})).result.details.enabled).toBe(true);
		} finally {
			fresh.dispose();
		}
		await env.session.prompt("/agentshell-roster");
		expect((await env.session.callTool<RosterDetails>("subagent_roster", {})).result.details.enabled).toBe(true);
	});

	it("names the file and format of the roster in force, the settings file's too", async () => {
		const override = await env.session.callTool<RosterDetails>("subagent_roster", {});
		expect(textOf(override.result).split("\n")[0]).toBe(
			`Roster: ${join(rosterDir, "foreman/agent.json")} (normalized format), enabled`,
		);
		delete process.env.PI_AGENTSHELL_ROSTER_FILE;
		const settingsFile = join(env.home.agentDir, "extensions/agentshell.json");
		writeJson(settingsFile, { roster: { enabled: false, roles: [] } });
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
		try {
			const personal = await session.callTool<RosterDetails>("subagent_roster", {});
			expect(textOf(personal.result).split("\n")[0]).toBe(
				`Roster: the personal roster in ${settingsFile} (inline format), disabled — enable it with /agentshell-roster`,
			);
		} finally {
			session.dispose();
		}
	});

	it("persists to the settings file when no override is selected", async () => {
		delete process.env.PI_AGENTSHELL_ROSTER_FILE;
		const settingsFile = join(env.home.agentDir, "extensions/agentshell.json");
		writeJson(settingsFile, { roster: { enabled: false, roles: [] } });
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
		try {
			await session.prompt("/agentshell-roster");
			expect(JSON.parse(readFileSync(settingsFile, "utf8")).roster.enabled).toBe(true);
			expect((await session.callTool<RosterDetails>("subagent_roster", {})).result.details.enabled).toBe(true);
		} finally {
			session.dispose();
		}
	});
});
