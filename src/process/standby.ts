/**
 * A child started ahead of its run and kept idle until a run adopts it (docs/settings.md §Warm pi children;
 * SECURITY.md, "Processes"). It is spawned like any child (spawn.ts: its own process group, the run marker),
 * registered with the lifeline and Pi's own `exit` from its spawn (termination.ts), and its output is held, not
 * read by anyone, until the adopting run's reader takes it over byte for byte.
 */
import { PassThrough, type Readable } from "node:stream";
import { lifeline as defaultLifeline, type Lifeline } from "./lifeline.ts";
import { spawnChild } from "./spawn.ts";
import { GroupTerminator } from "./termination.ts";
import type { AdoptedProcess, ChildCommand } from "./types.ts";

export type { AdoptedProcess };

/**
 * How a standby tells it is ready: `line` is written to its stdin at start, and the first stdout record
 * `isAnswer` accepts (one JSON line) says the child reads its input; that line is held back from the run.
 */
export interface ReadyProbe {
	line: string;
	isAnswer(record: unknown): boolean;
}

/** Output held while idle beyond which the standby is ended (an idle child has nothing to say), bytes. */
export const MAX_HELD_BYTES = 1024 * 1024;

/**
 * Bytes read from one pipe while nobody else reads it; handed over in order at adoption. Past MAX_HELD_BYTES
 * the child is being ended and never adopted: what it held is dropped and whatever more it writes (while it
 * outlives its SIGTERM) is read and discarded, so a flood cannot grow the parent.
 */
class HeldOutput {
	chunks: Buffer[] = [];
	bytes = 0;
	#overflowed = false;
	readonly #source: Readable;
	readonly #onData: (chunk: Buffer) => void;

