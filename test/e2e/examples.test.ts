/**
 * Every shipped example roster runs: for each roster file under examples/, every entry is launched with
 * `subagent({ roster_entry })` by a real Pi session, as a real pi or codex child against the fake model
 * servers, and must complete with the model the entry names. Loading the files alone is not enough (an
 * entry the harness refuses, such as codex with `mcp_servers: []`, loads fine and never launches).
 */
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { RosterDetails } from "../../src/tools/roster-tool.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession, type ExtensionSession } from "../support/extension-session.ts";

const EXAMPLES = resolve(import.meta.dirname, "../../examples");
/** Every roster file the examples ship, with the entries each must offer. */
const ROSTERS: Record<string, string[]> = {
	"inline/roster.json": ["feature-owner"],
	"inline/feature-owner-roster.json": ["implementation", "reviewer"],
	"normalized/foreman/agent.json": ["feature-owner"],
	"normalized/feature-owner/agent.json": ["implementation", "reviewer"],
};

let env: E2eEnv;
beforeAll(async () => {
	env = await startE2eEnv({ nativeHomes: true });
});
afterAll(async () => {
	delete process.env.PI_AGENTSHELL_ROSTER_FILE;
	await env?.close();
});

describe("shipped example rosters", () => {
	it("ship no other roster file than the ones launched here", async () => {
		const { readdirSync } = await import("node:fs");
		// Saved graphs (examples/graphs/) are run by test/e2e/graph-examples.test.ts.
		const files = readdirSync(EXAMPLES, { recursive: true, encoding: "utf8" }).filter(
			(f) => f.endsWith(".json") && !f.startsWith("graphs/"),
		);
		const leaves = ["normalized/implementation/agent.json", "normalized/reviewer/agent.json"];
		expect(files.sort()).toEqual([...Object.keys(ROSTERS), ...leaves].sort());
	});

	for (const [file, names] of Object.entries(ROSTERS)) {
		it(`launches every entry of examples/${file}`, async () => {
			process.env.PI_AGENTSHELL_ROSTER_FILE = join(EXAMPLES, file);
			const session: ExtensionSession = await createExtensionSession({
				cwd: env.workDir,
				agentDir: env.home.agentDir,
			});
			try {
				const listed = await session.callTool<RosterDetails>("subagent_roster", {});
				expect(listed.isError, textOf(listed.result)).toBe(false);
				const entries = listed.result.details.entries;
				expect(entries.map((entry) => entry.name)).toEqual(names);
				for (const entry of entries) {
					const task = `example ${file} ${entry.name}`;
					const { result, isError } = await session.callTool<SubagentDetails>("subagent", {
						roster_entry: entry.name,
						task,
					});
					expect(isError, textOf(result)).toBe(false);
					const run = runOf(result.details);
					expect(run.status).toBe("completed");
					expect(run.finalAnswer).toContain(`echo: ${task}`);
					const request = env.server.requests.find((r) => r.lastUserText.includes(task));
					expect(request?.model).toBe(entry.model.replace(/^fake\//, ""));
				}
			} finally {
				session.dispose();
			}
		});
	}
});
