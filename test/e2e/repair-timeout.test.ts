/**
 * `limits.timeout_ms` is a wall-clock limit per child (docs/settings.md), also for a codex child whose
 * output_schema repair turn is a second process (`codex exec resume`, docs/structured-output.md): the repair
 * process gets what the first one left of the limit, not a fresh one. Real codex against the fake model; a
 * gate holds the first answer until a known part of the limit has passed.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodexAdapter } from "../../src/harness/codex/adapter.ts";
import { runChild } from "../../src/runs/run-child.ts";
import { REPAIR_PREFIX } from "../../src/runs/structured-result.ts";
import { type CodexHome, createCodexHome } from "../support/codex-home.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { Gate } from "../support/gate.ts";
import { nativeLaunchSpec } from "../support/launch-spec.ts";
import { CODEX_BIN } from "../support/native-homes.ts";
import { groupMembers, waitUntil } from "../support/processes.ts";

let server: FakeModelServer;
let home: CodexHome;

beforeAll(async () => {
	server = await startFakeModelServer();
	home = createCodexHome(server);
});
afterAll(async () => {
	await home?.cleanup();
	await server?.close();
});

const TIMEOUT_MS = 6_000;
/** The first process's answer is held until this much of the limit has passed (a lower bound, not a delay). */
const HELD_MS = 4_000;

describe("a codex child's repair process", () => {
	it("gets the rest of limits.timeout_ms, not a fresh limit", { timeout: 60_000 }, async () => {
		const gate = new Gate();
		server.route((request) => (request.lastUserText.startsWith(REPAIR_PREFIX) ? { hang: true } : undefined));
		server.route(gate.rule("repair timeout", () => ({ text: "not the JSON document" })));
		const workDir = join(home.dir, "work");
		mkdirSync(workDir, { recursive: true });
		const spec = nativeLaunchSpec({
			harness: "codex",
			cwd: workDir,
			task: "repair timeout",
			outputSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
			limits: { ...nativeLaunchSpec({ harness: "codex", cwd: workDir }).limits, timeoutMs: TIMEOUT_MS },
		});
		const adapter = createCodexAdapter({ command: () => ({ file: CODEX_BIN, args: [] }), codexHome: home.codexHome });
		const started = Date.now();
		const running = runChild(spec, adapter, { env: { ...(process.env as Record<string, string>), ...home.env } });
		await gate.waitHeld(1, 30_000);
		await waitUntil(() => Date.now() - started >= HELD_MS, `${HELD_MS} ms of the limit to pass`, 30_000);
		gate.releaseOne();
		// The repair process starts after this: a fresh limit would end the run TIMEOUT_MS after it at the earliest.
		const releasedAt = Date.now() - started;
		const result = await running;
		// The repair turn ran (its request came) and was ended by the child's one limit.
		expect(server.requests.some((r) => r.lastUserText.startsWith(REPAIR_PREFIX))).toBe(true);
		expect(result.status).toBe("timed_out");
		expect(result.error).toMatch(/^timed out after \d+ ms \(the limit is 6000 ms, setting limits\.timeout_ms\)/);
		expect(result.durationMs).toBeLessThan(releasedAt + TIMEOUT_MS);
		await waitUntil(() => groupMembers(result.pid as number).length === 0, "the codex group to die");
	});
});
