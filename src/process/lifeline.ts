/**
 * Ties every child's life to Pi's (SECURITY.md, "Processes"): a child and everything it started die
 * within 2 s of Pi's death, however Pi dies. The work is done by one watchdog process per Pi process
 * (watchdog.mjs), started on the first registration; registering is one line written to its pipe, so it
 * adds no measurable start-up time to a child.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { RUN_MARKER } from "./proc-table.mjs";

/** What to clean up when Pi dies. */
export type LifelineEntry =
	/** A process group: SIGKILLed with every descendant of its members. */
	| { pgid: number }
	/** A command run (≤ 1 s, no shell) before the kills, e.g. `["tmux", "-S", socket, "kill-server"]`. */
	| { command: string[] };

/** A run marker handed out by {@link Lifeline.nextMarker}: the environment variable and value a child's processes carry. */
export interface RunMarker {
	name: string;
	value: string;
	/**
	 * Says that no process carries the marker any more: its run's last sweep is done (`GroupTerminator`), or its
	 * spawn failed. Until then Pi's exit makes the watchdog's gate look for it (one `grep` of the processes'
	 * environments); a marker never settled keeps that look. Idempotent.
	 */
	settle(): void;
	/**
	 * Set when no watchdog runs and none may be started any more (`MAX_RESTARTS` used up): a process given this
	 * marker would not die with Pi, so none is started; the text says why, naming the watchdog.
	 */
	refusal?: string;
}

/** Registers entries for cleanup on Pi's death. */
export interface Lifeline {
	/**
	 * The variable and value to put into a child's environment (see `RUN_MARKER`); unique per call. Call it
	 * before spawning: a process carrying the marker dies with Pi even before it is registered.
	 */
	nextMarker(): RunMarker;
	/** Registers `entry`; returns the function that forgets it again (call it once the entry is gone). */
	register(entry: LifelineEntry): () => void;
}

const WATCHDOG = fileURLToPath(new URL("./watchdog.mjs", import.meta.url));

/**
 * The watchdog's first stage, a POSIX shell script (`sh -c WATCHDOG_GATE sh <node> <watchdog.mjs> <marker>`): it
 * holds the pipe and keeps the lines Pi writes until the pipe's EOF, then hands them to the Node watchdog, unless
 * Pi's last line said nothing is registered (`"live":0`) and either no marker is out (`"open":0`: every marker
 * handed out was settled, {@link RunMarker.settle}) or no process carries Pi's run marker: then there is nothing
 * to kill. It keeps the first line (marker, temp dir, pid) and the lines since Pi last said nothing is registered:
 * the registrations before such a line are all removed, and dropping them keeps the shell's work linear in a
 * session's busy stretches rather than quadratic in its whole life. A Pi process that ends after its children
 * pays a shell instead of a Node process (about 100 ms of CPU and 50 MB, bench/delegation-cost.ts), and no `grep`
 * when its children's sweeps are done; one that dies with work running still gets every kill. Terminal signals
 * are ignored, as the watchdog ignores them (inherited through `exec`). One `grep` reads the environments (no
 * `cat` in front of it: a process less at every exit), each thread's: a process whose main thread exited while
 * its other threads run has an empty `/proc/<pid>/environ`, but its live threads still show its environment;
 * `-s` hides the other users' processes it may not read, and `-q` answers 0 on the first match whatever it could
 * not read.
 */
export const WATCHDOG_GATE = [
	"trap '' INT HUP PIPE",
	'nl=\'\n\' idle=\'*"live":0,"open":0}\' none=\'*"live":0,"open":*\'',
	"IFS= read -r first; told=$first last=$first",
	// A line with nothing registered ends the history: the first line (marker, temp dir, pid) is all the watchdog
	// needs of what came before it.
	'while IFS= read -r line; do last=$line; case $line in $none) told=$first ;; *) told="$told$nl$line" ;; esac; done',
	// No match (1), or none among what it could read (2): nothing to kill. A grep that could not run (126: the
	// argument list too long on a machine of very many threads, 127: not found) proves nothing: the watchdog runs.
	'case $last in $idle) exit 0 ;; $none) grep -aqsF -- "$3" /proc/[0-9]*/task/[0-9]*/environ || case $? in 1 | 2) exit 0 ;; esac ;; esac',
	'printf \'%s\\n\' "$told" | exec "$1" "$2"',
].join("\n");
/** Watchdogs started again after the previous one died, per Pi process (a watchdog that cannot run is not retried for ever). */
const MAX_RESTARTS = 10;

