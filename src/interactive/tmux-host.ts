/**
 * A tmux server on a private socket, owned by one parent Pi session (docs/interactive.md;
 * SECURITY.md "tmux socket (interactive runs)"). tmux is driven through its CLI with execa argv arrays, never a shell string.
 * The socket lives in a fresh directory of mode 0700 under the system temp dir; the server is started
 * with this package's own config file (never the user's `~/.tmux.conf`) and removed by {@link TmuxHost.close}.
 * However the parent dies, the parent-death lifeline runs `tmux -S <socket> kill-server` and kills each live
 * pane's process group (SECURITY.md "Processes").
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { TMUX_CLOSE_GRACE_MS } from "../core/graces.ts";
import { lifeline as defaultLifeline, type Lifeline, type RunMarker } from "../process/lifeline.ts";
import { readStat, stopAndKillFamily } from "../process/proc-table.mjs";
import { makeOwnedTempDir, TMUX_DIR_PREFIX } from "../runs/leftovers.ts";
import { serverEnvironment, withoutPasteMarkers } from "./pane-boundary.ts";
import { groupAlive, nudgeReaping, reap, signalGroup } from "./pane-reap.ts";
import { PANE_STATE_FORMAT, type PaneState, parsePaneState } from "./pane-state.ts";

export { findTmux } from "./find-tmux.ts";
export type { PaneState } from "./pane-state.ts";

/** The server options: panes stay after their process exits (so an exit status can be read). */
const SERVER_CONFIG = [
	"set-option -g remain-on-exit on",
	"set-option -g history-limit 10000",
	"set-option -s extended-keys on",
	"set-option -s escape-time 10",
	"",
].join("\n");

/** The size and program of a new session. `command[0]` is the executable; nothing goes through a shell. */
export interface NewSession {
	name: string;
	cwd: string;
	command: string[];
	/** Columns and rows of the pane. */
	width: number;
	height: number;
	/**
	 * The run marker in the pane's environment ({@link TmuxHost.nextMarker}): once the pane's process is gone or
	 * killed, every process carrying it is killed too and the marker is settled (SECURITY.md "Processes").
	 */
	marker?: RunMarker;
}

/** A live pane's cleanup: its process group, when that process started, its marker, and its lifeline entry. */
interface PaneRegistration {
	pgid: number;
	/** The pane process's start time (clock ticks since boot; 0 unknown): nothing older carries its marker. */
	bornFrom: number;
	marker: RunMarker | undefined;
	unregister: () => void;
}

/** One private tmux server. Create it lazily (nothing runs until the first session). */
export class TmuxHost {
	/** The private directory (mode 0700) holding the socket and the config file. */
	readonly dir: string;
	/** The server's socket, `<dir>/sock`. */
	readonly socket: string;
	private readonly config: string;
	private readonly tmux: string;
	private readonly lifeline: Lifeline;
	/** Forgets the server's kill-server registration; set once the first session started it. */
	private unregisterServer: (() => void) | undefined;
	/** Session name → its live pane's cleanup. */
	private readonly paneRegistrations = new Map<string, PaneRegistration>();
	private closed = false;

	/**
	 * @param tmux the tmux executable (see {@link findTmux}).
	 * @param parentDir where the private directory is made; default the system temp dir.
	 * @param lifeline where the server and each pane are registered for cleanup on the parent's death.
	 */
	constructor(tmux: string, parentDir = tmpdir(), lifeline: Lifeline = defaultLifeline) {
		this.tmux = tmux;
		this.lifeline = lifeline;
		// mkdtemp creates the directory with mode 0700; its name carries this pid (swept once it is dead).
		this.dir = makeOwnedTempDir(TMUX_DIR_PREFIX, parentDir, { "tmux.conf": SERVER_CONFIG });
		this.socket = join(this.dir, "sock");
		this.config = join(this.dir, "tmux.conf");
	}

	/** A run marker for a pane's environment: the lifeline also finds its processes that left the group. */
	nextMarker(): RunMarker {
		return this.lifeline.nextMarker();
	}

	/** `tmux -S <socket> attach -t <name>`: the one-line command a user runs to watch or take over. */
	attachCommand(name: string): string {
		return `${this.tmux} -S ${this.socket} attach -t ${name}`;
	}

