/**
 * The durable record of a graph run (docs/graphs.md §Durability) through the real file system: the run
 * directory's rules, checkpoints under injected write faults (a full disk or a failing device cannot be
 * produced on demand), what a restore scan refuses, the writer lease and retention.
 */
import { spawnSync } from "node:child_process";
import {
	appendFileSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FS_FAULT_ENV } from "../../src/core/fault-points.ts";
import { runGraph } from "../../src/graph/engine.ts";
import type { SpecRunner } from "../../src/graph/executors.ts";
import { acquireLease, createRunDir, graphsRoot, LEASE_FILE, newRunId } from "../../src/graph/run-dir.ts";
import { pruneRuns } from "../../src/graph/run-retention.ts";
import { applyEvent, type GraphEvent, type GraphRunState, initialRunState } from "../../src/graph/run-state.ts";
import {
	LEDGER_FILE,
	type LedgerRecord,
	type RunSnapshot,
	RunStore,
	readSnapshot,
	SNAPSHOT_FILE,
	scanRuns,
} from "../../src/graph/run-store.ts";
import { readStat } from "../../src/process/proc-table.mjs";
import { canMountTmpfs, type FullDisk, mountFullDisk } from "../support/full-disk.ts";
import { compiledGraph } from "../support/graphs.ts";
import { launchSpec } from "../support/launch-spec.ts";
import { runResult } from "../support/run-result.ts";
import { makeTempDir } from "../support/temp-dir.ts";

let agentDir: string;
beforeEach(() => {
	agentDir = makeTempDir("durable-store-");
});
afterEach(() => {
	delete process.env[FS_FAULT_ENV];
	rmSync(agentDir, { recursive: true, force: true });
});

function snapshotOf(runId: string, state: GraphRunState, extra: Partial<RunSnapshot> = {}): RunSnapshot {
	return {
		version: 1,
		runId,
		owner: { sessionId: "session-a" },
		createdAt: 1,
		updatedAt: Date.now(),
		graph: { name: "g", definition: { nodes: {} }, inputs: {}, agentScope: "user", cwd: "/work" },
		state,
		finished: false,
		...extra,
	};
}

/** Children that complete at once. */
const instant: SpecRunner = async (spec, options) => {
	const child = {
		index: 0,
		harness: "pi" as const,
		task: spec.task,
		phase: "completed" as const,
		startedAt: 1,
		result: runResult({ task: spec.task, status: "completed" }),
	};
	options.onChild({ ...child, phase: "running" });
	return child;
};

describe("a graph run's directory", () => {
	it("is created 0700 on every level with a 0600 snapshot, and refuses a symlink anywhere on its path", () => {
		const runId = newRunId();
		const dir = createRunDir(agentDir, runId);
		for (const path of [join(agentDir, "pi-native-subagents"), graphsRoot(agentDir), dir]) {
			expect(statSync(path).mode & 0o777).toBe(0o700);
		}
		new RunStore(dir, snapshotOf(runId, initialRunState(["a"]))).commit([], initialRunState(["a"]));
		expect(statSync(join(dir, SNAPSHOT_FILE)).mode & 0o777).toBe(0o600);

		const other = makeTempDir("durable-elsewhere-");
		try {
			const linked = makeTempDir("durable-linked-");
			symlinkSync(other, join(linked, "pi-native-subagents"));
			expect(() => createRunDir(linked, newRunId())).toThrow(/pi-native-subagents: is a symlink/);
			rmSync(linked, { recursive: true, force: true });
		} finally {
			rmSync(other, { recursive: true, force: true });
		}
		expect(() => createRunDir(agentDir, "../escape")).toThrow(/is not a UUID v4/);
	});
});

describe("checkpoints under write faults", () => {
	const points = [
		["write", "ENOSPC", SNAPSHOT_FILE],
		["fsync", "EIO", SNAPSHOT_FILE],
		["rename", "ENOSPC", SNAPSHOT_FILE],
		["rename", "EIO", SNAPSHOT_FILE],
		["write", "EIO", "ledger.jsonl"],
		["fsync", "ENOSPC", "ledger.jsonl"],
		["fsync", "EIO", "<run dir>"],
	] as const;
	for (const [op, code, target] of points) {
		it(`${code} from the ${op} of ${target}: the snapshot on disk is the previous or the new one, and the run reports an infrastructure error`, async () => {
			const graph = compiledGraph({
				a: { agent_type: "pi", task: "a" },
				b: { agent_type: "pi", task: "b", depends_on: ["a"] },
				c: { agent_type: "pi", task: "c", depends_on: ["b"] },
			});
			const runId = newRunId();
			const dir = createRunDir(agentDir, runId);
			const store = new RunStore(dir, snapshotOf(runId, initialRunState(["a", "b", "c"])));
			store.commit([], initialRunState(["a", "b", "c"]));
			const attempted: GraphRunState[] = [store.snapshot.state];
			// The second checkpoint of the run fails at this point (the first one went through).
			process.env[FS_FAULT_ENV] = `${op}:${code}:${target === "<run dir>" ? runId : target}:2`;
			const outcome = await runGraph(graph, {
				defaultConcurrency: 2,
				resolve: async (_key, task) => launchSpec({ harness: "pi", cwd: "/work", task }),
				run: instant,
				persist: async (events, state) => {
					attempted.push(state);
					store.commit(events, state);
				},
			});
			expect(outcome.state.infrastructureError).toContain(code);
			const onDisk = JSON.parse(readFileSync(join(dir, SNAPSHOT_FILE), "utf8")) as RunSnapshot;
			expect(attempted.map((state) => JSON.stringify(state))).toContain(JSON.stringify(onDisk.state));
			expect(readSnapshot(dir, runId)).toHaveProperty("snapshot");
			expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
			expect(outcome.state.nodes.c.status).not.toBe("completed");
		});
	}
});

