/**
 * Restoring stored graph runs (docs/graphs.md §Durability), found by the crashing-host attack:
 * - at session start each run is restored or reported on its own: a run whose lease cannot be written (a full
 *   disk) or whose snapshot is damaged inside is reported naming it, and the session's other runs are still
 *   announced (one throw used to lose the whole report; a snapshot whose `graph.name` was a number gave
 *   `TypeError: text.replace is not a function`, naming nothing);
 * - a restore acts on the run as recorded when it holds the lease: a second Pi on the same session read every
 *   snapshot at its start, waited on a trust question about another run while the first Pi finished the run, then
 *   took the free lease and resumed the run from its stale snapshot, running the completed node again.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FS_FAULT_ENV } from "../../src/core/fault-points.ts";
import { createRunDir, graphsRoot, newRunId } from "../../src/graph/run-dir.ts";
import type { RunSnapshot } from "../../src/graph/run-store.ts";
import { Gate } from "../support/gate.ts";
import { waitUntil } from "../support/processes.ts";
import type { RpcPi } from "../support/rpc-pi.ts";
import { useRpcPiHome } from "../support/rpc-pi-home.ts";

const fixture = useRpcPiHome();
const { startPi } = fixture;

/** Stores an unfinished run of `sessionId` (paused: only announced; else resumed); `patch` replaces `graph` fields. */
function storeRun(sessionId: string, patch: Record<string, unknown>, paused: boolean, runId = newRunId()): string {
	const only = { status: "waiting", attempts: 0, usage: {} };
	writeFileSync(
		join(createRunDir(fixture.home.agentDir, runId), "snapshot.json"),
		JSON.stringify({
			version: 1,
			runId,
			owner: { sessionId },
			createdAt: Date.now(),
			updatedAt: Date.now(),
			graph: {
				name: "stored",
				definition: { nodes: { only: { kind: "agent", agent_type: "pi", task: "restore-isolation: only" } } },
				inputs: {},
				agentScope: "user",
				cwd: fixture.workDir,
				...patch,
			},
			state: { version: 1, started: 0, ...(paused ? { paused: true } : {}), nodes: { only } },
			finished: false,
		}),
	);
	return runId;
}

/** A session with one finished turn (so its file exists), its Pi stopped. */
async function sessionWithFile(name: string): Promise<{ sessionFile: string; sessionId: string }> {
	const first = startPi(["--session-dir", join(fixture.home.dir, "sessions", name)]);
	await first.command({ type: "prompt", message: "hello" });
	await waitUntil(() => first.events.some((e) => e.type === "agent_end"), "the first turn");
	const state = await first.command({ type: "get_state" });
	await first.stop();
	return { sessionFile: state.sessionFile as string, sessionId: state.sessionId as string };
}

/** The session start's notices about `runIds`, once there is one per run (they come as one batch). */
async function reportOn(pi: RpcPi, runIds: string[]): Promise<string[]> {
	const lines = () => pi.notices().filter((line) => runIds.some((id) => line.includes(id)));
	await waitUntil(() => lines().length >= runIds.length, "a notice per run", 60_000);
	return lines();
}

describe("restoring stored runs at session start", () => {
	it("reports a run whose lease cannot be written (full disk) alone, and still announces the others", {
		timeout: 120_000,
	}, async () => {
		const { sessionFile, sessionId } = await sessionWithFile("lease-enospc");
		const healthy = storeRun(sessionId, { name: "healthy" }, true);
		const unlucky = storeRun(sessionId, { name: "unlucky" }, false);
		const again = startPi(["--session", sessionFile], { [FS_FAULT_ENV]: "write:ENOSPC:.lease." });
		const report = await reportOn(again, [healthy, unlucky]);
		expect(report).toContainEqual(expect.stringContaining(`graph run ${healthy} "healthy" is unfinished`));
		expect(report).toContainEqual(
			expect.stringMatching(
				new RegExp(`run ${unlucky} cannot resume: could not take the run's lease: .*${unlucky}/\\.lease\\..*ENOSPC`),
			),
		);
	});

	it("reports a snapshot damaged inside naming its file and field, and still announces the others", {
		timeout: 120_000,
	}, async () => {
		const { sessionFile, sessionId } = await sessionWithFile("damaged");
		const healthy = storeRun(sessionId, { name: "healthy" }, true);
		const damaged = storeRun(sessionId, { name: 42 }, true);
		const report = await reportOn(startPi(["--session", sessionFile]), [healthy, damaged]);
		expect(report).toContainEqual(expect.stringContaining(`graph run ${healthy} "healthy" is unfinished`));
		expect(report).toContainEqual(
			expect.stringMatching(new RegExp(`${damaged}/snapshot\\.json: corrupt snapshot \\(graph\\.name: .*string`)),
		);
	});
});

/** The run of the graph named `name`, and its snapshot as on disk now. */
function runNamed(name: string): { dir: string; snapshot: () => RunSnapshot } {
	const root = graphsRoot(fixture.home.agentDir);
	const read = (dir: string) => JSON.parse(readFileSync(join(dir, "snapshot.json"), "utf8")) as RunSnapshot;
	const dir = readdirSync(root)
		.map((id) => join(root, id))
		.find((candidate) => existsSync(join(candidate, "snapshot.json")) && read(candidate).graph.name === name);
	if (!dir) throw new Error(`no run of graph "${name}"`);
	return { dir, snapshot: () => read(dir) };
}