	/**
	 * Starts a detached session whose pane's own process is `spec.command` (no shell in between).
	 * @throws Error when the host is closed or tmux refuses (its stderr is in the message).
	 */
	async newSession(spec: NewSession): Promise<PaneState> {
		if (this.closed) throw new Error("the tmux host is closed (the parent session is shutting down)");
		// Registered before the server can exist: a parent dying right after it started still ends it.
		this.unregisterServer ??= this.lifeline.register({ command: [this.tmux, "-S", this.socket, "kill-server"] });
		await this.runStartingServer([
			"new-session",
			"-d",
			"-s",
			spec.name,
			"-x",
			String(spec.width),
			"-y",
			String(spec.height),
			"-c",
			spec.cwd,
			"--",
			...spec.command,
		]);
		const pane = await this.pane(spec.name);
		if (!pane) throw new Error(`tmux session ${spec.name} vanished right after it was created`);
		// The pane's process leads its own process group (tmux starts it in a new session).
		// Also a pane already dead: tmux read the end of its terminal, but its process may still run.
		this.paneRegistrations.set(spec.name, {
			pgid: pane.pid,
			bornFrom: Number(readStat(pane.pid)?.startTime ?? 0),
			marker: spec.marker,
			unregister: this.lifeline.register({ pgid: pane.pid }),
		});
		return pane;
	}

	/** The state of the session's pane, or `undefined` when the session does not exist (any more). */
	async pane(name: string): Promise<PaneState | undefined> {
		// `#{pid}` (the server's) last, for the nudge below.
		const result = await this.run(["list-panes", "-t", `=${name}`, "-F", `${PANE_STATE_FORMAT}\t#{pid}`], true);
		if (result === undefined) {
			// The session is gone (`tmux kill-session`, say). A pane process that ignored the hang-up still runs, and
			// stays registered (the lifeline kills it with Pi; a resume of it is refused) until its group is gone.
			const registration = this.paneRegistrations.get(name);
			if (!registration || !groupAlive(registration.pgid)) this.forgetPane(name);
			return undefined;
		}
		const line = result.split("\n")[0];
		const pane = parsePaneState(line.slice(0, line.lastIndexOf("\t")));
		// tmux 3.3a can miss the SIGCHLD of a pane's exit and then leaves the process a zombie, and the pane
		// without its exit status, until another child of the server exits. A SIGCHLD sent to the server makes it
		// reap (waitpid with WNOHANG: harmless when nothing has exited), so the next look finds the status.
		if (pane.dead && !pane.reaped) nudgeReaping(Number(line.slice(line.lastIndexOf("\t") + 1)));
		// Reaped: the pane's process has exited, and what carries its marker goes (forgetPane). Its group id may be
		// reused from now on, so the lifeline forgets it. A dead pane not reaped yet may still run (see pane-state.ts).
		if (pane.dead && pane.reaped) this.forgetPane(name);
		return pane;
	}

	/** Names of the sessions on the server, oldest first; [] when no server runs. */
	async sessions(): Promise<string[]> {
		const out = await this.run(["list-sessions", "-F", "#{session_created}\t#{session_name}"], true);
		if (!out) return [];
		return out
			.split("\n")
			.filter((line) => line.includes("\t"))
			.map((line) => line.split("\t") as [string, string])
			.sort((a, b) => Number(a[0]) - Number(b[0]))
			.map(([, name]) => name);
	}

	/** The argv that attaches a terminal to session `name` (the executable first). */
	attachArgv(name: string): string[] {
		return [this.tmux, "-S", this.socket, "attach", "-t", `=${name}`];
	}

	/**
	 * The visible screen of the session's pane as plain text (no escape sequences); "" when it is gone.
	 * @param historyLines also that many lines of scrollback above the screen (`capture-pane -S -N`): when a
	 *   pane's process exits, tmux scrolls its last output off the screen to show `Pane is dead`.
	 */
	async capture(name: string, historyLines = 0): Promise<string> {
		const history = historyLines > 0 ? ["-S", `-${historyLines}`] : [];
		return (await this.run(["capture-pane", "-p", ...history, "-t", `=${name}:`], true)) ?? "";
	}

	/**
	 * True when the pane's program reads single keystrokes: its terminal is out of canonical (line) mode,
	 * which a TUI sets itself when its input loop starts. False while it starts, and when the pane is gone.
	 */
	async readsKeystrokes(name: string): Promise<boolean> {
		const tty = await this.run(["display-message", "-p", "-t", `=${name}:`, "#{pane_tty}"], true);
		if (!tty?.trim()) return false;
		const modes = await execa("stty", ["-F", tty.trim(), "-a"], { reject: false, stdin: "ignore" });
		return modes.exitCode === 0 && /(^|\s)-icanon(\s|;|$)/.test(String(modes.stdout));
	}