/** The watchdog-backed lifeline of a Pi process. */
export class WatchdogLifeline implements Lifeline {
	readonly #token = `${process.pid}-${randomUUID().slice(0, 8)}`;
	/** Live registrations, replayed to a watchdog started again after the previous one died. */
	readonly #entries = new Map<number, LifelineEntry>();
	/** Run numbers of the markers handed out and not settled yet. */
	readonly #open = new Set<number>();
	readonly #command: readonly string[];
	readonly #warn: (message: string) => void;
	#runs = 0;
	#ids = 0;
	/** Watchdogs started so far: the first and at most MAX_RESTARTS more. */
	#started = 0;
	/** The failures reported so far: each kind once per lifeline. */
	readonly #reported = new Set<"start" | "limit">();
	#watchdog: ChildProcess | undefined;

	/**
	 * @param options.command the watchdog's argv (default: the shell gate before `node watchdog.mjs`; tests point
	 *   it elsewhere).
	 * @param options.warn where a failed watchdog is reported, once per kind of failure (default: the reporter
	 *   given to {@link reportLifelineWarnings}, else `process.emitWarning`, which Pi's CLI silences).
	 */
	constructor(options: { command?: readonly string[]; warn?: (message: string) => void } = {}) {
		this.#command = options.command ?? [
			"sh",
			"-c",
			WATCHDOG_GATE,
			"sh",
			process.execPath,
			WATCHDOG,
			this.#markerPrefix(),
		];
		this.#warn = options.warn ?? ((message) => (reporter ? reporter(message) : process.emitWarning(message)));
	}

	/** `<RUN_MARKER>=<token>/`: what every child of this Pi process carries in its environment. */
	#markerPrefix(): string {
		return `${RUN_MARKER}=${this.#token}/`;
	}

	nextMarker(): RunMarker {
		// Running before the child is spawned: Pi killed between a child's spawn and its registration still
		// leaves a watchdog that knows the marker the child carries.
		if (!this.#start() && this.#started > MAX_RESTARTS) {
			const refusal = `pi-native-subagents: the parent-death watchdog (${this.#describe()}) was started ${this.#started} times and is not started again, so no child starts: it would not die with Pi; restart Pi`;
			return { name: RUN_MARKER, value: `${this.#token}/refused/`, settle: () => {}, refusal };
		}
		const run = ++this.#runs;
		this.#open.add(run);
		this.#send({ marker_out: run });
		return {
			name: RUN_MARKER,
			// Ends with "/": a run's sweep matches the value as a prefix, so it finds a descendant that appended to it
			// (`$PI_NATIVE_SUBAGENTS_RUN-x`, still this Pi's to the gate and the watchdog), never another run's
			// (`/1/` starts no `/10/`).
			value: `${this.#token}/${run}/`,
			settle: () => {
				if (this.#open.delete(run)) this.#send({ settled: run });
			},
		};
	}

	register(entry: LifelineEntry): () => void {
		const id = ++this.#ids;
		this.#entries.set(id, entry);
		this.#send({ add: id, ...entry });
		return () => {
			if (!this.#entries.delete(id)) return;
			this.#send({ remove: id });
		};
	}

	/**
	 * `message` with what the gate reads from Pi's last line appended: `live` (registrations still live after
	 * this line), then `open` (markers not settled). Both come last in every line, as the gate matches the last
	 * line's end (`"live":0,"open":0}`).
	 */
	#line(message: object): string {
		return `${JSON.stringify({ ...message, live: this.#entries.size, open: this.#open.size })}\n`;
	}

	#send(message: object): void {
		const stdin = this.#start()?.stdin;
		if (stdin?.writable) stdin.write(this.#line(message));
	}

	/**
	 * Reports that a watchdog failed, once per lifeline for each kind: the first one that could not start (`start`),
	 * and the restarts used up (`limit`), which names what runs unprotected now.
	 */
	#fail(kind: "start" | "limit", reason: string): void {
		if (this.#reported.has(kind)) return;
		this.#reported.add(kind);
		const running = this.#entries.size;
		const consequence =
			kind === "start"
				? "children may outlive Pi until one starts (it is started again with the next child)"
				: running > 0
					? `what runs now (${running} registration${running === 1 ? "" : "s"}) is not killed if Pi dies, and no child starts any more: restart Pi`
					: "no child starts any more: restart Pi";
		this.#warn(`pi-native-subagents: parent-death watchdog (${this.#describe()}) ${reason}; ${consequence}`);
	}

	/** The watchdog's command as a message names it: the default one by its two stages, not the gate's script. */
	#describe(): string {
		return this.#command[2] === WATCHDOG_GATE
			? `sh gate, then ${process.execPath} ${WATCHDOG}`
			: this.#command.join(" ");
	}

	/**
	 * Starts the watchdog if none runs (a failed or exited one is started again on the next call, at most
	 * MAX_RESTARTS times): detached (own session, so terminal signals miss it), unreferenced, told the marker
	 * and every live registration. `undefined` once no more may be started.
	 */
	#start(): ChildProcess | undefined {
		if (this.#watchdog) return this.#watchdog;
		if (this.#started > MAX_RESTARTS) {
			this.#fail("limit", `was started ${this.#started} times and is not started again`);
			return undefined;
		}
		this.#started += 1;
		const [file, ...args] = this.#command;
		const watchdog = spawn(file, args, {
			detached: true,
			cwd: "/",
			env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
			stdio: ["pipe", "ignore", "ignore"],
		});
		// `tmpdir` and `pid` name this process's run and tmux directories (runs/leftovers.ts), which the watchdog
		// removes; the live registrations and the open markers' count are replayed (`#line`).
		const lines = [
			this.#line({ marker: this.#markerPrefix(), tmpdir: resolve(tmpdir()), pid: process.pid }),
			...[...this.#entries].map(([id, entry]) => this.#line({ add: id, ...entry })),
		];
		// Could not start (EAGAIN, ENOENT, …; no "exit" follows): the next call starts one again.
		watchdog.on("error", (error) => {
			if (this.#watchdog === watchdog) this.#watchdog = undefined;
			this.#fail("start", `could not start: ${error.message}`);
		});
		// Killed by someone else: a new one starts at once while anything is registered (registrations sent
		// to the dying one are replayed), else with the next registration or marker.
		watchdog.once("exit", () => {
			// Its pipe goes too: nothing may hold the read end of a watchdog that is gone.
			watchdog.stdin?.destroy();
			if (this.#watchdog !== watchdog) return;
			this.#watchdog = undefined;
			if (this.#entries.size > 0) this.#start();
		});
		watchdog.stdin?.on("error", () => {});
		watchdog.unref();
		// The pipe must not keep Pi's event loop alive either; it closes when Pi exits.
		(watchdog.stdin as unknown as { _handle?: { unref?: () => void } })._handle?.unref?.();
		this.#watchdog = watchdog;
		watchdog.stdin?.write(lines.join(""));
		return watchdog;
	}
}

let reporter: ((message: string) => void) | undefined;

/**
 * Sends the warnings of every lifeline made without a `warn` of its own (the default {@link lifeline} included)
 * to `report` from now on: the extension's wiring passes the session's UI notice, else stderr (src/index.ts).
 * Until then they are Node process warnings, which Pi's CLI silences.
 */
export function reportLifelineWarnings(report: (message: string) => void): void {
	reporter = report;
}

/** The lifeline every child of this Pi process uses unless a caller passes another (tests, bench). */
export const lifeline: Lifeline = new WatchdogLifeline();

/** A lifeline that registers nothing: children are not tied to Pi's life. For benchmarks only. */
export const noLifeline: Lifeline = {
	nextMarker: () => ({ name: RUN_MARKER, value: "unregistered", settle: () => {} }),
	register: () => () => {},
};
