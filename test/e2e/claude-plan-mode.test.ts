/**
 * Found by the hostile-repository attack. SECURITY.md "Trust" (agent libraries): a Claude Code `permissionMode` that
 * lets tools run unasked is refused unless the call passes `auto_approve: true`; `plan` is not one of them, so it
 * must keep asking. claude 2.1.332 gives plan mode auto mode's semantics whenever auto mode is available (its setting
 * `useAutoModeDuringPlan`, default true), whose server-side classifier lets a tool call run without asking. The
 * child is started with `useAutoModeDuringPlan: false`: offline, a plan-mode Bash call then gets the default mode's
 * denial ("needs approval") instead of auto mode's ("Auto mode is unavailable …"), which proves the child asked.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { confirmingUi, createExtensionSession } from "../support/extension-session.ts";

let env: E2eEnv;
beforeAll(async () => {
	env = await startE2eEnv({ nativeHomes: true });
});
afterAll(async () => env?.close());

/** Runs project claude agent `toucher` (with `mode`) on a task that calls Bash; returns the result and the tool output. */
async function runToucher(mode: string) {
	const project = realpathSync(mkdtempSync(join(env.home.dir, `cc-${mode}-`)));
	mkdirSync(join(project, ".claude/agents"), { recursive: true });
	const marker = join(project, "touched");
	writeFileSync(
		join(project, ".claude/agents/toucher.md"),
		`---\nname: toucher\ndescription: d\ntools: Bash\npermissionMode: ${mode}\n---\nYou touch files.\n`,
	);
	const task = `claude toucher in ${mode} mode`;
	let toolOutput = "";
	env.server.scriptFor(
		task,
		{ toolCalls: [{ name: "Bash", arguments: { command: `touch ${marker}`, description: "Touch" } }] },
		(request) => {
			toolOutput = request.lastToolOutput ?? "";
			return { text: "done" };
		},
	);
	const session = await createExtensionSession({
		cwd: project,
		agentDir: env.home.agentDir,
		uiContext: confirmingUi(async () => true),
	});
	try {
		const outcome = await session.callTool<SubagentDetails>("subagent", {
			agent: "toucher",
			task,
			agentScope: "project",
		});
		return { ...outcome, text: textOf(outcome.result), toolOutput, touched: existsSync(marker) };
	} finally {
		session.dispose();
	}
}

describe("a project claude agent with permissionMode: plan", () => {
	it("the default mode asks (and -p denies): the baseline", async () => {
		const run = await runToucher("default");
		expect(run.isError, run.text).toBe(false);
		expect(run.toolOutput).toContain("needs approval");
		expect(run.touched).toBe(false);
	});

	it("is not put in auto mode (whose classifier runs tools unasked) without auto_approve: plan mode asks", async () => {
		const run = await runToucher("plan");
		expect(run.isError, run.text).toBe(false);
		expect(run.toolOutput).toContain("needs approval");
		expect(run.toolOutput).not.toMatch(/auto mode/i);
		expect(run.touched).toBe(false);
	});
});
