/**
 * Warm children (docs/settings.md §Warm pi children): after a run, one idle child of exactly its launch is
 * started and kept for the next run of that launch, which adopts it instead of spawning (the process core's
 * `StandbyProcess`). Loaded only when the setting is on (src/tools/warm-holder.ts).
 *
 * A launch is its command (file, argv, cwd, the complete environment), its run files' contents (each run
 * has its own run directory, so paths inside it are compared as `<run dir>`), the kill grace the process
 * core ends it with, and the state of what the harness reads when it starts (`startupInputs`: settings,
 * extensions, skills, context files; src/runs/startup-fingerprint.ts) — taken when the warm child is spawned,
 * so one that read a file since changed or removed is never taken. Only a new session of a harness with a `warmProbe` is warmed: a resume or a fork reads
 * a session file at start, which may change before the next call.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { HarnessAdapter, HarnessCommand } from "../core/harness-adapter.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import { timer as clampedTimer } from "../process/deadlines.ts";
import type { Lifeline } from "../process/lifeline.ts";
import { type AdoptedProcess, type ReadyProbe, StandbyProcess } from "../process/standby.ts";
import type { ChildCommand } from "../process/types.ts";
import { makeOwnedTempDir, RUN_DIR_PREFIX } from "./leftovers.ts";
import { startupFingerprint } from "./startup-fingerprint.ts";

/** Setting `warm_children` without its switch: how long an idle child waits (ms) and how many may wait at once. */
export interface WarmSettings {
	idleTimeoutMs: number;
	max: number;
}

/** What stands for a run directory in a launch's key and in a warm child's copy of the command. */
const RUN_DIR = "\u0000run-dir\u0000";

/** One run's launch, as `WarmChildren.launchOf` captured it before the run started. */
export interface WarmLaunch {
	/** The launch as it is now: `launchKey` of `base` and the start-up inputs' fingerprint. */
	key: string;
	/** sha256 of the command, run files and kill grace. */
	base: string;
	/** What the harness reads when it starts (`HarnessAdapter.startupInputs`). */
	inputs: string[];
	/** The command with every run-directory path as `RUN_DIR`. */
	command: ChildCommand;
	/** The run files' contents when the run started (a child may remove one it read, e.g. the schema file). */
	files: Record<string, string>;
	probe: ReadyProbe;
	killGraceMs: number;
}

/** A warm child a run adopted: run it with `adopted`; `args` is its argv; `release()` removes its run files. */
export interface TakenChild {
	adopted: AdoptedProcess;
	args: string[];
	release(): void;
}

/** What a run uses of the pool (runs/run-child.ts). */
export type WarmPool = Pick<WarmChildren, "launchOf" | "take" | "prepare">;

interface IdleChild {
	key: string;
	standby: StandbyProcess;
	dir: string;
	args: string[];
	timer: NodeJS.Timeout;
	taken: boolean;
	ending?: Promise<void>;
}

/**
 * The key of a launch whose command is `base`, with its start-up inputs as they are now; `undefined` when
 * they cannot be fingerprinted (too many entries, a directory that cannot be listed): not warmed.
 */
function launchKey(base: string, inputs: readonly string[]): string | undefined {
	const fingerprint = startupFingerprint(inputs);
	return fingerprint === undefined ? undefined : createHash("sha256").update(base).update(fingerprint).digest("hex");
}

/**
 * Whether process `pid` still works in `cwd`: a process keeps the directory it started in, so one removed
 * (and perhaps made again at the same path) while it waited is not `cwd` any more (Linux `/proc/<pid>/cwd`;
 * false when it cannot be read).
 */
function worksIn(pid: number | undefined, cwd: string): boolean {
	try {
		return readlinkSync(`/proc/${pid}/cwd`) === realpathSync(cwd);
	} catch {
		return false;
	}
}

/** The warm children of one extension load. */
export class WarmChildren {
	#settings: WarmSettings;
	readonly #lifeline: Lifeline | undefined;
	/** Idle children by launch key, oldest first. */
	readonly #idle = new Map<string, IdleChild>();
	/** Every child started and not yet ended (its files removed) or taken, for `close`. */
	readonly #owned = new Set<IdleChild>();
	#closed = false;

	/** @param lifeline where warm children are registered (default the process core's). */
	constructor(settings: WarmSettings, lifeline?: Lifeline) {
		this.#settings = settings;
		this.#lifeline = lifeline;
	}

	/**
	 * Applies the settings of the latest call: a lower `max` ends the oldest idle children over it now (an idle
	 * child keeps the timeout it was started with).
	 */
	configure(settings: WarmSettings): void {
		this.#settings = settings;
		this.#evict(settings.max);
	}

