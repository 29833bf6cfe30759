/**
 * Tool restrictions (SECURITY.md "Tool restrictions") and project trust (SECURITY.md "Trust") hold the same on a
 * warm launch (docs/settings.md §Warm pi children): the core pi cases of test/e2e/restrictions.test.ts and
 * test/e2e/trust.test.ts, run with `warm_children` off and on. With it on, each launch under test is first run
 * once (a priming call of the same launch), so the call under test takes that warm child: checked by pid.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";
import type { Step } from "../support/fake-model/index.ts";
import { writeJson } from "../support/files.ts";
import { piChildrenOf, waitForWarmChild, writeWarmSettings } from "../support/warm-children.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv();
	mkdirSync(join(env.workDir, ".pi/agents"), { recursive: true });
	writeFileSync(
		join(env.workDir, ".pi/agents/local.md"),
		"---\nname: local\ndescription: A project agent\n---\nYou are the project's own agent.\n",
	);
});
afterAll(async () => env?.close());

describe.each([false, true])("with warm_children.enabled %s", (warm) => {
	beforeAll(async () => {
		writeWarmSettings(env.home.agentDir, { enabled: warm });
		await env.session.shutdown();
		env.session.dispose();
		env.session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
	});

	/**
	 * Calls `subagent` with `args` and `task`, the model answering `steps`. With warm children on, a call of
	 * the same launch (task `<task> (priming)`, answered "primed") runs first and this one must take its warm child.
	 */
	async function launch(args: Record<string, unknown>, task: string, ...steps: Step[]) {
		let warmPid: number | undefined;
		if (warm) {
			env.server.scriptFor(`${task} (priming)`, { text: "primed" });
			await env.session.callTool<SubagentDetails>("subagent", { ...args, task: `${task} (priming)` });
			warmPid = await waitForWarmChild(env.home.agentDir);
		}
		env.server.scriptFor(task, ...steps);
		const outcome = await env.session.callTool<SubagentDetails>("subagent", { ...args, task });
		if (warm) expect(runOf(outcome.result.details).pid).toBe(warmPid);
		return outcome;
	}

	it("allowed_tools: offers only the allowlisted tools, so a call to another tool never runs", async () => {
		const marker = join(env.workDir, `written-by-bash-${warm}`);
		const { result } = await launch(
			{ agent_type: "pi", allowed_tools: ["read"] },
			`pi asks for bash ${warm}`,
			{ toolCalls: [{ name: "bash", arguments: { command: `touch ${marker}` } }] },
			(request) => ({ text: `tool said: ${request.lastToolOutput}` }),
		);
		expect(runOf(result.details).status, textOf(result)).toBe("completed");
		expect(existsSync(marker)).toBe(false);
		const request = env.server.requests.find((r) => r.lastUserText === `pi asks for bash ${warm}`);
		expect(request?.toolNames).toEqual(["read"]);
	});

	it("disallowed_tools: the excluded tool is not offered", async () => {
		const { result } = await launch({ agent_type: "pi", disallowed_tools: ["bash"] }, `pi without bash ${warm}`, {
			text: "ok",
		});
		expect(runOf(result.details).status, textOf(result)).toBe("completed");
		const request = env.server.requests.find((r) => r.lastUserText === `pi without bash ${warm}`);
		expect(request?.toolNames).toContain("read");
		expect(request?.toolNames).not.toContain("bash");
	});

	it("fails the run when the child reports its tools without an allowlisted one", async () => {
		const { result, isError } = await launch(
			{ agent_type: "pi", allowed_tools: ["read", "glob"] },
			`pi with glob inherited ${warm}`,
			{ text: "should not matter" },
		);
		expect(isError).toBe(true);
		const run = runOf(result.details);
		expect(run.status).toBe("failed");
		expect(run.error).toContain('allowed_tools: "glob" is not a tool of this pi child, which offers: read');
	});

	it("refuses a project agent Pi trusts only implicitly, and starts no child, warm or cold", async () => {
		const before = env.server.requests.length;
		const children = piChildrenOf(env.home.agentDir);
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "local",
			task: "hello",
			agentScope: "project",
		});
		expect(isError).toBe(true);
		expect(textOf(result)).toContain('refused to run project agent "local"');
		expect(env.server.requests.length).toBe(before);
		// The refused launch was never warmed: the pi children are those before (a warm child of an earlier launch).
		expect(piChildrenOf(env.home.agentDir)).toEqual(children);
	});

	it("starts a pi child in an untrusted directory with --no-approve, so that directory's extension does not load, and a warm child of that launch is not taken once it is trusted", async () => {
		const otherDir = realpathSync(mkdtempSync(join(env.home.dir, "other-")));
		const marker = join(env.home.dir, `extension-loaded-${warm}`);
		mkdirSync(join(otherDir, ".pi/extensions"), { recursive: true });
		writeFileSync(
			join(otherDir, ".pi/extensions/x.ts"),
			`import { writeFileSync } from "node:fs";\nexport default function () { writeFileSync(${JSON.stringify(marker)}, "loaded"); }\n`,
		);
		const trustFile = join(env.home.agentDir, "trust.json");
		writeJson(trustFile, { [env.workDir]: true });
		try {
			const untrusted = await launch({ agent_type: "pi", cwd: otherDir }, `pi elsewhere ${warm}`, { text: "ran" });
			expect(untrusted.isError, textOf(untrusted.result)).toBe(false);
			expect(runOf(untrusted.result.details).command).toContain("--no-approve");
			expect(existsSync(marker)).toBe(false);
			const waiting = warm ? await waitForWarmChild(env.home.agentDir) : undefined;

			writeJson(trustFile, { [env.workDir]: true, [otherDir]: true });
			env.server.scriptFor(`pi elsewhere trusted ${warm}`, { text: "ran" });
			const trusted = await env.session.callTool<SubagentDetails>("subagent", {
				agent_type: "pi",
				task: `pi elsewhere trusted ${warm}`,
				cwd: otherDir,
			});
			expect(trusted.isError, textOf(trusted.result)).toBe(false);
			expect(runOf(trusted.result.details).pid).not.toBe(waiting);
			expect(runOf(trusted.result.details).command).toMatch(/ --approve( |$)/);
			expect(existsSync(marker)).toBe(true);
		} finally {
			rmSync(trustFile, { force: true });
			rmSync(join(otherDir, ".pi"), { recursive: true, force: true });
		}
	});
});
