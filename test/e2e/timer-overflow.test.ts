/**
 * Found by the new-user attack: a timer of 2^31 ms (about 24.8 days) or more, which Node's setTimeout fires after
 * 1 ms, never ends anything early; every delay a user sets goes through the clamped timer of
 * src/process/deadlines.ts. A graph's `limits.timeout_ms` (docs/graphs.md §Limits and budget) used to cancel the run
 * at once, and `limits.kill_grace_ms` (docs/settings.md) to SIGKILL a child right after its SIGTERM.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2eEnv, startE2eEnv, textOf, withSettingsSession } from "../support/e2e-env.ts";

let env: E2eEnv;
beforeAll(async () => {
	env = await startE2eEnv({ mode: "rpc" });
});
afterAll(async () => env?.close());

const runGraph = (timeout_ms: number) =>
	env.session.callTool("agent_graph", {
		graph: { nodes: { a: { kind: "command", run: ["sleep", "0.5"] } }, limits: { timeout_ms } },
	});

/** Whether a command gate's SIGTERM handler (0.5 s of cleanup) ran to its end when its timeout ended it. */
async function cleanupRan(killGraceMs: number): Promise<boolean> {
	const marker = join(env.workDir, `cleaned-${killGraceMs}`);
	rmSync(marker, { force: true });
	const script = `trap 'sleep 0.5; echo done > ${marker}; exit 0' TERM; sleep 30 & wait`;
	await withSettingsSession(
		env,
		{ limits: { kill_grace_ms: killGraceMs } },
		async (session) => {
			const { result } = await session.callTool("agent_graph", {
				graph: { nodes: { a: { kind: "command", run: ["sh", "-c", script], timeout_ms: 500 } } },
			});
			expect(textOf(result)).toContain("timed out");
		},
		{ mode: "rpc" },
	);
	return existsSync(marker);
}

describe("a delay of 2^31 ms or more", () => {
	it("as a graph's timeout_ms does not cancel the run at once (2^31-1 ms as the control)", async () => {
		for (const timeout_ms of [2_147_483_647, 2_147_483_648]) {
			const { result, isError } = await runGraph(timeout_ms);
			const text = textOf(result);
			expect(text).not.toContain("limit timeout_ms");
			expect(isError, text).toBe(false);
			expect(text).toContain("1/1 nodes completed");
		}
	});

	it("as limits.kill_grace_ms lets a SIGTERM handler finish, as a 10 s grace does", async () => {
		expect(await cleanupRan(10_000)).toBe(true);
		expect(await cleanupRan(2_147_483_648)).toBe(true);
	});
});
