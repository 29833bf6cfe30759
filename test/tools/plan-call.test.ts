/**
 * Planning a `subagent` call with the adapters made lazily (src/harness/adapters.ts, src/tools/plan-call.ts):
 * the codex and claude adapters are made by the call that needs them, whatever else the call holds.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ProjectTrustStore } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { ExtensionState } from "../../src/config/extension-state.ts";
import type { Harness } from "../../src/core/launch-spec.ts";
import { Problems } from "../../src/core/problems.ts";
import { SessionStartTrust } from "../../src/core/session-start-trust.ts";
import { createAdapters } from "../../src/harness/adapters.ts";
import { ConsentRecord } from "../../src/launch/trust.ts";
import { LaunchRecords } from "../../src/sessions/launch-records.ts";
import { type PlanningContext, planCall } from "../../src/tools/plan-call.ts";
import type { SubagentArgs } from "../../src/tools/subagent-schema.ts";
import { tempDirsRemovedAfter } from "../support/temp-dir.ts";

const tempDir = tempDirsRemovedAfter(afterEach);

/**
 * Plans `args` in a fresh session at a fresh cwd, adapters made as src/index.ts makes them; with `confirm`, the
 * session has a UI whose trust prompt it answers; `setupCwd` fills the cwd first.
 */
async function plan(
	args: SubagentArgs,
	setupHome?: (env: { HOME: string; CODEX_HOME: string }) => void,
	options: { confirm?: (title: string, message: string) => Promise<boolean>; setupCwd?: (cwd: string) => void } = {},
) {
	const home = tempDir("plan-home-");
	const cwd = tempDir("plan-cwd-");
	options.setupCwd?.(cwd);
	const agentDir = join(home, ".pi", "agent");
	mkdirSync(agentDir, { recursive: true });
	const env = { HOME: home, CODEX_HOME: join(home, ".codex"), PATH: process.env.PATH };
	setupHome?.(env);
	const adapters = createAdapters(agentDir, env, process.getuid?.());
	const config = new ExtensionState(agentDir, env, cwd);
	config.reload();
	const state = config.toolState();
	if (!state.limits) throw new Error(`refused: ${state.refusal}`);
	const loads: Harness[][] = [];
	const deps = {
		adapters: adapters.loaded,
		loadAdapters: (harnesses: Iterable<Harness>) => {
			loads.push([...harnesses]);
			return adapters.load(loads.at(-1) as Harness[]);
		},
		agentDir,
		sessions: new LaunchRecords(),
		trustStore: new ProjectTrustStore(agentDir),
		approveFlag: undefined,
		startTrust: new SessionStartTrust(),
		consents: new ConsentRecord(),
	};
	const context: PlanningContext = {
		cwd,
		isProjectTrusted: () => false,
		hasUI: options.confirm !== undefined,
		ui: { confirm: options.confirm ?? (async () => false) },
		sessionManager: { getSessionFile: () => undefined },
	};
	const problems = new Problems();
	const planned = await planCall(deps, state, state.limits, args, context, problems);
	return { planned, problems: problems.list, loaded: Object.keys(adapters.loaded).sort(), cwd, home };
}

