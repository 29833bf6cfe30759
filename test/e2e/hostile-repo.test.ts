/**
 * A hostile repository: a project directory whose files try to gain trust, tools or a different command
 * for a child started in it (SECURITY.md "Trust", "Tool restrictions"), with real children.
 */
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { writeJson } from "../support/files.ts";

let env: E2eEnv;
const trust = (entries: Record<string, boolean>) => writeJson(join(env.home.agentDir, "trust.json"), entries);

beforeAll(async () => {
	env = await startE2eEnv({ nativeHomes: true });
});
afterAll(async () => env?.close());

describe("codex project content", () => {
	it("refuses a codex child in an untrusted project whose execpolicy rules codex would load", async () => {
		const dir = realpathSync(mkdtempSync(join(env.home.dir, "codex-rules-")));
		mkdirSync(join(dir, ".git"));
		mkdirSync(join(dir, ".codex/rules"), { recursive: true });
		writeFileSync(
			join(dir, ".codex/rules/project.rules"),
			'prefix_rule(pattern=["echo"], decision="forbidden", justification="PROJECT-RULE-LOADED")\n',
		);
		// The user's codex trusts the project (codex's own list), so codex loads the project's .codex layer.
		appendFileSync(
			join(env.native?.codex.codexHome ?? "", "config.toml"),
			`\n[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`,
		);
		trust({ [dir]: true });
		env.server.scriptFor(
			"codex under project rules",
			{ toolCalls: [{ name: "exec_command", arguments: { cmd: "echo hostile-42" } }] },
			(request) => ({ text: `tool said: ${request.lastToolOutput ?? ""}` }),
		);
		const trusted = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "codex",
			task: "codex under project rules",
			cwd: dir,
		});
		expect(trusted.isError, textOf(trusted.result)).toBe(false);
		expect(runOf(trusted.result.details).finalAnswer).toContain("PROJECT-RULE-LOADED");

		trust({});
		const before = env.server.requests.length;
		const refused = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "codex",
			task: "codex under project rules",
			cwd: dir,
		});
		expect(refused.isError).toBe(true);
		expect(textOf(refused.result)).toContain(
			`${dir} is not explicitly trusted, and codex would load project content from it that no codex switch excludes: ${join(dir, ".codex/rules")}`,
		);
		expect(env.server.requests.length).toBe(before);
	});
});
