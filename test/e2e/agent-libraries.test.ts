/**
 * Agent libraries of other tools run on their own harness (docs/agent-libraries.md): a Claude Code agent
 * on the real claude through its `--agents` / `--agent` mechanism, a codex custom agent on the real codex,
 * a pi-subagents agent on the real pi with its prompt replaced and skills and context files off; a file
 * forced onto another harness; the built-in agents; the catalogue and its precedence.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";

const FIXTURES = resolve(import.meta.dirname, "../fixtures/agent-libraries");
const BUILTIN_PLANNER = readFileSync(resolve(import.meta.dirname, "../../agents/planner.md"), "utf8");

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({
		nativeHomes: true,
		agents: {
			// A user file named like a built-in overrides it.
			scout: { description: "The user's own scout", body: "USER-SCOUT-BODY", model: "fake/fake-model" },
			plain: { description: "A pi agent with default keys", body: "PLAIN-BODY", model: "fake/fake-model" },
		},
	});
	const native = env.native as NonNullable<E2eEnv["native"]>;
	mkdirSync(join(native.claude.configDir, "agents"), { recursive: true });
	copyFileSync(join(FIXTURES, "claude-code-reviewer.md"), join(native.claude.configDir, "agents", "cc-reviewer.md"));
	// A Claude Code file named like a built-in: it wins the plain name, `pi:worker` still selects the built-in.
	writeFileSync(
		join(native.claude.configDir, "agents", "worker.md"),
		"---\nname: worker\ndescription: Claude Code worker\nmodel: haiku\n---\nCLAUDE-WORKER\n",
	);
	mkdirSync(join(codexHome(), "agents"), { recursive: true });
	copyFileSync(join(FIXTURES, "codex-fixer.toml"), join(codexHome(), "agents", "fixer.toml"));
	copyFileSync(join(FIXTURES, "pi-subagents-context.md"), join(env.home.agentDir, "agents", "context-scout.md"));
	mkdirSync(join(env.home.agentDir, "skills", "demo-skill"), { recursive: true });
	writeFileSync(
		join(env.home.agentDir, "skills", "demo-skill", "SKILL.md"),
		"---\nname: demo-skill\ndescription: DEMO-SKILL-DESCRIPTION\n---\nUse it.\n",
	);
	writeFileSync(join(env.workDir, "AGENTS.md"), "PROJECT-CONTEXT-MARKER\n");
});
afterAll(async () => env?.close());

function codexHome(): string {
	return (env.native as NonNullable<E2eEnv["native"]>).codex.env.CODEX_HOME as string;
}

async function run(args: Record<string, unknown>, answer: string) {
	env.server.scriptFor(args.task as string, { text: answer });
	const outcome = await env.session.callTool<SubagentDetails>("subagent", args);
	expect(outcome.isError, textOf(outcome.result)).toBe(false);
	expect(runOf(outcome.result.details).finalAnswer).toBe(answer);
	const request = env.server.requests.find((r) => r.lastUserText?.startsWith(args.task as string));
	if (!request) throw new Error(`no request for ${args.task}`);
	return { request, outcome };
}

describe("agent libraries of other tools", () => {
	it("runs a Claude Code agent on claude with its prompt, its model alias and only its tools", async () => {
		const { request, outcome } = await run({ agent: "cc-reviewer", task: "review as claude code" }, "cc done");
		expect(runOf(outcome.result.details).harness).toBe("claude_code");
		expect(request.protocol).toBe("anthropic-messages");
		// claude resolved the alias itself: `sonnet` is a claude model, not a pi provider lookup.
		expect(request.model).toMatch(/^claude-sonnet-/);
		expect(request.toolNames.filter((name) => name !== "DeferredToolPlaceholder").sort()).toEqual([
			"Glob",
			"Grep",
			"Read",
		]);
		expect(request.systemPrompt).toContain("CLAUDE-CODE-LIBRARY-PROMPT");
	});

	it("runs a codex custom agent on codex with its developer instructions, effort and sandbox", async () => {
		const { request, outcome } = await run({ agent: "fixer", task: "fix as a codex agent" }, "fixed");
		expect(runOf(outcome.result.details).harness).toBe("codex");
		expect(request.protocol).toBe("openai-responses");
		expect(request.roles).toContain("developer");
		expect(request.systemPrompt).toContain("CODEX-LIBRARY-INSTRUCTIONS");
		expect(request.effort).toBe("high");
		// codex tells the model its sandbox in its permissions instructions.
		expect(JSON.stringify(request.body)).toContain("read-only");
	});

	it("runs a pi-subagents agent with pi's prompt replaced, skills and context files off, reads listed and the answer written", async () => {
		const control = await run({ agent: "plain", task: "plain pi agent" }, "plain done");
		expect(control.request.systemPrompt).toContain("PROJECT-CONTEXT-MARKER");
		expect(control.request.systemPrompt).toContain("DEMO-SKILL-DESCRIPTION");
		const { request, outcome } = await run({ agent: "ctx", task: "gather context" }, "the context");
		expect(request.systemPrompt).toContain("PI-SUBAGENTS-REPLACED-PROMPT");
		expect(request.systemPrompt).not.toContain(control.request.systemPrompt?.slice(0, 60));
		expect(request.systemPrompt).not.toContain("PROJECT-CONTEXT-MARKER");
		expect(request.systemPrompt).not.toContain("DEMO-SKILL-DESCRIPTION");
		expect(request).toMatchObject({ model: "fake-reasoner", effort: "low" });
		expect(request.lastUserText).toContain(JSON.stringify(join(env.workDir, "notes.md")));
		expect(readFileSync(join(env.workDir, "context.md"), "utf8")).toBe("the context");
		expect(textOf(outcome.result)).toContain(`[answer also written to ${join(env.workDir, "context.md")}]`);
	});

	it("refuses a Claude Code file forced onto pi with model: sonnet before any spawn, naming file, key, value and harness", async () => {
		const before = env.server.requests.length;
		const { result, isError } = await env.session.callTool("subagent", {
			agent: "cc-reviewer",
			agent_type: "pi",
			task: "x",
		});
		expect(isError).toBe(true);
		const file = join((env.native as NonNullable<E2eEnv["native"]>).claude.configDir, "agents", "cc-reviewer.md");
		expect(textOf(result)).toContain(
			`${file}: model: "sonnet" cannot be resolved; give model on the call for on the pi harness`,
		);
		expect(env.server.requests.length).toBe(before);
	});

	it("runs a Claude Code file on pi when the call gives a model, with its tool names mapped to pi's", async () => {
		const { request } = await run(
			{ agent: "cc-reviewer", agent_type: "pi", model: "fake/fake-model", task: "claude file on pi" },
			"on pi",
		);
		expect(request.protocol).toBe("openai-chat");
		expect(request.toolNames.sort()).toEqual(["find", "grep", "read"]);
		expect(request.systemPrompt).toContain("CLAUDE-CODE-LIBRARY-PROMPT");
	});

	it("runs a built-in agent from the shipped agents/ when no file of that name exists", async () => {
		const { request } = await run(
			{ agent: "planner", task: "plan with the built-in", model: "fake/fake-model" },
			"planned",
		);
		expect(request.systemPrompt).toContain(BUILTIN_PLANNER.split("---\n")[2].trim().slice(0, 80));
	});

	it("lets a same-named user file override a built-in", async () => {
		const { request } = await run({ agent: "scout", task: "scout from the user file" }, "scouted");
		expect(request.systemPrompt).toContain("USER-SCOUT-BODY");
	});

	it("selects a format's file by qualifier when another file wins the plain name", async () => {
		const plain = await run({ agent: "worker", task: "plain worker name" }, "claude worker");
		expect(plain.request.protocol).toBe("anthropic-messages");
		expect(plain.request.systemPrompt).toContain("CLAUDE-WORKER");
		const qualified = await run(
			{ agent: "pi:worker", model: "fake/fake-model", task: "qualified pi worker" },
			"pi worker",
		);
		expect(qualified.request.protocol).toBe("openai-chat");
		expect(qualified.request.systemPrompt).not.toContain("CLAUDE-WORKER");
	});

	it("suggests the nearest name for an unknown agent and names the folders searched", async () => {
		const { result, isError } = await env.session.callTool("subagent", { agent: "scot", task: "x" });
		expect(isError).toBe(true);
		const text = textOf(result);
		expect(text).toContain('unknown agent "scot" in scope "user" (did you mean "scout"?)');
		expect(text).toContain(`Searched: ${join(env.home.agentDir, "agents")} (user, pi)`);
		expect(text).toContain(`${join(codexHome(), "agents")} (user, codex)`);
	});

	it("lists every agent with its source file, format, harness and ignored keys, and what a clash hides", async () => {
		const { result } = await env.session.callTool("subagent_roster", {});
		const text = textOf(result);
		const native = env.native as NonNullable<E2eEnv["native"]>;
		expect(text).toContain("- cc-reviewer (user; ignored keys: color) [claude_code]");
		expect(text).toContain(`  format: claude, file: ${join(native.claude.configDir, "agents", "cc-reviewer.md")}`);
		expect(text).toContain("- fixer (user) [codex]");
		expect(text).toContain(`  format: codex, file: ${join(codexHome(), "agents", "fixer.toml")}`);
		expect(text).toContain("- context-scout (user; ignored keys: defaultProgress) [pi]");
		expect(text).toContain("aliases: ctx, context");
		expect(text).toContain("- planner (builtin) [pi]");
		expect(text).toMatch(
			/- shadowed: scout \(builtin, pi\) \S+agents\/scout\.md, by (\S+\/agents\/scout\.md); not selectable: pi:scout selects \1 \(of the same format\)/,
		);
		expect(text).toMatch(/- shadowed: worker \(builtin, pi\) .*; select it as pi:worker/);
	});
});