/** The ledger's lines, each parsed (`undefined` for one that does not parse). */
function ledgerLines(dir: string): Array<LedgerRecord | undefined> {
	return readFileSync(join(dir, LEDGER_FILE), "utf8")
		.split("\n")
		.filter(Boolean)
		.map((line) => {
			try {
				return JSON.parse(line) as LedgerRecord;
			} catch {
				return undefined;
			}
		});
}

const admit = (node: string) => ({ type: "admit", node }) as GraphEvent;

/** A new run of nodes a and b under `root`, with the admission of a committed. */
function runWithAAdmitted(root: string) {
	const runId = newRunId();
	const dir = createRunDir(root, runId);
	const store = new RunStore(dir, snapshotOf(runId, initialRunState(["a", "b"])));
	const state = applyEvent(initialRunState(["a", "b"]), admit("a"));
	store.commit([admit("a")], state);
	return { dir, store, state };
}

describe("the ledger, one line per event", () => {
	it("keeps no line of a checkpoint whose append failed, so the next checkpoint's lines stand alone", () => {
		const { dir, store, state } = runWithAAdmitted(agentDir);
		// The fsync fails after the whole line was written: the append did not happen, and leaves nothing.
		process.env[FS_FAULT_ENV] = "fsync:EIO:ledger.jsonl";
		expect(() => store.commit([admit("b")], applyEvent(state, admit("b")))).toThrow(/EIO/);
		delete process.env[FS_FAULT_ENV];
		expect(ledgerLines(dir).map((record) => record?.event)).toEqual([admit("a")]);
	});

	it("writes a failed checkpoint's lines with the next one, before its own: the ledger loses no event the snapshot holds", () => {
		const { dir, store, state } = runWithAAdmitted(agentDir);
		process.env[FS_FAULT_ENV] = "write:ENOSPC:ledger.jsonl";
		const withB = applyEvent(state, admit("b"));
		expect(() => store.commit([admit("b")], withB)).toThrow(/ledger\.jsonl: ENOSPC/);
		delete process.env[FS_FAULT_ENV];
		store.commit([{ type: "pause" }], applyEvent(withB, { type: "pause" }));
		const lines = ledgerLines(dir);
		expect(lines.map((record) => record?.event)).toEqual([admit("a"), admit("b"), { type: "pause" }]);
		const checkpoints = lines.map((record) => record?.checkpoint ?? 0);
		expect(checkpoints).toEqual([...checkpoints].sort((x, y) => x - y));
	});

	it("starts a record on a line of its own after a line a crash cut short, and numbers it on from the last whole one", () => {
		const { dir, store, state } = runWithAAdmitted(agentDir);
		// A crash in the middle of the next append (a power loss, SIGKILL between two writes).
		appendFileSync(join(dir, LEDGER_FILE), '{"runId":"cut short","checkpoint":9');
		const restored = new RunStore(dir, store.snapshot);
		restored.commit([admit("b")], applyEvent(state, admit("b")));
		const lines = ledgerLines(dir);
		expect(lines.map((record) => record?.event)).toEqual([admit("a"), undefined, admit("b")]);
		expect(lines.map((record) => record?.checkpoint)).toEqual([1, undefined, 2]);
	});

	it("numbers on from the last whole record past a long last line a crash cut short, joining that line once", () => {
		const { dir, store, state } = runWithAAdmitted(agentDir);
		const ledger = join(dir, LEDGER_FILE);
		// 4 MiB without a newline: 64 of the chunks the tail is read in.
		appendFileSync(ledger, `{"runId":"cut short","padding":"${"x".repeat(4 * 1024 * 1024)}`);
		// The tail's bytes copied into joined buffers: about the ledger's size, not once for every chunk read.
		const concat = vi.spyOn(Buffer, "concat");
		let restored: RunStore;
		let copied = 0;
		try {
			restored = new RunStore(dir, store.snapshot);
			for (const result of concat.mock.results) copied += (result.value as Buffer).length;
		} finally {
			concat.mockRestore();
		}
		expect(copied).toBeGreaterThan(0);
		expect(copied).toBeLessThan(2 * statSync(ledger).size);
		restored.commit([admit("b")], applyEvent(state, admit("b")));
		expect(ledgerLines(dir).map((record) => record?.checkpoint)).toEqual([1, undefined, 2]);
	});

	it("never numbers a checkpoint again in a restored run (the restore goes on from the ledger's last one)", () => {
		const runId = newRunId();
		const dir = createRunDir(agentDir, runId);
		let state = initialRunState(["a", "b"]);
		const first = new RunStore(dir, snapshotOf(runId, state));
		// A checkpoint without events writes no ledger line: numbers may skip, never repeat.
		first.commit([], state);
		state = applyEvent(state, admit("a"));
		first.commit([admit("a")], state);
		// Records longer than the chunk the tail is read in, so the last whole one starts chunks before the end.
		const long = { type: "pause", padding: "é".repeat(70_000) } as unknown as GraphEvent;
		first.commit([long, long], state);
		const restored = new RunStore(dir, first.snapshot);
		state = applyEvent(state, admit("b"));
		restored.commit([admit("b")], state);
		restored.commit([{ type: "pause" }], applyEvent(state, { type: "pause" }));
		expect(ledgerLines(dir).map((record) => record?.checkpoint)).toEqual([2, 3, 3, 4, 5]);
	});
});

