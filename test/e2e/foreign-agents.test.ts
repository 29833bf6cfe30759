/**
 * Agent files written for other tools load and run (docs/configuration.md §Agent files from other tools): the official
 * Pi subagent example, a Claude Code subagent and a pi-subagents agent, each run as a real pi child.
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { expectRefused } from "../support/refusals.ts";

const PI_EXAMPLE = resolve(
	import.meta.dirname,
	"../../node_modules/@earendil-works/pi-coding-agent/examples/extensions/subagent/agents/planner.md",
);

const CLAUDE_CODE_AGENT = `---
name: code-reviewer
description: Expert code reviewer. Use PROACTIVELY after writing code.
tools: Read, Grep, Glob, Bash
disallowedTools: Write
model: inherit
color: blue
permissionMode: default
---
You are a senior code reviewer (CLAUDE-CODE-FORMAT).
`;

const PI_SUBAGENTS_AGENT = `---
name: recon
description: Fast codebase recon
tools: read, grep, find, ls
model: fake/fake-reasoner
thinking: high
output: context.md
defaultReads: notes.md
defaultProgress: true
---
You are a scout (PI-SUBAGENTS-FORMAT).
`;

const EMPOWERING_AGENT = `---
name: autonomous
description: Runs without asking
permissionMode: bypassPermissions
mcpServers:
  - github
---
You act alone.
`;

let env: E2eEnv;
const agentsDir = () => join(env.home.agentDir, "agents");

beforeAll(async () => {
	env = await startE2eEnv({ agents: { placeholder: { description: "keeps the agents dir", body: "x" } } });
	copyFileSync(PI_EXAMPLE, join(agentsDir(), "planner.md"));
	writeFileSync(join(agentsDir(), "code-reviewer.md"), CLAUDE_CODE_AGENT);
	writeFileSync(join(agentsDir(), "recon.md"), PI_SUBAGENTS_AGENT);
	writeFileSync(join(agentsDir(), "autonomous.md"), EMPOWERING_AGENT);
});
afterAll(async () => env?.close());

async function run(agent: string, task: string, extra: Record<string, unknown> = {}) {
	env.server.scriptFor(task, { text: `${agent} done` });
	const outcome = await env.session.callTool<SubagentDetails>("subagent", { agent, task, ...extra });
	expect(outcome.isError, textOf(outcome.result)).toBe(false);
	expect(runOf(outcome.result.details).finalAnswer).toBe(`${agent} done`);
	const request = env.server.requests.find((r) => r.lastUserText?.startsWith(task));
	if (!request) throw new Error(`no request for ${task}`);
	return request;
}

describe("agent files from other tools", () => {
	it("runs the official Pi example agent with its tools and body", async () => {
		const request = await run("planner", "plan from the pi example", { model: "fake/fake-model" });
		expect(request.toolNames.sort()).toEqual(["find", "grep", "ls", "read"]);
		expect(request.systemPrompt).toContain("You are a planning specialist.");
	});

	it("runs a Claude Code agent: its tool names mapped to pi's, its denylist applied, cosmetic keys ignored", async () => {
		const request = await run("code-reviewer", "review in claude code format");
		expect(request.toolNames.sort()).toEqual(["bash", "find", "grep", "read"]);
		expect(request.systemPrompt).toContain("CLAUDE-CODE-FORMAT");
		expect(request.model).toBe("fake-model");
	});

	it("runs a pi-subagents agent with its thinking level as the effort and its read and output files mapped", async () => {
		const request = await run("recon", "recon in pi-subagents format");
		expect(request.toolNames.sort()).toEqual(["find", "grep", "ls", "read"]);
		expect(request).toMatchObject({ model: "fake-reasoner", effort: "high" });
		expect(request.systemPrompt).toContain("PI-SUBAGENTS-FORMAT");
	});

	it("lists each agent with the keys it ignores, and the file whose keys cannot be honoured, naming them", async () => {
		const { result } = await env.session.callTool("subagent_roster", {});
		const text = textOf(result);
		expect(text).toContain("- code-reviewer (user; ignored keys: color, permissionMode) [pi]");
		expect(text).toContain("- recon (user; ignored keys: defaultProgress) [pi]");
		expect(text).toContain("- planner (user) [pi]");
		expect(text).toContain(`failed to load: ${join(agentsDir(), "autonomous.md")}: permissionMode: would change`);
		expect(text).toContain(`${join(agentsDir(), "autonomous.md")}: mcpServers: would give the child MCP servers`);
	});

	it("refuses to run an agent whose key would empower the child, naming the key, and spawns nothing", async () => {
		await expectRefused(
			env,
			{
				agent: "autonomous",
				task: "x",
			},
			`${join(agentsDir(), "autonomous.md")}: permissionMode: would change`,
		);
	});
});
