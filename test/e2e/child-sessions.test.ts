/**
 * Retention of pi children's session files (docs/rules.md §Child sessions) with real pi children: a session
 * the live parent recorded for resume survives the retention run of another session's start however old its
 * file is, while an old session nobody holds is removed; once the parent's session ends, its hold goes.
 */
import { readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { findPiSessionFile } from "../../src/harness/pi/session-file.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";

let env: E2eEnv;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
	env = await startE2eEnv({ agents: { echo: { description: "Answers", body: "You answer." } } });
});
afterAll(async () => env?.close());

const sessionDir = () => join(env.home.agentDir, "pi-native-subagents", "sessions");
const holdsDir = () => join(env.home.agentDir, "pi-native-subagents", "holds");
const age = (file: string, days: number) => {
	const at = (Date.now() - days * DAY) / 1000;
	utimesSync(file, at, at);
};

describe("pi child session retention", () => {
	it("never removes a session a live parent recorded for resume, and removes an old one nobody holds", async () => {
		env.server.scriptFor("a session to keep", { text: "kept" });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			task: "a session to keep",
		});
		expect(isError, textOf(result)).toBe(false);
		const id = runOf(result.details).nativeSessionId as string;
		const kept = findPiSessionFile(sessionDir(), id) as string;
		// The live parent holds it.
		const holds = readdirSync(holdsDir()).map((name) => readFileSync(join(holdsDir(), name), "utf8"));
		expect(holds.some((text) => (JSON.parse(text).sessions as string[]).includes(id))).toBe(true);
		age(kept, 400);
		const orphan = join(sessionDir(), "2020-01-01T00-00-00-000Z_orphan.jsonl");
		writeFileSync(orphan, "{}\n");
		age(orphan, 400);
		// Another session starts in this process: its load runs the retention.
		const other = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
		try {
			await other.callTool("subagent_roster", {});
			expect(readdirSync(sessionDir())).toContain(kept.slice(sessionDir().length + 1));
			expect(readdirSync(sessionDir())).not.toContain("2020-01-01T00-00-00-000Z_orphan.jsonl");
		} finally {
			await other.shutdown();
			other.dispose();
		}
		// The first parent's session ends: its hold goes, and the next retention may remove the old file.
		await env.session.shutdown();
		const remaining = readdirSync(holdsDir()).map((name) => readFileSync(join(holdsDir(), name), "utf8"));
		expect(remaining.some((text) => (JSON.parse(text).sessions as string[]).includes(id))).toBe(false);
	});
});
