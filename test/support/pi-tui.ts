/**
 * Real interactive Pi parents in a terminal: tmux on a private socket, each pi loading this package by its
 * directory against the fake model (test/e2e/tui.test.ts, test/e2e/fleet-tui.test.ts). Screens are read
 * with `capture-pane`; keys are typed with `send-keys`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type FakeModelServer, startFakeModelServer } from "./fake-model/index.ts";
import { createPiHome, type PiHome } from "./pi-home.ts";
import { isRunning, processTree, waitUntil } from "./processes.ts";
import { removeTree } from "./teardown.ts";
import { makeTempDir } from "./temp-dir.ts";

export const ROOT = resolve(import.meta.dirname, "../..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const PI_CLI = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");

export class PiTuiHost {
	readonly dir = makeTempDir("pi-tui-");
	readonly socket = join(this.dir, "tmux.sock");
	readonly #names: string[] = [];

	tmux(...args: string[]): string {
		return execFileSync("tmux", ["-S", this.socket, ...args], { encoding: "utf8" });
	}

	/** The screen of tmux session `name`. */
	screen(name = "pi"): string {
		return this.tmux("capture-pane", "-p", "-t", pane(name));
	}

	/** The screen with its scrollback. */
	scrollback(name = "pi"): string {
		return this.tmux("capture-pane", "-p", "-S", "-", "-t", pane(name));
	}

	/** Starts an interactive pi with `piHome` in tmux session `name` (150 × 50). */
	startPi(name: string, piHome: PiHome): void {
		const work = join(piHome.dir, "work");
		mkdirSync(work);
		const env = { ...piHome.env, PATH: process.env.PATH ?? "", TERM: "xterm-256color" };
		const exports = Object.entries(env).map(([key, value]) => `export ${key}='${value.replaceAll("'", "'\\''")}'`);
		const script = join(this.dir, `${name}.sh`);
		writeFileSync(
			script,
			["#!/bin/sh", `cd '${work}'`, ...exports, `exec '${NODE}' '${PI_CLI}' --no-session -e '${ROOT}'`, ""].join("\n"),
			{ mode: 0o755 },
		);
		this.tmux("new-session", "-d", "-x", "150", "-y", "50", "-s", name, script);
		this.#names.push(name);
	}

	/** Types `text` into the pi of `target` and submits it. */
	submit(target: string, text: string): void {
		this.tmux("send-keys", "-t", pane(target), "-l", text);
		this.tmux("send-keys", "-t", pane(target), "Enter");
	}

	/** Presses tmux keys (`Enter`, `Escape`, `Down`, `y`…) in `target`, one at a time. */
	keys(target: string, ...keys: string[]): void {
		for (const key of keys) this.tmux("send-keys", "-t", pane(target), key);
	}

	/** Waits for `check` on the screen of `target`; a timeout shows the screen. */
	async waitForScreen(target: string, check: (text: string) => boolean, what: string): Promise<string> {
		await waitUntil(() => check(this.screen(target)), what, 45_000).catch((error: Error) => {
			throw new Error(`${error.message}; the screen:\n${this.screen(target)}`);
		});
		return this.screen(target);
	}

	/** Waits until the scrollback of `target` contains `text` (or passes `text` as a check); a timeout shows the screen. */
	async waitForScrollback(
		target: string,
		text: string | ((scrollback: string) => boolean),
		what: string,
	): Promise<void> {
		const check = typeof text === "string" ? (scrollback: string) => scrollback.includes(text) : text;
		await waitUntil(() => check(this.scrollback(target)), what, 45_000).catch((error: Error) => {
			throw new Error(`${error.message}; the screen:\n${this.screen(target)}`);
		});
	}

	/**
	 * Kills the tmux server and waits until every pane's pi and the processes under it are gone (Pi writes
	 * its compile cache into the home while it exits), then removes the directory.
	 */
	async close(): Promise<void> {
		const pids = this.#names.map((name) => this.#panePid(name));
		const tree = pids.flatMap((pid) => (pid === undefined ? [] : processTree(pid)));
		try {
			this.tmux("kill-server");
		} catch {
			// Already gone.
		}
		await waitUntil(() => tree.every((target) => !isRunning(target)), "the tmux-run pi and its descendants to exit");
		await removeTree(this.dir);
	}

	/** The pid of a pane's process (pi: the pane's script execs it), or `undefined` when the pane is gone. */
	#panePid(target: string): number | undefined {
		try {
			const pid = Number(this.tmux("display-message", "-p", "-t", pane(target), "#{pane_pid}").trim());
			return Number.isInteger(pid) && pid > 0 ? pid : undefined;
		} catch {
			return undefined;
		}
	}
}

/** One interactive pi in tmux session "pi", with a home of its own, against a fake model server. */
export interface TuiPi {
	server: FakeModelServer;
	home: PiHome;
	host: PiTuiHost;
	/** Closes the tmux host, then removes the home (once no process uses it), then stops the server. */
	close(): Promise<void>;
}

/** Starts a fake model server (the `rules` fallback: `TOOL:<name>:<args>` prompts), a home and its pi, up to Pi's start-up screen. */
export async function startTuiPi(): Promise<TuiPi> {
	const server = await startFakeModelServer({ fallback: "rules" });
	const home = createPiHome(server);
	const host = new PiTuiHost();
	const tui: TuiPi = {
		server,
		home,
		host,
		async close() {
			try {
				await host.close();
				await home.cleanup();
			} finally {
				await server.close();
			}
		},
	};
	host.startPi("pi", home);
	await host.waitForScreen("pi", (text) => text.includes("[Extensions]"), "Pi's start-up");
	return tui;
}

/** The exact tmux target of session `name` (a bare name may match another session's window). */
function pane(name: string): string {
	return `=${name}:`;
}

/** Job ids the parent model quoted from the tool's answer, in the order they started. */
export function startedJobs(text: string): string[] {
	return [...new Set([...text.matchAll(/Started background job (\w+)/g)].map((m) => m[1] ?? ""))];
}