describe.runIf(canMountTmpfs())("the ledger on a real full disk", () => {
	let disk: FullDisk | undefined;
	afterEach(() => {
		disk?.unmount();
		disk = undefined;
	});

	it("keeps one parseable line per event once the disk has room again, after an append that ran out of space", () => {
		disk = mountFullDisk({ fill: false });
		const diskAgentDir = join(disk.dir, "agent");
		mkdirSync(diskAgentDir, { mode: 0o700 });
		const { dir, store, state } = runWithAAdmitted(diskAgentDir);
		// Every free block filled: the ledger's last page still has room for the start of the next record.
		disk.fill();
		const big = { type: "complete", node: "a", at: 2, output: { text: "x".repeat(20_000) } } as unknown as GraphEvent;
		expect(() => store.commit([big], state)).toThrow(/ENOSPC/);
		expect(ledgerLines(dir).map((record) => record?.event)).toEqual([admit("a")]);
		// The user made room; the run goes on from its last good state, as a restore does.
		rmSync(join(disk.dir, ".filler"));
		new RunStore(dir, store.snapshot).commit([admit("b")], applyEvent(state, admit("b")));
		expect(ledgerLines(dir).map((record) => record?.event)).toEqual([admit("a"), admit("b")]);
	});
});

describe("what a restore scan refuses", () => {
	it("reads foreign and ownerless snapshots as not ours, and names the file of version 99, truncated and symlinked runs", () => {
		const write = (snapshot: unknown, text?: string) => {
			const runId = newRunId();
			const dir = createRunDir(agentDir, runId);
			writeFileSync(join(dir, SNAPSHOT_FILE), text ?? JSON.stringify({ ...(snapshot as object), runId }), {
				mode: 0o600,
			});
			return { runId, dir };
		};
		const state = initialRunState(["a"]);
		const foreign = write(snapshotOf("x", state, { owner: { sessionId: "session-b" } }));
		const ownerless = write({ ...snapshotOf("x", state), owner: undefined });
		const v99 = write({ ...snapshotOf("x", state), version: 99 });
		const full = JSON.stringify(snapshotOf("x", state));
		const truncated = write(undefined, full.slice(0, full.length / 2));
		const target = makeTempDir("durable-target-");
		const linkedId = newRunId();
		symlinkSync(target, join(graphsRoot(agentDir), linkedId));
		try {
			const reads = scanRuns(agentDir);
			const byDir = new Map(reads.map((read) => [basename(read.dir), read]));
			for (const { runId } of [foreign, ownerless]) {
				const read = byDir.get(runId);
				expect(read && "snapshot" in read && read.snapshot.owner?.sessionId !== "session-a").toBe(true);
			}
			const problem = (id: string) => {
				const read = byDir.get(id);
				return read && "problem" in read ? read.problem : "";
			};
			expect(problem(v99.runId)).toBe(
				`${join(v99.dir, SNAPSHOT_FILE)}: unknown snapshot version 99 (this version reads 1); the run is not restored`,
			);
			expect(problem(truncated.runId)).toMatch(
				new RegExp(`^${join(truncated.dir, SNAPSHOT_FILE)}: corrupt snapshot \\(.+\\); the run is not restored$`),
			);
			expect(problem(linkedId)).toBe(
				`${join(graphsRoot(agentDir), linkedId)}: is a symlink; graph run directories must be real directories`,
			);
		} finally {
			rmSync(target, { recursive: true, force: true });
		}
	});
});