	/**
	 * Types `text` into the pane as one bracketed paste, then presses Enter when `enter` is true. The paste
	 * markers inside `text` are removed first ({@link withoutPasteMarkers}), so the text never leaves the paste.
	 * @throws Error when the session is gone or its process has exited: keystrokes never reach a dead pane.
	 */
	async sendText(name: string, text: string, enter = true): Promise<void> {
		const pane = await this.pane(name);
		if (!pane || pane.dead) {
			throw new Error(`the child in tmux session ${name} has exited; nothing was sent`);
		}
		const buffer = `send-${name}`;
		await this.run(["load-buffer", "-b", buffer, "-"], false, withoutPasteMarkers(text));
		await this.run(["paste-buffer", "-p", "-d", "-b", buffer, "-t", `=${name}:`]);
		if (enter) await this.run(["send-keys", "-t", `=${name}:`, "Enter"]);
	}

	/**
	 * Kills the session and everything in its pane: the pane's process group gets SIGTERM, tmux then closes
	 * the pane (SIGHUP), and a process group still alive after `graceMs` gets SIGKILL. Resolves when done.
	 */
	async killSession(name: string, graceMs: number): Promise<void> {
		const pane = await this.pane(name);
		if (pane && !pane.dead) signalGroup(pane.pid, "SIGTERM");
		await this.run(["kill-session", "-t", `=${name}`], true);
		if (pane && !pane.dead) await reap(pane.pid, graceMs);
		this.forgetPane(name);
	}

	/** Kills the server (every session in it) and removes the private directory. Idempotent. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.run(["kill-server"], true);
		rmSync(this.dir, { recursive: true, force: true });
		// kill-server hangs up on each pane; a harness that ignores SIGHUP is killed with its group.
		await Promise.all([...this.paneRegistrations.values()].map(({ pgid }) => reap(pgid, TMUX_CLOSE_GRACE_MS)));
		for (const name of [...this.paneRegistrations.keys()]) this.forgetPane(name);
		this.unregisterServer?.();
		this.unregisterServer = undefined;
	}

	/**
	 * The pane's process has exited or was killed: every process still carrying its run marker (a `setsid`
	 * grandchild, say) is killed, as a headless child's are at its leader's exit, before the marker is settled and
	 * the lifeline forgets the pane.
	 */
	private forgetPane(name: string): void {
		const registration = this.paneRegistrations.get(name);
		if (!registration) return;
		this.paneRegistrations.delete(name);
		const { marker, pgid, bornFrom } = registration;
		if (marker) {
			stopAndKillFamily(`${marker.name}=${marker.value}`, [pgid], undefined, { bornFrom });
			marker.settle();
		}
		registration.unregister();
	}

	/**
	 * Runs a command that may start the server. A server whose last session was just killed exits on its
	 * own (tmux's `exit-empty`), and a client reaching it meanwhile fails with "server exited unexpectedly";
	 * the command is then tried again against a fresh server (at most 3 times).
	 */
	private async runStartingServer(args: string[]): Promise<string | undefined> {
		for (let attempt = 1; ; attempt++) {
			try {
				return await this.run(args);
			} catch (error) {
				if (attempt >= 3 || !/server exited unexpectedly|lost server/.test((error as Error).message)) throw error;
			}
		}
	}

	/**
	 * Runs one tmux command against the private socket and returns its stdout.
	 * @param tolerant resolve with `undefined` instead of throwing when tmux fails (no server, no session).
	 */
	private async run(args: string[], tolerant = false, input?: string): Promise<string | undefined> {
		const result = await execa(this.tmux, ["-S", this.socket, "-f", this.config, ...args], {
			reject: false,
			input,
			stdin: input === undefined ? "ignore" : undefined,
			// The server inherits this environment (see serverEnvironment); panes get theirs from the pane launcher.
			env: serverEnvironment(),
			extendEnv: false,
		});
		if (result.exitCode === 0) return result.stdout;
		if (tolerant) return undefined;
		throw new Error(
			`tmux ${args[0]} failed: ${String(result.stderr || result.stdout).trim() || `exit ${result.exitCode}`}`,
		);
	}
}