	/**
	 * The launch of a run about to start with `command` (built in `runDir`), or `undefined` when it is never
	 * warmed: its adapter has no `warmProbe` or `startupInputs`, the command takes no conversation, the spec
	 * resumes or forks a session, or its start-up inputs cannot be fingerprinted (`MAX_FINGERPRINT_ENTRIES`).
	 */
	launchOf(
		spec: LaunchSpec,
		adapter: HarnessAdapter,
		harnessCommand: HarnessCommand,
		command: ChildCommand,
		runDir: string,
	): WarmLaunch | undefined {
		const probe = adapter.warmProbe;
		const inputs = adapter.startupInputs?.(spec, command.env);
		if (!probe || !inputs || !harnessCommand.conversation || spec.session.kind !== "new" || spec.forkSessionFile)
			return undefined;
		const swap = (text: string) => text.replaceAll(runDir, RUN_DIR);
		const files = Object.fromEntries(
			readdirSync(runDir)
				.sort()
				.map((name) => [name, readFileSync(join(runDir, name), "utf8")]),
		);
		const env = Object.fromEntries(Object.entries(command.env).map(([name, value]) => [name, swap(value)]));
		const template: ChildCommand = { file: command.file, args: command.args.map(swap), cwd: command.cwd, env };
		const killGraceMs = spec.limits.killGraceMs;
		const base = createHash("sha256")
			.update(
				JSON.stringify([template.file, template.args, template.cwd, Object.entries(env).sort(), files, killGraceMs]),
			)
			.digest("hex");
		const key = launchKey(base, inputs);
		return key === undefined ? undefined : { key, base, inputs, command: template, files, probe, killGraceMs };
	}

	/**
	 * The idle child of `launch`, now the caller's; `undefined` when there is none, or it died while idle or
	 * no longer works in the launch's cwd (removed while it waited), when it is ended.
	 */
	take(launch: WarmLaunch): TakenChild | undefined {
		const idle = this.#idle.get(launch.key);
		if (!idle) return undefined;
		this.#forget(idle);
		const adopted = worksIn(idle.standby.pid, launch.command.cwd) ? idle.standby.adopt() : undefined;
		if (!adopted) {
			void this.#end(idle);
			return undefined;
		}
		idle.taken = true;
		this.#owned.delete(idle);
		return { adopted, args: idle.args, release: () => rmSync(idle.dir, { recursive: true, force: true }) };
	}

	/**
	 * Starts an idle child of `launch` unless one waits already, ending the oldest idle child when `max` wait.
	 * It gets its own copy of the run files; it ends after `idleTimeoutMs` unused (an unref'd timer). Never
	 * throws: when its run directory cannot be made, no child is started (the next run starts cold).
	 */
	prepare(launch: WarmLaunch): void {
		// The start-up inputs as the child about to start will read them (they may have changed since the run began).
		const key = launchKey(launch.base, launch.inputs);
		if (this.#closed || key === undefined || this.#idle.has(key)) return;
		this.#evict(this.#settings.max - 1);
		let dir: string;
		try {
			dir = makeOwnedTempDir(RUN_DIR_PREFIX, undefined, launch.files);
		} catch {
			return;
		}
		const swap = (text: string) => text.replaceAll(RUN_DIR, dir);
		const { command } = launch;
		const args = command.args.map(swap);
		const env = Object.fromEntries(Object.entries(command.env).map(([name, value]) => [name, swap(value)]));
		const standby = new StandbyProcess({ ...command, args, env }, launch.probe, launch.killGraceMs, this.#lifeline);
		// Clamped: a timeout past setTimeout's range would fire at once.
		const timer = clampedTimer(this.#settings.idleTimeoutMs, () => void this.#end(idle));
		timer.unref();
		const idle: IdleChild = { key, standby, dir, args, timer, taken: false };
		this.#idle.set(key, idle);
		this.#owned.add(idle);
		// Died while idle (crashed, killed): discarded, its files removed.
		void standby.gone.then(() => {
			if (!idle.taken) void this.#end(idle);
		});
	}

	/** The idle children, oldest first: pid and whether each has answered its probe (tests, the bench). */
	idleChildren(): Array<{ pid: number | undefined; ready: Promise<boolean> }> {
		return [...this.#idle.values()].map((idle) => ({ pid: idle.standby.pid, ready: idle.standby.ready }));
	}

	/** Ends every idle child and removes its files; resolves once each is gone. No child starts afterwards. */
	async close(): Promise<void> {
		this.#closed = true;
		await Promise.all([...this.#owned].map((idle) => this.#end(idle)));
	}

	/** Ends the oldest idle children until at most `room` wait. */
	#evict(room: number): void {
		for (const oldest of this.#idle.values()) {
			if (this.#idle.size <= room) break;
			void this.#end(oldest);
		}
	}

	#forget(idle: IdleChild): void {
		clearTimeout(idle.timer);
		if (this.#idle.get(idle.key) === idle) this.#idle.delete(idle.key);
	}

	/** Ends `idle` (unless a run took it) and removes its files once it is gone; one ending per child. */
	#end(idle: IdleChild): Promise<void> {
		this.#forget(idle);
		if (idle.taken) return Promise.resolve();
		idle.ending ??= idle.standby.end().then(() => {
			rmSync(idle.dir, { recursive: true, force: true });
			this.#owned.delete(idle);
		});
		return idle.ending;
	}
}
