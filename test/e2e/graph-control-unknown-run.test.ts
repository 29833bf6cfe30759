/**
 * docs/graphs.md §Controls: each control answers `accepted` or `refused: <reason>` in words. A well-formed run id
 * that names no run is refused saying there is no such run (as a tool action and as `/graph`), never with the
 * run directory's path and an errno; a run directory that is there but holds no readable snapshot still names
 * the file.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphsRoot, newRunId } from "../../src/graph/run-dir.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import type { UiCall } from "../support/extension-session.ts";

let env: E2eEnv;
const uiLog: UiCall[] = [];

beforeAll(async () => {
	env = await startE2eEnv({ mode: "rpc", uiLog });
});
afterAll(async () => env?.close());

const notices = () => uiLog.filter((call) => call.method === "notify").map((call) => String(call.args[0]));
const NO_RUN = "00000000-0000-4000-8000-000000000000";

describe("a control of a run id that names no run", () => {
	it("is refused saying there is no such run, as a tool action and as /graph", async () => {
		const { result, isError } = await env.session.callTool("agent_graph", { action: "status", run_id: NO_RUN });
		expect(isError).toBe(true);
		expect(textOf(result)).toBe(
			`agent_graph status ${NO_RUN}: refused: no run ${NO_RUN} (action "list" shows the runs)`,
		);
		await env.session.prompt(`/graph status ${NO_RUN}`);
		await env.session.prompt(`/graph skip ${NO_RUN} a`);
		expect(notices()).toEqual([
			`agent_graph status ${NO_RUN}: refused: no run ${NO_RUN} (action "list" shows the runs)`,
			`agent_graph skip ${NO_RUN}: refused: no run ${NO_RUN} (action "list" shows the runs)`,
		]);
	});
	it("names the snapshot file of a run directory that is there but holds none", async () => {
		const runId = newRunId();
		const dir = join(graphsRoot(env.home.agentDir), runId);
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		const { result } = await env.session.callTool("agent_graph", { action: "status", run_id: runId });
		expect(textOf(result)).toBe(
			`agent_graph status ${runId}: refused: ${join(dir, "snapshot.json")}: cannot be read (ENOENT)`,
		);
	});
});