describe("planning with adapters made at first need", () => {
	it("makes the codex adapter for a call that holds a pi child too, and checks the codex child with it", async () => {
		const { planned, problems, loaded } = await plan({
			tasks: [
				{ agent_type: "pi", task: "one" },
				{ agent_type: "codex", task: "two" },
			],
		} as SubagentArgs);
		expect(problems).toEqual([]);
		expect(planned?.specs.map((spec) => spec.harness)).toEqual(["pi", "codex"]);
		expect(loaded).toEqual(["codex", "pi"]);
	});

	it("reports a field the codex harness refuses at the call, the claude adapter never made", async () => {
		const { planned, problems, loaded } = await plan({
			tasks: [
				{ agent_type: "pi", task: "one" },
				{ agent_type: "codex", task: "two", allowed_tools: ["read"] },
			],
		} as SubagentArgs);
		expect(planned).toBeUndefined();
		expect(problems).toEqual([
			"task 2: codex harness: allowed_tools cannot be enforced: codex exec has no tool allow list (use the sandbox instead)",
		]);
		expect(loaded).toEqual(["codex", "pi"]);
	});

	it("lists a child's path problem and another child's harness refusal at once, each under its own label", async () => {
		const { planned, problems } = await plan({
			tasks: [
				{ agent_type: "pi", task: "one", cwd: "no-such-dir" },
				{ agent_type: "pi", task: "two" },
				{ agent_type: "codex", task: "three", allowed_tools: ["read"] },
			],
		} as SubagentArgs);
		expect(planned).toBeUndefined();
		expect(problems).toEqual([
			expect.stringMatching(/^task 1: cwd: .*no-such-dir/),
			"task 3: codex harness: allowed_tools cannot be enforced: codex exec has no tool allow list (use the sandbox instead)",
		]);
	});

	it("lists a child's shape problem with the other children's launch problems, and asks no one about trust", async () => {
		const asked: string[] = [];
		const confirm = async (_title: string, message: string) => {
			asked.push(message);
			return true;
		};
		const { planned, problems } = await plan(
			{
				tasks: [
					{ task: "no kind" },
					{ agent: "p", task: "project agent" },
					{ agent_type: "pi", task: "three", cwd: "no-such-dir" },
				],
				agentScope: "project",
			} as SubagentArgs,
			undefined,
			{
				confirm,
				setupCwd: (dir) => {
					mkdirSync(join(dir, ".pi", "agents"), { recursive: true });
					writeFileSync(join(dir, ".pi", "agents", "p.md"), "---\nname: p\ndescription: d\n---\nBody\n");
				},
			},
		);
		expect(planned).toBeUndefined();
		expect(problems).toEqual([
			expect.stringMatching(/^task 1: /),
			expect.stringMatching(/^task 3: cwd: .*no-such-dir/),
		]);
		expect(asked).toEqual([]);
	});

	it("resumes a codex session this parent has no launch record of in the directory codex recorded for it", async () => {
		const id = "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001";
		const sessionCwd = tempDir("plan-session-cwd-");
		const { planned, problems, loaded, cwd } = await plan(
			{ resume_session_id: id, agent_type: "codex", task: "again" } as SubagentArgs,
			(env) => {
				const day = join(env.CODEX_HOME, "sessions", "2026", "12", "01");
				mkdirSync(day, { recursive: true });
				const meta = { type: "session_meta", payload: { id, cwd: sessionCwd } };
				writeFileSync(join(day, `rollout-2026-12-01T10-00-00-${id}.jsonl`), `${JSON.stringify(meta)}\n`);
			},
		);
		expect(problems).toEqual([]);
		expect(sessionCwd).not.toBe(cwd);
		expect(planned?.specs[0]).toMatchObject({ harness: "codex", cwd: sessionCwd });
		expect(loaded).toEqual(["claude_code", "codex", "pi"]);
	});

	/**
	 * Plans a call of project agent `agent` in a session with a UI that confirms every trust prompt, after
	 * `setupCwd` wrote the project; resolves with the plan and each prompt's message.
	 */
	async function planProjectAgent(agent: string, setupCwd: (cwd: string) => void) {
		const asked: string[] = [];
		const confirm = async (_title: string, message: string) => {
			asked.push(message);
			return true;
		};
		const planned = await plan({ agent, agentScope: "project", task: "t" } as SubagentArgs, undefined, {
			confirm,
			setupCwd,
		});
		return { ...planned, asked };
	}

	it("does not ask to trust a project codex agent its harness refuses in the untrusted project anyway", async () => {
		const { planned, problems, cwd, asked } = await planProjectAgent("x", (dir) => {
			mkdirSync(join(dir, ".git"));
			mkdirSync(join(dir, ".codex", "agents"), { recursive: true });
			writeFileSync(
				join(dir, ".codex", "agents", "x.toml"),
				'name = "x"\ndescription = "d"\ndeveloper_instructions = "i"\n',
			);
		});
		expect(planned).toBeUndefined();
		expect(asked).toEqual([]);
		expect(problems).toEqual([
			expect.stringContaining(
				`${cwd} is not explicitly trusted, and codex would load project content from it that no codex switch excludes: ${join(cwd, ".codex", "agents")}`,
			),
		]);
	});

	it("still asks about a project pi agent the harness accepts, once its checks passed", async () => {
		const { planned, problems, asked } = await planProjectAgent("p", (dir) => {
			mkdirSync(join(dir, ".pi", "agents"), { recursive: true });
			writeFileSync(join(dir, ".pi", "agents", "p.md"), "---\nname: p\ndescription: d\n---\nBody\n");
		});
		expect(problems).toEqual([]);
		expect(asked).toEqual([expect.stringContaining('project agent "p"')]);
		expect(planned?.specs.map((spec) => spec.harness)).toEqual(["pi"]);
	});
});
