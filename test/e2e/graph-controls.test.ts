/**
 * `agent_graph` controls and the restore scan through Pi's public boundary (an in-process Pi session with
 * this extension, real pi children against the fake model; docs/graphs.md §Controls, §Durability): every
 * control answers accepted or refused with its reason, as a tool action and as `/graph`; a session start
 * runs none of the stored runs it must not run, and names the files of those it cannot read.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FS_FAULT_ENV } from "../../src/core/fault-points.ts";
import type { GraphDetails } from "../../src/core/graph-details.ts";
import { createRunDir, graphsRoot, newRunId } from "../../src/graph/run-dir.ts";
import type { RunSnapshot } from "../../src/graph/run-store.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession, type UiCall } from "../support/extension-session.ts";
import { waitUntil } from "../support/processes.ts";

let env: E2eEnv;
const uiLog: UiCall[] = [];

beforeAll(async () => {
	env = await startE2eEnv({ mode: "rpc", uiLog });
});
afterAll(async () => env?.close());

async function graphCall(args: Record<string, unknown>) {
	const { result, isError } = await env.session.callTool<GraphDetails>("agent_graph", args);
	return { text: textOf(result), isError, details: result.details };
}

const notices = () => uiLog.filter((call) => call.method === "notify").map((call) => String(call.args[0]));

describe("agent_graph controls", () => {
	it("answers each control accepted or refused with the reason, as a tool action and as /graph", async () => {
		let slowRuns = 0;
		env.server.route((request) =>
			request.lastUserText === "controls: slow"
				? slowRuns++ === 0
					? { hang: true }
					: { text: "slow done" }
				: undefined,
		);
		const graph = {
			name: "controls",
			nodes: {
				slow: { agent_type: "pi", task: "controls: slow" },
				after: { agent_type: "pi", task: "controls: after", depends_on: ["slow"] },
			},
		};
		const start = await graphCall({ graph, background: true });
		const runId = start.details?.runId as string;
		expect(start.text).toContain(`(run_id ${runId})`);
		await env.server.waitFor((requests) => requests.some((r) => r.lastUserText === "controls: slow"), 60_000);

		expect((await graphCall({ action: "status", run_id: runId })).text).toContain("- slow: running · attempts 1");
		expect((await graphCall({ action: "pause", run_id: runId })).text).toBe(`agent_graph pause ${runId}: accepted`);
		const again = await graphCall({ action: "pause", run_id: runId });
		expect(again).toMatchObject({
			isError: true,
			text: `agent_graph pause ${runId}: refused: the run is already paused`,
		});
		expect((await graphCall({ action: "skip", run_id: runId, node: "nope" })).text).toBe(
			`agent_graph skip ${runId}: refused: no node "nope"; nodes: slow, after`,
		);
		expect((await graphCall({ action: "retry", run_id: "not-a-run" })).text).toBe(
			'agent_graph retry not-a-run: refused: "not-a-run" is not a run id (a UUID v4)',
		);
		expect((await graphCall({ action: "list" })).text).toContain(`- ${runId} "controls": paused here`);

		await env.session.prompt(`/graph skip ${runId} slow`);
		expect(notices()).toContain(`agent_graph skip ${runId}: accepted`);
		const snapshotFile = join(graphsRoot(env.home.agentDir), runId, "snapshot.json");
		const stored = () => JSON.parse(readFileSync(snapshotFile, "utf8")) as RunSnapshot;
		// Paused, the run still settles and skips: the killed node and its dependent end it.
		await waitUntil(() => stored().finished, "the run to end", 60_000);
		expect(stored().state.nodes.slow.skip).toEqual({ kind: "request" });
		expect(stored().state.nodes.after.skip).toEqual({ kind: "dependency", node: "slow", status: "skipped" });
		expect(env.server.requests.some((r) => r.lastUserText === "controls: after")).toBe(false);

		await env.session.prompt(`/graph status ${runId}`);
		expect(notices().some((n) => n.startsWith(`agent_graph run ${runId} "controls": finished`))).toBe(true);
		const before = readFileSync(snapshotFile, "utf8");
		await env.session.prompt(`/graph cancel ${runId}`);
		expect(notices()).toContain(`agent_graph cancel ${runId}: refused: the run has ended`);
		expect(readFileSync(snapshotFile, "utf8")).toBe(before);

		// A retry reopens the finished run (the node and the ones skipped because of it wait again); resume runs it.
		expect((await graphCall({ action: "retry", run_id: runId, node: "slow" })).text).toBe(
			`agent_graph retry ${runId}: accepted (stored; takes effect when the run resumes (action "resume", run_id))`,
		);
		expect(stored()).toMatchObject({ finished: false });
		expect(stored().state.nodes.after.status).toBe("waiting");
		const resumed = await graphCall({ action: "resume", run_id: runId });
		expect(resumed.isError).toBe(false);
		expect(resumed.text).toContain('agent_graph "controls": 2/2 nodes completed');
		expect(resumed.text).toMatch(/- slow: completed .*attempt 2/);
		expect(stored().state.nodes.slow.attempts).toBe(2);
		expect(slowRuns).toBe(2);
	});
});

describe("a run that cannot be recorded", () => {
	it.each([
		["its lease", ".lease.", "could not take the run's lease in"],
		["its first snapshot", "snapshot.json", "could not write the run's first snapshot in"],
	])(
		"is refused before anything starts when %s cannot be written (ENOSPC), naming the file and leaving no directory",
		async (_what, file, words) => {
			process.env[FS_FAULT_ENV] = `write:ENOSPC:${file}:1`;
			try {
				const before = env.server.requests.length;
				const refused = await graphCall({ graph: { nodes: { only: { agent_type: "pi", task: "never recorded" } } } });
				expect(refused.isError).toBe(true);
				const named = new RegExp(
					`^agent_graph: nothing was started\\.\\nthe run could not be recorded: ${words} (/\\S+): \\1/\\S*${file.replaceAll(".", "\\.")}\\S*: ENOSPC: injected write fault`,
				);
				expect(refused.text).toMatch(named);
				expect(env.server.requests.length).toBe(before);
				const root = graphsRoot(env.home.agentDir);
				expect(readdirSync(root).filter((id) => !existsSync(join(root, id, "snapshot.json")))).toEqual([]);
			} finally {
				delete process.env[FS_FAULT_ENV];
			}
		},
	);
});

describe("the restore scan at session start", () => {
	it("runs no foreign, ownerless, version 99, truncated or symlinked run, and names the file of the last three", async () => {
		const task = (name: string) => `restore-scan: ${name}`;
		const write = (name: string, patch: Record<string, unknown>, text?: (json: string) => string) => {
			const runId = newRunId();
			const dir = createRunDir(env.home.agentDir, runId);
			const snapshot = {
				version: 1,
				runId,
				owner: { sessionId: "another-session" },
				createdAt: 1,
				updatedAt: Date.now(),
				graph: {
					name,
					definition: { nodes: { only: { kind: "agent", agent_type: "pi", task: task(name) } } },
					inputs: {},
					agentScope: "user",
					cwd: env.workDir,
				},
				state: { version: 1, started: 0, nodes: { only: { status: "waiting", attempts: 0, usage: {} } } },
				finished: false,
				...patch,
			};
			const json = JSON.stringify(snapshot);
			writeFileSync(join(dir, "snapshot.json"), text ? text(json) : json);
			return join(dir, "snapshot.json");
		};
		write("foreign", {});
		write("ownerless", { owner: undefined });
		const v99 = write("v99", { version: 99 });
		const truncated = write("truncated", {}, (json) => json.slice(0, 40));
		const elsewhere = join(env.home.dir, "elsewhere");
		mkdirSync(elsewhere, { recursive: true });
		const linked = join(graphsRoot(env.home.agentDir), newRunId());
		symlinkSync(elsewhere, linked);
		const log: UiCall[] = [];
		const session = await createExtensionSession({
			cwd: env.workDir,
			agentDir: env.home.agentDir,
			uiLog: log,
			mode: "rpc",
		});
		try {
			const lines = () => log.filter((call) => call.method === "notify").map((call) => String(call.args[0]));
			// The scan reports after the session start (it does not hold the start up).
			await waitUntil(
				() => lines().filter((l) => l.includes("graph run not restored")).length >= 3,
				"the scan's report",
			);
			expect(lines()).toContain(
				`pi-native-subagents: graph run not restored: ${v99}: unknown snapshot version 99 (this version reads 1); the run is not restored`,
			);
			expect(
				lines().some((l) =>
					l.startsWith(`pi-native-subagents: graph run not restored: ${truncated}: corrupt snapshot`),
				),
			).toBe(true);
			expect(lines()).toContain(
				`pi-native-subagents: graph run not restored: ${linked}: is a symlink; graph run directories must be real directories`,
			);
			expect(lines().filter((l) => /foreign|ownerless|resuming/.test(l))).toEqual([]);
			expect(env.server.requests.some((r) => r.lastUserText.startsWith("restore-scan:"))).toBe(false);
		} finally {
			session.dispose();
			rmSync(linked);
		}
	});
});
