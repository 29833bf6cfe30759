/**
 * A resume without a launch record runs where the session lives (docs/rules.md §Resumption): another parent, which
 * has no record of the session, resumes real pi, codex and claude sessions started in a subdirectory.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { Harness } from "../../src/core/launch-spec.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession, type ExtensionSession } from "../support/extension-session.ts";

let env: E2eEnv;
let sub: string;
let otherParent: ExtensionSession;

beforeAll(async () => {
	env = await startE2eEnv({ nativeHomes: true });
	sub = join(env.workDir, "sub");
	mkdirSync(sub);
	otherParent = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
});
afterAll(async () => {
	otherParent?.dispose();
	await env?.close();
});

describe.each<Harness>(["pi", "codex", "claude_code"])(
	"a %s session resumed by a parent without its record",
	(harness) => {
		it("runs in the directory the session was started in, and refuses an explicit cwd that disagrees, naming both", async () => {
			const first = `${harness} remembers lime in sub`;
			env.server.scriptFor(first, { text: "lime noted" });
			const started = await env.session.callTool<SubagentDetails>("subagent", {
				agent_type: harness,
				task: first,
				cwd: "sub",
			});
			expect(started.isError, textOf(started.result)).toBe(false);
			const id = runOf(started.result.details).nativeSessionId as string;

			const before = env.server.requests.length;
			const wrong = await otherParent.callTool<SubagentDetails>("subagent", {
				resume_session_id: id,
				agent_type: harness,
				task: "x",
				cwd: env.workDir,
			});
			expect(wrong.isError).toBe(true);
			expect(textOf(wrong.result)).toContain(
				`cwd ${JSON.stringify(env.workDir)} disagrees with the directory the ${harness} session was started in, ${JSON.stringify(sub)}`,
			);
			expect(env.server.requests.length).toBe(before);

			const second = `${harness} which fruit`;
			env.server.scriptFor(second, { text: "lime" });
			const resumed = await otherParent.callTool<SubagentDetails>("subagent", {
				resume_session_id: id,
				agent_type: harness,
				task: second,
			});
			expect(resumed.isError, textOf(resumed.result)).toBe(false);
			expect(runOf(resumed.result.details).nativeSessionId).toBe(id);
			const request = env.server.requests.find((r) => r.lastUserText.includes(second));
			expect(request?.userTexts.some((text) => text.includes(first))).toBe(true);
			expect(JSON.stringify(request?.body)).toContain(sub);
		});

		it("refuses a session its harness has no file of before anything starts, naming where it looked", async () => {
			const id = "0f0e0d0c-1114-406e-8ddf-025493a5408d";
			const before = env.server.requests.length;
			const missing = await otherParent.callTool<SubagentDetails>("subagent", {
				resume_session_id: id,
				agent_type: harness,
				task: "x",
			});
			expect(missing.isError).toBe(true);
			const text = textOf(missing.result);
			expect(text).toMatch(/^subagent: nothing was started\./);
			expect(text).toContain(`${harness} harness: no ${harness} session "${id}" in `);
			expect(env.server.requests.length).toBe(before);
		});
	},
);
