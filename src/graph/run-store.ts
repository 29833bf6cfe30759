/**
 * A graph run's durable record (docs/graphs.md §Durability): `snapshot.json`, the whole run as of its last
 * checkpoint (versioned, replaced atomically), and `ledger.jsonl`, one line per event, appended before the
 * snapshot is replaced. Every record is correlated by run id, node key, item index / iteration (`null` for
 * agent nodes; coordinator kinds fill them) and attempt. A checkpoint is the engine's `persist` hook: it
 * returns once both are durable, and a failed write throws (the engine makes it an infrastructure error).
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import type { AgentScope } from "../config/agents.ts";
import { appendFileDurable, namingFile, writeFileAtomic } from "../core/atomic-write.ts";
import { runEnded } from "./controls.ts";
import { directoryProblem, graphsRoot, RUN_ID } from "./run-dir.ts";
import type { GraphEvent, GraphRunState } from "./run-state.ts";
import { snapshotShapeProblem } from "./snapshot-shape.ts";

/** The snapshot format this version writes and reads. */
export const SNAPSHOT_VERSION = 1;
export const SNAPSHOT_FILE = "snapshot.json";
export const LEDGER_FILE = "ledger.jsonl";

/** `snapshot.json`. */
export interface RunSnapshot {
	version: number;
	runId: string;
	/** The Pi session that started the run; only that session restores it. */
	owner: { sessionId: string };
	/** ms since the Unix epoch. */
	createdAt: number;
	updatedAt: number;
	/** The graph as admitted: its definition (re-validated at restore), inputs and where it ran. */
	graph: {
		name: string;
		definition: unknown;
		inputs: unknown;
		agentScope: AgentScope;
		cwd: string;
		file?: string;
		/**
		 * A saved graph's content digest as admitted (`contentDigest` of its file): a restore asks about a project
		 * graph again, and a confirmation of that content given in this process stands (graph-restore.ts).
		 */
		digest?: string;
		/** The saved graphs its graph nodes ran, by name, as admitted (docs/graphs.md §Subgraphs). */
		subgraphs?: Record<string, unknown>;
	};
	state: GraphRunState;
	/** True once the run ended (every node settled, cancelled or stopped by an infrastructure error). */
	finished: boolean;
}

/** One line of `ledger.jsonl`. */
export interface LedgerRecord {
	runId: string;
	/** The checkpoint the event belongs to (one admission wave, one settlement, one control). */
	checkpoint: number;
	at: number;
	node: string | null;
	item: number | null;
	iteration: number | null;
	attempt: number | null;
	event: GraphEvent;
}

/** The durable record of one run, in its (already checked) run directory. */
export class RunStore {
	readonly dir: string;
	#snapshot: RunSnapshot;
	#checkpoint: number;
	#frozen = false;
	/** Ledger lines of checkpoints whose append failed: written first by the next commit, so none is lost. */
	#unwritten: string[] = [];

	/**
	 * The record of the run in `dir`. Checkpoints are numbered on from the last one its ledger holds (0 for a
	 * new run), so a restored run never numbers one again.
	 */
	constructor(dir: string, snapshot: RunSnapshot) {
		this.dir = dir;
		this.#snapshot = snapshot;
		this.#checkpoint = lastCheckpoint(join(dir, LEDGER_FILE));
	}

	get snapshot(): RunSnapshot {
		return this.#snapshot;
	}

	/**
	 * Stops recording: later commits write nothing. For a lifecycle interruption (the session shuts down or
	 * is replaced while the run goes on): the record stays as before it, and a restore continues from there
	 * as after a crash, instead of the run being recorded as cancelled.
	 */
	freeze(): void {
		this.#frozen = true;
	}