/** Stores an unfinished run of a project graph, which restores only after a trust question; its id sorts first. */
function storeProjectRun(sessionId: string, runId = "00000000-0000-4000-8000-000000000000"): void {
	const file = join(fixture.workDir, ".pi", "graphs", "slow.json");
	const definition = { name: "slow", nodes: { only: { kind: "agent", agent_type: "pi", task: "race: slow" } } };
	mkdirSync(join(fixture.workDir, ".pi", "graphs"), { recursive: true });
	writeFileSync(file, JSON.stringify(definition));
	storeRun(sessionId, { name: "slow", definition, agentScope: "project", file }, false, runId);
}

describe("two Pi processes on one session file", () => {
	it("never resume a run the other finished while this one waited on another run's restore", {
		timeout: 120_000,
	}, async () => {
		writeFileSync(join(fixture.home.agentDir, "trust.json"), JSON.stringify({ [fixture.workDir]: false }));
		const gate = new Gate();
		const unroute = fixture.server.route(gate.rule("race: work", () => ({ text: "work done" })));
		fixture.server.scriptFor("race parent", {
			toolCalls: [
				{
					name: "agent_graph",
					arguments: {
						graph: { name: "race", nodes: { work: { agent_type: "pi", task: "race: work" } } },
						background: true,
					},
				},
			],
		});
		try {
			// Pi A drives the run as a background job; its node is held.
			const a = startPi(["--session-dir", join(fixture.home.dir, "sessions", "race")]);
			await a.command({ type: "prompt", message: "race parent" });
			await gate.waitHeld(1);
			const sessionFile = (await a.command({ type: "get_state" })).sessionFile as string;
			await waitUntil(() => existsSync(sessionFile), "the session file");
			const race = runNamed("race");
			storeProjectRun(race.snapshot().owner.sessionId);

			// Pi B opens the same session: it reads both snapshots, then asks about the project run (first in order).
			const b = startPi(["--session", sessionFile]);
			const asks = () => b.events.filter((e) => e.type === "extension_ui_request" && e.method === "confirm");
			await waitUntil(() => asks().length > 0, "B's trust question", 60_000);

			// Meanwhile A finishes the run and lets its lease go.
			gate.releaseOne();
			await waitUntil(() => race.snapshot().finished, "A to finish the run", 60_000);
			const finished = race.snapshot();
			expect(finished.state.nodes.work).toMatchObject({ status: "completed", attempts: 1 });

			b.child.stdin?.write(
				`${JSON.stringify({ type: "extension_ui_response", id: asks()[0]?.id, confirmed: false })}\n`,
			);
			const runId = finished.runId;
			await waitUntil(() => b.notices().some((line) => line.includes(runId)), "B's report on the run", 60_000);
			expect(b.notices().filter((line) => line.includes(runId))).toEqual([
				expect.stringContaining(`run ${runId} cannot resume: the run has ended`),
			]);
			expect(race.snapshot()).toEqual(finished);
			expect(fixture.server.requests.filter((r) => r.lastUserText === "race: work")).toHaveLength(1);
		} finally {
			unroute();
		}
	});
});

describe("a run paused by another Pi while this one restores others", () => {
	it("stays paused: the session start does not resume it, and says how to", { timeout: 120_000 }, async () => {
		writeFileSync(join(fixture.home.agentDir, "trust.json"), JSON.stringify({ [fixture.workDir]: false }));
		const { sessionFile, sessionId } = await sessionWithFile("paused-meanwhile");
		storeProjectRun(sessionId, "00000000-0000-4000-8000-000000000001");
		const target = storeRun(sessionId, { name: "target" }, false, "ffffffff-ffff-4fff-bfff-ffffffffffff");
		const b = startPi(["--session", sessionFile]);
		const asks = () => b.events.filter((e) => e.type === "extension_ui_request" && e.method === "confirm");
		await waitUntil(() => asks().length > 0, "B's trust question", 60_000);
		// Meanwhile another Pi pauses the stored run (what its stored pause control commits).
		const file = join(graphsRoot(fixture.home.agentDir), target, "snapshot.json");
		writeFileSync(
			file,
			JSON.stringify({
				...JSON.parse(readFileSync(file, "utf8")),
				state: { ...JSON.parse(readFileSync(file, "utf8")).state, paused: true },
			}),
		);
		b.child.stdin?.write(`${JSON.stringify({ type: "extension_ui_response", id: asks()[0]?.id, confirmed: false })}\n`);
		await waitUntil(() => b.notices().some((line) => line.includes(target)), "B's report on the run", 60_000);
		expect(b.notices().filter((line) => line.includes(target))).toEqual([
			expect.stringContaining(`run ${target} cannot resume: it was paused meanwhile; resume it with`),
		]);
		expect(JSON.parse(readFileSync(file, "utf8")).state.paused).toBe(true);
		expect(fixture.server.requests.filter((r) => r.lastUserText === "restore-isolation: only")).toHaveLength(0);
	});
});
