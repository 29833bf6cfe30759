/** Bad calls get a precise error and start nothing (found by attacking the package as a new user). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";
import { expectRefused } from "../support/refusals.ts";

let env: E2eEnv;

beforeAll(async () => {
	// A host that stays open: background calls are accepted there (print mode refuses them).
	env = await startE2eEnv({ agents: { echo: { description: "Answers", body: "You answer." } }, mode: "rpc" });
});
afterAll(async () => env?.close());

const refused = (args: unknown, ...messages: string[]) => expectRefused(env, args, ...messages);

describe("bad calls are refused before anything starts", () => {
	it("refuses an empty or whitespace task", async () => {
		await refused({ agent: "echo", task: "" }, "task is empty");
		await refused(
			{
				tasks: [
					{ agent: "echo", task: "ok" },
					{ agent: "echo", task: " \n " },
				],
			},
			"task 2: task is empty",
		);
	});

	it("refuses an unknown field instead of ignoring it", async () => {
		await refused({ agent: "echo", task: "x", alowed_tools: ["read"] }, "alowed_tools: unknown field");
		await refused({ tasks: [{ agent: "echo", task: "x", foo: 1 }] }, "tasks.0.foo: unknown field");
		await refused({ agent: "echo", task: "x", resources: { skils: [] } }, "resources.skils: unknown field");
	});

	it("refuses an empty agent, roster_entry or resume_session_id as empty, once, not as an unknown name", async () => {
		for (const field of ["agent", "roster_entry"]) {
			await refused({ [field]: " ", task: "x" }, `${field} is empty; omit it instead`);
		}
		const { result } = await env.session.callTool("subagent", { resume_session_id: "", agent_type: "pi", task: "x" });
		expect(textOf(result)).toBe("subagent: nothing was started.\nresume_session_id is empty; omit it instead");
	});

	it("refuses an unknown field of subagent_roster and subagent_jobs instead of ignoring it", async () => {
		for (const [tool, args] of [
			["subagent_roster", { filter: "pi" }],
			["subagent_jobs", { action: "list", jb_id: "x" }],
		] as const) {
			const { result, isError } = await env.session.callTool(tool, args);
			expect(isError, textOf(result)).toBe(true);
			expect(textOf(result)).toContain(`${Object.keys(args).at(-1)}: unknown field`);
		}
	});

	it("refuses task and prompt with different text", async () => {
		await refused({ agent: "echo", task: "x", prompt: "y" }, "give task or prompt, not both with different text");
	});

	it("refuses an effort pi does not know and empty model or effort", async () => {
		await refused(
			{ agent_type: "pi", task: "x", effort: "turbo" },
			'pi harness: effort "turbo" is not a pi thinking level',
		);
		await refused({ agent_type: "pi", task: "x", model: " " }, "model is empty; omit it instead");
	});

	it("refuses a tool list item that holds several names, separated by a comma or a space", async () => {
		await refused(
			{ agent_type: "pi", task: "x", disallowed_tools: ["read bash"] },
			'disallowed_tools: "read bash" is not a tool name; give one name per list item',
		);
		await refused(
			{ agent_type: "pi", task: "x", allowed_tools: ["read,bash"] },
			'allowed_tools: "read,bash" is not a tool name; give one name per list item',
		);
	});

	it("names the fields given when no mode was given", async () => {
		await refused({ model: "fake/fake-model" }, "none was given (fields given: model)");
	});

	it("refuses a resume_session_id that is not a native session id, such as an option", async () => {
		await refused(
			{ resume_session_id: "--dangerously-bypass-approvals-and-sandbox", agent_type: "codex", task: "x" },
			'resume_session_id "--dangerously-bypass-approvals-and-sandbox" is not a native session id',
		);
		await refused(
			{ resume_session_id: "../x", agent_type: "pi", task: "x" },
			'resume_session_id "../x" is not a native session id',
		);
	});

	it("accepts background at the top level of parallel and chain calls", async () => {
		env.server.scriptFor("bg parallel item", { text: "ok" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			tasks: [{ agent: "echo", task: "bg parallel item" }],
			background: true,
		});
		expect(isError, textOf(result)).toBe(false);
		expect(textOf(result)).toContain("Started background job");
		expect(textOf(result)).toContain("parallel: echo: bg parallel item");
		// Let the job end and report while the session is still open.
		await env.session.callTool("subagent_jobs", { action: "wait", job_id: result.details.jobId });
		await env.session.waitForIdle();
	});

	it("refuses {previous} in the first chain step", async () => {
		await refused(
			{ chain: [{ agent: "echo", task: "start from {previous}" }] },
			"step 1: task uses {previous}, but there is no previous step",
		);
	});
});

describe("chains with an empty answer", () => {
	it("fails the step whose task is empty after substitution, naming the step that gave no text", async () => {
		env.server.scriptFor("silent step", { text: "" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			chain: [
				{ agent: "echo", task: "silent step" },
				{ agent: "echo", task: "{previous}" },
			],
		});
		expect(isError).toBe(true);
		expect(result.details.children.map((c) => c.phase)).toEqual(["completed", "failed"]);
		expect(textOf(result)).toContain("the task is empty after substituting {previous}: step 1 gave no text answer");
	});
});

/** Calls `subagent` for a pi task in a session loaded while `variable` was `value`; unsets it afterwards. */
async function callPiWithEnv(variable: string, value: string) {
	process.env[variable] = value;
	try {
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
		try {
			return await session.callTool<SubagentDetails>("subagent", { agent_type: "pi", task: "x" });
		} finally {
			session.dispose();
		}
	} finally {
		delete process.env[variable];
	}
}

describe("configuration problems refuse calls with their own cause", () => {
	it("keeps loading with a malformed PI_NATIVE_SUBAGENTS_PI_COMMAND and refuses pi launches, naming the variable", async () => {
		const { result, isError } = await callPiWithEnv("PI_NATIVE_SUBAGENTS_PI_COMMAND", "not json");
		expect(isError).toBe(true);
		expect(textOf(result)).toContain("PI_NATIVE_SUBAGENTS_PI_COMMAND must be a JSON array of non-empty strings");
	});

	it("blames a malformed depth variable, not the settings file", async () => {
		const { result, isError } = await callPiWithEnv("PI_AGENTSHELL_DEPTH", "abc");
		expect(isError).toBe(true);
		const text = textOf(result);
		expect(text).toContain('PI_AGENTSHELL_DEPTH must be a non-negative integer, got "abc"');
		expect(text).not.toContain("settings file");
	});
});