	/**
	 * Appends `events` to the ledger (after the lines of an earlier commit whose append failed) and replaces the
	 * snapshot with `state`, both durable on return.
	 * @throws the write's error (`ENOSPC`, `EIO`, …), its message naming the file; the snapshot on disk is then the
	 *   previous or the new one.
	 */
	commit(events: readonly GraphEvent[], state: GraphRunState): void {
		if (this.#frozen) return;
		const checkpoint = ++this.#checkpoint;
		const at = Date.now();
		const lines = [
			...this.#unwritten,
			...events.map((event) => JSON.stringify(ledgerRecord(this.#snapshot.runId, checkpoint, at, event, state))),
		];
		if (lines.length > 0) {
			const ledger = join(this.dir, LEDGER_FILE);
			try {
				namingFile(ledger, () => appendFileDurable(ledger, `${lines.join("\n")}\n`));
				this.#unwritten = [];
			} catch (error) {
				// The run's state in memory moves on (a later snapshot holds it): its events must reach the ledger too.
				this.#unwritten = lines;
				throw error;
			}
		}
		const next = { ...this.#snapshot, updatedAt: at, state, finished: runEnded(state) };
		const snapshot = join(this.dir, SNAPSHOT_FILE);
		namingFile(snapshot, () => writeFileAtomic(snapshot, `${JSON.stringify(next)}\n`));
		this.#snapshot = next;
	}
}

/** Bytes of the ledger read at a time, from its end, to find its last record. */
const TAIL_CHUNK = 64 * 1024;

/**
 * The checkpoint of the ledger's last whole record, read back from the file's end: 0 when it has none or
 * cannot be read. A last line a failed write or a crash cut short does not parse and is passed over.
 */
function lastCheckpoint(file: string): number {
	let fd: number;
	try {
		fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
	} catch {
		return 0;
	}
	try {
		let end = fstatSync(fd).size;
		// The bytes after `end` not yet read as lines, the last chunk first, none with a newline: the end of a line
		// that began before `end`. Joined once its start is found, so a long line is copied once, not once a chunk.
		let rest: Buffer[] = [];
		while (end > 0) {
			const start = Math.max(0, end - TAIL_CHUNK);
			const chunk = Buffer.alloc(end - start);
			readSync(fd, chunk, 0, chunk.length, start);
			end = start;
			// Every line after the first newline is whole; at the file's start the first line is too.
			const cut = end === 0 ? -1 : chunk.indexOf(0x0a);
			if (end > 0 && cut === -1) {
				rest.push(chunk);
				continue;
			}
			const bytes = Buffer.concat([chunk, ...rest.reverse()]);
			const lines = bytes
				.subarray(cut + 1)
				.toString("utf8")
				.split("\n");
			for (const line of lines.reverse()) {
				const checkpoint = checkpointOf(line);
				if (checkpoint !== undefined) return checkpoint;
			}
			rest = [chunk.subarray(0, Math.max(cut, 0))];
		}
		return 0;
	} finally {
		closeSync(fd);
	}
}

/** The `checkpoint` of one ledger line, or `undefined` when the line is not a whole record. */
function checkpointOf(line: string): number | undefined {
	try {
		const record = JSON.parse(line) as Partial<LedgerRecord> | null;
		return Number.isSafeInteger(record?.checkpoint) ? (record?.checkpoint as number) : undefined;
	} catch {
		return undefined;
	}
}

function ledgerRecord(
	runId: string,
	checkpoint: number,
	at: number,
	event: GraphEvent,
	state: GraphRunState,
): LedgerRecord {
	const node = "node" in event ? event.node : null;
	if (event.type === "part") {
		// A coordinator's part: its item index or round, and the part's own attempt.
		const part = state.nodes[event.node]?.parts?.[event.part];
		return {
			runId,
			checkpoint,
			at,
			node,
			item: part?.index ?? null,
			iteration: part?.iteration ?? null,
			attempt: part?.attempts ?? null,
			event,
		};
	}
	const attempt = node === null ? null : (state.nodes[node]?.attempts ?? null);
	return { runId, checkpoint, at, node, item: null, iteration: null, attempt, event };
}

/** A run directory read back: its snapshot, or the problem that keeps it from running. */
export type ReadRun = { dir: string; snapshot: RunSnapshot } | { dir: string; problem: string };

/**
 * Reads `<dir>/snapshot.json` (never through a symlink). Refused, naming the file: unreadable, truncated or
 * otherwise not JSON, a version other than `SNAPSHOT_VERSION`, a run id that is not the directory's name, a
 * shape that is not a snapshot. An ownerless snapshot reads fine (`owner` missing): callers never run it.
 */
export function readSnapshot(dir: string, runId: string): ReadRun {
	const file = join(dir, SNAPSHOT_FILE);
	let text: string;
	try {
		const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
		try {
			text = readFileSync(fd, "utf8");
		} finally {
			closeSync(fd);
		}
	} catch (error) {
		return { dir, problem: `${file}: cannot be read (${(error as NodeJS.ErrnoException).code})` };
	}
	let raw: Partial<RunSnapshot>;
	try {
		raw = JSON.parse(text) as Partial<RunSnapshot>;
	} catch (error) {
		return { dir, problem: `${file}: corrupt snapshot (${(error as Error).message}); the run is not restored` };
	}
	if (raw?.version !== SNAPSHOT_VERSION) {
		return {
			dir,
			problem: `${file}: unknown snapshot version ${JSON.stringify(raw?.version)} (this version reads ${SNAPSHOT_VERSION}); the run is not restored`,
		};
	}
	if (raw.runId !== runId)
		return { dir, problem: `${file}: run id ${JSON.stringify(raw.runId)} is not the directory's name` };
	const shape = snapshotShapeProblem(raw);
	if (shape) return { dir, problem: `${file}: corrupt snapshot (${shape}); the run is not restored` };
	return { dir, snapshot: raw as RunSnapshot };
}

/**
 * Every run directory under the graphs root, read, in run id order. Entries that are not run ids are ignored; a symlinked or
 * foreign entry is refused with its problem. A root that is absent gives nothing; one that is a symlink or
 * foreign gives only its problem.
 */
export function scanRuns(agentDir: string): ReadRun[] {
	const root = graphsRoot(agentDir);
	let names: string[];
	try {
		names = readdirSync(root);
	} catch {
		return [];
	}
	const rootProblem = directoryProblem(root) ?? directoryProblem(join(agentDir, "pi-native-subagents"));
	if (rootProblem) return [{ dir: root, problem: rootProblem }];
	return names
		.filter((name) => RUN_ID.test(name))
		.sort()
		.map((name) => {
			const dir = join(root, name);
			const problem = directoryProblem(dir);
			return problem ? { dir, problem } : readSnapshot(dir, name);
		});
}

/** True when `run` belongs to the Pi session `sessionId` (ownerless snapshots belong to none). */
export function ownedBy(run: RunSnapshot, sessionId: string): boolean {
	return typeof run.owner?.sessionId === "string" && run.owner.sessionId === sessionId;
}
