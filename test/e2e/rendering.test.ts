import type { AgentToolResult, Theme } from "@earendil-works/pi-coding-agent";
import { initTheme } from "@earendil-works/pi-coding-agent";
import type { Component } from "@earendil-works/pi-tui";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, startE2eEnv } from "../support/e2e-env.ts";
import { Gate } from "../support/gate.ts";

let env: E2eEnv;

/** A theme that tags colours instead of emitting escapes, so tests can read both text and colour. */
const theme = {
	fg: (color: string, text: string) => `<${color}>${text}</>`,
	bold: (text: string) => text,
} as unknown as Theme;

interface Renderers {
	renderCall(args: unknown, theme: Theme, context: unknown): Component;
	renderResult(
		result: AgentToolResult<SubagentDetails>,
		options: { expanded: boolean; isPartial: boolean },
		theme: Theme,
		context: unknown,
	): Component;
}

function render(result: AgentToolResult<SubagentDetails>, expanded: boolean, isPartial = false): string {
	const tool = env.session.toolDefinition("subagent") as Renderers;
	return tool.renderResult(result, { expanded, isPartial }, theme, {}).render(120).join("\n");
}

beforeAll(async () => {
	initTheme("dark", false);
	env = await startE2eEnv({
		agents: {
			echo: { description: "Answers", body: "You answer." },
			shell: { description: "Runs commands", body: "You run commands.", tools: ["bash"] },
		},
	});
});
afterAll(async () => env?.close());

describe("rendering through the registered tool's renderers", () => {
	it("renders the call with the agent and a task preview", () => {
		const tool = env.session.toolDefinition("subagent") as Renderers;
		const single = tool.renderCall({ agent: "echo", task: "look around" }, theme, {}).render(120).join("\n");
		expect(single).toContain("<accent>echo</>");
		expect(single).toContain("look around");
		const parallelArgs = {
			tasks: [
				{ agent: "echo", task: "a" },
				{ agent: "shell", task: "b" },
			],
		};
		const callLine = (context: unknown) => tool.renderCall(parallelArgs, theme, context).render(120).join("\n");
		const parallel = callLine({});
		expect(parallel).toContain("parallel (2 tasks)");
		expect(parallel).toContain("<accent>shell</>");
		// Once the call runs, the result lists the children: the call line keeps only the mode.
		const started = callLine({ executionStarted: true });
		expect(started).toContain("parallel (2 tasks)");
		expect(started).not.toContain("shell");
	});

	it("expands to each child's native session id, in the session line the model receives", async () => {
		const { result } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			task: "render session",
		});
		const id = result.details.children[0].result?.nativeSessionId as string;
		expect(id).toMatch(/\S/);
		const line = `session: ${id} (resume with resume_session_id)`;
		expect(result.content.map((part) => (part.type === "text" ? part.text : "")).join("")).toContain(line);
		expect(render(result, true)).toContain(line);
		expect(render(result, false)).not.toContain(id);
	});

	it("shows each running child's phase and elapsed time, a live headline, and no model until one is reported", async () => {
		// The slow child's request is held until an update has shown the fast one completed beside it.
		const gate = new Gate();
		const unroute = env.server.route(gate.rule("render slow", () => ({ text: "slow answer" })));
		env.server.scriptFor("render fast", { text: "fast answer" });
		const isLive = (details: SubagentDetails | undefined) =>
			details?.children.some((c) => c.phase === "running") === true &&
			details.children.some((c) => c.phase === "completed");
		let showLive = () => {};
		const shown = new Promise<void>((resolve) => {
			showLive = resolve;
		});
		const stop = env.session.onToolUpdate((partial) => {
			if (isLive(partial.details as SubagentDetails | undefined)) showLive();
		});
		const call = env.session.callTool<SubagentDetails>("subagent", {
			tasks: [
				{ agent: "echo", task: "render slow", task_name: "slow" },
				{ agent: "echo", task: "render fast", task_name: "fast" },
			],
		});
		await gate.waitHeld(1);
		await shown;
		gate.releaseOne();
		const { result, updates } = await call;
		stop();
		unroute();
		const live = updates.find((u) => isLive(u.details));
		expect(live).toBeDefined();
		const collapsed = render(live as AgentToolResult<SubagentDetails>, false, true);
		expect(collapsed).toContain("<warning>⏳</> <muted>1. </><accent>echo</>");
		expect(collapsed).toContain("<success>✓</> <muted>2. </><accent>echo</>");
		expect(collapsed).not.toContain("model unknown");
		expect(collapsed).not.toContain("none reported");
		// The slow child is waiting for its model (the fake server holds the answer), with its elapsed time.
		expect(collapsed).toMatch(
			/<accent>echo<\/> <dim>"slow"<\/><muted> \[pi\]<\/> <muted>(starting|waiting for the model) · \d+\.\ds<\/>/,
		);
		expect(collapsed).toContain("fake/fake-model");
		expect(collapsed.split("\n")[0].trimEnd()).toMatch(/^<accent>1 ✓ · 1 running · ↑[\d.]+k? ↓\d+ \$0\.\d{4}<\/>$/);
		// The slow child appears once in the result, whatever the call line showed.
		expect(collapsed.match(/"slow"/g)).toHaveLength(1);

		const done = render(result, false);
		expect(done.split("\n")[0].trimEnd()).toMatch(/^<accent>2 ✓ · ↑/);
		expect(done).toMatch(/<muted>completed · \d+\.\ds<\/>/);
		expect(done.match(/<success>✓<\/>/g)).toHaveLength(2);
		expect(done).toContain('<dim>"slow"</>');
		expect(done).toMatch(/1 turn ↑[\d.]+k? ↓\d+ \$0\.\d{4} [\d.]+k? in context fake\/fake-model/);
		expect(done).toContain("(Ctrl+O to expand)");
	});

	it("shows a failed child's status and reason, collapsed and expanded", async () => {
		env.server.scriptFor("render failure", { error: { status: 500, message: "render boom" } });
		const { result } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			task: "render failure",
		});
		const collapsed = render(result, false);
		expect(collapsed).toContain("<error>✗</> <accent>echo</>");
		expect(collapsed).toMatch(/<muted>failed · \d+\.\ds<\/>/);
		expect(collapsed).toContain("render boom");
		const expanded = render(result, true);
		expect(expanded).toContain("task: render failure");
		expect(expanded).toContain("render boom");
	});

	it("expands to the task, every tool call and the answer as Markdown", async () => {
		env.server.scriptFor(
			"render tools",
			{ toolCalls: [{ name: "bash", arguments: { command: "echo one" } }] },
			{ toolCalls: [{ name: "bash", arguments: { command: "echo two" } }] },
			{ text: "# Heading\n\nSome **bold** answer" },
		);
		const { result } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "shell",
			task: "render tools",
		});
		const expanded = render(result, true);
		expect(expanded).toContain("task: render tools");
		expect(expanded).toContain("$ echo one");
		expect(expanded).toContain("$ echo two");
		expect(expanded).toContain("Heading");
		expect(expanded).not.toContain("**bold**");
		expect(expanded).toContain("bold");
		expect(expanded).toContain("fake/fake-model");
	});
});