describe("a snapshot damaged inside", () => {
	it("is refused naming the field: a node status the engine does not know, a time no Date holds, a name not text", () => {
		const state = initialRunState(["only"]);
		const damaged: Array<[string, RunSnapshot]> = [
			[
				"state.nodes.only.status",
				snapshotOf("x", {
					...state,
					nodes: { only: { ...state.nodes.only, status: "bogus" } },
				} as unknown as GraphRunState),
			],
			["updatedAt", snapshotOf("x", state, { updatedAt: 1e300 })],
			[
				"state.nodes.only.startedAt",
				snapshotOf("x", { ...state, nodes: { only: { ...state.nodes.only, startedAt: -5 } } }),
			],
			[
				"graph.name",
				snapshotOf("x", state, { graph: { ...snapshotOf("x", state).graph, name: 42 as unknown as string } }),
			],
		];
		for (const [field, snapshot] of damaged) {
			const runId = newRunId();
			const dir = createRunDir(agentDir, runId);
			writeFileSync(join(dir, SNAPSHOT_FILE), JSON.stringify({ ...snapshot, runId }), { mode: 0o600 });
			const read = readSnapshot(dir, runId);
			expect("problem" in read && read.problem, field).toMatch(
				new RegExp(
					`^${join(dir, SNAPSHOT_FILE)}: corrupt snapshot \\(${field.replaceAll(".", "\\.")}: .+\\); the run is not restored$`,
				),
			);
		}
	});
});

describe("the writer lease", () => {
	it("is refused while its holder lives, and taken over only once the holder's pid is gone", () => {
		const dir = createRunDir(agentDir, newRunId());
		const first = acquireLease(dir, "s");
		expect(first).toHaveProperty("release");
		expect(acquireLease(dir, "s")).toEqual({
			refused: `the run is driven by this process (lease ${join(dir, LEASE_FILE)})`,
		});
		(first as { release(): void }).release();

		// A holder that lived and is gone: a real process that exited.
		const gone = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
		const pid = Number(gone.stdout.trim());
		expect(readStat(pid)).toBeUndefined();
		writeFileSync(join(dir, LEASE_FILE), JSON.stringify({ pid, startTime: "1", sessionId: "s", at: 1 }));
		const taken = acquireLease(dir, "s");
		expect(taken).toHaveProperty("release");
		expect(JSON.parse(readFileSync(join(dir, LEASE_FILE), "utf8")).pid).toBe(process.pid);
		(taken as { release(): void }).release();

		// A live holder with another start time is a reused pid, not the holder: taken over too.
		writeFileSync(join(dir, LEASE_FILE), JSON.stringify({ pid: process.pid, startTime: "0", sessionId: "s", at: 1 }));
		expect(acquireLease(dir, "s")).toHaveProperty("release");
	});
});

describe("retention of graph runs", () => {
	it("removes old finished runs and, over the size limit, the oldest finished ones; never this session's unfinished runs nor a driven one", () => {
		const day = 24 * 60 * 60 * 1000;
		const now = Date.now();
		const make = (finished: boolean, ageDays: number, sessionId: string, bytes = 10) => {
			const runId = newRunId();
			const dir = createRunDir(agentDir, runId);
			const snapshot = snapshotOf(runId, initialRunState(["a"]), {
				finished,
				updatedAt: now - ageDays * day,
				owner: { sessionId },
			});
			writeFileSync(join(dir, SNAPSHOT_FILE), JSON.stringify(snapshot));
			writeFileSync(join(dir, "ledger.jsonl"), "x".repeat(bytes));
			utimesSync(dir, new Date(), new Date());
			return runId;
		};
		const oldFinished = make(true, 40, "other");
		const oldMine = make(false, 40, "mine");
		const oldOthersUnfinished = make(false, 40, "other");
		const bigOld = make(true, 5, "other", 5000);
		const recent = make(true, 1, "other");
		// Old and another session's, but a live process (this one) drives it: it stays.
		const driven = make(false, 40, "other");
		const lease = acquireLease(join(graphsRoot(agentDir), driven), "other");
		const removed = pruneRuns(agentDir, { sessionId: "mine", maxAgeMs: 30 * day, maxTotalBytes: 4000, now });
		expect(removed.sort()).toEqual([oldFinished, oldOthersUnfinished, bigOld].sort());
		const left = readdirSync(graphsRoot(agentDir)).sort();
		expect(left).toEqual([oldMine, recent, driven].sort());
		(lease as { release(): void }).release();
	});
});