	/** @param onOverflow called once, when more than MAX_HELD_BYTES would be held. */
	constructor(source: Readable, onOverflow: () => void) {
		this.#source = source;
		this.#onData = (chunk) => {
			if (this.#overflowed) return;
			this.chunks.push(chunk);
			this.bytes += chunk.length;
			if (this.bytes <= MAX_HELD_BYTES) return;
			this.#overflowed = true;
			this.chunks = [];
			this.bytes = 0;
			onOverflow();
		};
		source.on("data", this.#onData);
	}

	/** A stream that yields the held bytes, then the rest of the source; destroying it destroys the source. */
	handOver(): Readable {
		this.#source.off("data", this.#onData);
		this.#source.pause();
		const out = new PassThrough();
		for (const chunk of this.chunks) out.write(chunk);
		this.chunks = [];
		// A pipe the child closed while idle has nothing more to give: its end is handed over too.
		if (this.#source.readableEnded) out.end();
		else this.#source.pipe(out);
		out.once("close", () => this.#source.destroy());
		return out;
	}
}

/** The probe's answer line removed from `held` once it is complete: true when found. */
function takeAnswer(held: HeldOutput, probe: ReadyProbe): boolean {
	const text = Buffer.concat(held.chunks);
	let start = 0;
	for (let end = text.indexOf(10); end !== -1; start = end + 1, end = text.indexOf(10, start)) {
		if (!isAnswerLine(text.subarray(start, end).toString("utf8"), probe)) continue;
		held.chunks = [text.subarray(0, start), text.subarray(end + 1)].filter((part) => part.length > 0);
		held.bytes -= end + 1 - start;
		return true;
	}
	return false;
}

function isAnswerLine(line: string, probe: ReadyProbe): boolean {
	try {
		return probe.isAnswer(JSON.parse(line));
	} catch {
		return false;
	}
}

/**
 * One idle child. Never throws: a command that cannot start is a standby that is gone at once.
 */
export class StandbyProcess {
	/** The child's pid (its process-group id), `undefined` when it could not start. */
	readonly pid: number | undefined;
	/** Resolves true once the probe was answered, false when the child is gone (or adopted) first. */
	readonly ready: Promise<boolean>;
	/** Resolves once the leader has exited (at once when it never started). */
	readonly gone: Promise<void>;
	#exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
	#exitListeners: Array<(code: number | null, signal: NodeJS.Signals | null) => void> = [];
	#adopted = false;
	/** Set once `end()` started ending it: it is then never adopted. */
	#ending = false;
	#stopWatching = () => {};
	/** Set when the child started. */
	#parts: (Omit<AdoptedProcess, "stdout" | "stderr"> & { stdout: HeldOutput; stderr: HeldOutput }) | undefined;

	/**
	 * Spawns `command` with its stdin open and writes `probe.line` to it.
	 * @param killGraceMs SIGTERM → SIGKILL grace when it is ended, ms.
	 */
	constructor(command: ChildCommand, probe: ReadyProbe, killGraceMs: number, lifeline: Lifeline = defaultLifeline) {
		const marker = lifeline.nextMarker();
		const spawned = spawnChild({ ...command, openStdin: true }, marker);
		if (spawned.pid === undefined || !spawned.stdin) {
			// Never started: nothing carries its marker. (Started without a pipe cannot happen with `openStdin`;
			// its marker then stays open, and Pi's exit looks for it.)
			if (spawned.pid === undefined) marker.settle();
			this.#exit = { code: null, signal: null };
			this.pid = undefined;
			this.ready = Promise.resolve(false);
			this.gone = Promise.resolve();
			return;
		}
		this.pid = spawned.pid;
		const terminator = new GroupTerminator(spawned.pid, killGraceMs, marker, lifeline);
		const end = () => this.end();
		const stdout = new HeldOutput(spawned.stdout, end);
		this.#parts = {
			pid: spawned.pid,
			stdin: spawned.stdin,
			terminator,
			stdout,
			stderr: new HeldOutput(spawned.stderr, end),
			onExit: (listener) => {
				const exit = this.#exit;
				if (exit) setImmediate(() => listener(exit.code, exit.signal));
				else this.#exitListeners.push(listener);
			},
		};
		this.gone = new Promise((resolve) => {
			spawned.onExit((code, signal) => {
				this.#exit = { code, signal };
				terminator.leaderExited();
				for (const listener of this.#exitListeners) listener(code, signal);
				resolve();
			});
		});
		this.ready = this.#watchReady(spawned.stdout, stdout, probe);
		spawned.stdin.write(`${probe.line}\n`);
	}

	#watchReady(source: Readable, held: HeldOutput, probe: ReadyProbe): Promise<boolean> {
		return new Promise((resolve) => {
			const check = () => {
				if (takeAnswer(held, probe)) finish(true);
			};
			const finish = (ready: boolean) => {
				source.off("data", check);
				resolve(ready);
			};
			this.#stopWatching = () => finish(false);
			source.on("data", check);
			void this.gone.then(() => finish(false));
		});
	}

	/** Bytes of output held for the adopting run, stdout and stderr together (tests). */
	get heldBytes(): number {
		return (this.#parts?.stdout.bytes ?? 0) + (this.#parts?.stderr.bytes ?? 0);
	}

	/** Whether the leader still runs, no run has adopted it and nothing has started ending it. */
	get idle(): boolean {
		return this.#exit === undefined && !this.#adopted && !this.#ending;
	}

	/**
	 * Hands the child to a run: its held output first, then the rest of its pipes. `undefined` when it is
	 * gone or was adopted already. The run's `startProcess` ends it from then on.
	 */
	adopt(): AdoptedProcess | undefined {
		if (!this.idle || !this.#parts) return undefined;
		this.#adopted = true;
		this.#stopWatching();
		const { stdout, stderr, ...rest } = this.#parts;
		return { ...rest, stdout: stdout.handOver(), stderr: stderr.handOver() };
	}

	/**
	 * Ends an idle child's group (SIGTERM, SIGKILL after the grace); resolves once its leader has exited. From
	 * then on it is not idle: a child that outlives its SIGTERM is never handed to a run.
	 */
	end(): Promise<void> {
		if (this.idle) {
			this.#ending = true;
			this.#parts?.terminator.terminate();
		}
		return this.gone;
	}
}
