import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chownSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { reportLifelineWarnings, WATCHDOG_GATE, WatchdogLifeline } from "../../src/process/lifeline.ts";
import { RUN_DIR_PREFIX, TMUX_DIR_PREFIX } from "../../src/runs/leftovers.ts";
import { givenUpLifeline } from "../support/lifelines.ts";
import {
	freezeAndKill,
	MAIN_THREAD_EXITS_PY,
	startHopper,
	waitUntil,
	waitUntilNoneWithEnv,
} from "../support/processes.ts";
import { makeTempDir } from "../support/temp-dir.ts";
import { isAlive, run, waitUntilGone } from "./run-fixture.ts";

const WATCHDOG = fileURLToPath(new URL("../../src/process/watchdog.mjs", import.meta.url));
const started: ChildProcess[] = [];
/** Pids a failed test may leave behind (each leads its own group); killed after each test. */
const strays: number[] = [];
afterEach(() => {
	for (const child of started.splice(0)) {
		if (child.pid !== undefined && isAlive(child.pid)) process.kill(child.pid, "SIGKILL");
	}
	for (const pid of strays.splice(0)) if (isAlive(pid)) process.kill(-pid, "SIGKILL");
});

/** A sleeper leading its own group, with `env` (e.g. a run marker). */
function sleeper(env: Record<string, string> = {}): number {
	const child = spawn("sleep", ["600"], {
		detached: true,
		stdio: "ignore",
		env: { PATH: process.env.PATH ?? "", ...env },
	});
	started.push(child);
	return child.pid as number;
}

/** SIGKILLs the recording watchdog whose pid `pidFile` holds, if it started, and waits until it is gone. */
async function killRecorder(pidFile: string): Promise<void> {
	const recorder = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : 0;
	if (recorder <= 0) return;
	if (isAlive(recorder)) process.kill(recorder, "SIGKILL");
	await waitUntilGone(recorder);
}

function watchdog(): ChildProcess {
	const child = spawn(process.execPath, [WATCHDOG], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
	started.push(child);
	return child;
}

const line = (message: object) => `${JSON.stringify(message)}\n`;

describe("parent-death watchdog", () => {
	it("kills registered groups and marked processes, runs registered commands, spares removed entries when its pipe closes", async () => {
		const dir = makeTempDir("lifeline-");
		try {
			const registered = sleeper();
			const removed = sleeper();
			const marked = sleeper({ PI_NATIVE_SUBAGENTS_RUN: "test-token/7" });
			const otherParent = sleeper({ PI_NATIVE_SUBAGENTS_RUN: "other-token/7" });
			const touched = join(dir, "command-ran");
			const dog = watchdog();
			dog.stdin?.write(line({ marker: "PI_NATIVE_SUBAGENTS_RUN=test-token/" }));
			dog.stdin?.write(line({ add: 1, pgid: registered }));
			dog.stdin?.write(line({ add: 2, pgid: removed }));
			dog.stdin?.write(line({ add: 3, command: ["touch", touched] }));
			dog.stdin?.write(line({ remove: 2 }));
			const exited = new Promise((resolve) => dog.once("exit", resolve));
			dog.stdin?.end();
			await exited;
			await waitUntilGone(registered);
			await waitUntilGone(marked);
			expect(existsSync(touched)).toBe(true);
			expect(isAlive(removed)).toBe(true);
			expect(isAlive(otherParent)).toBe(true);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("kills a marked setsid process that keeps re-forking itself when its pipe closes", async () => {
		// Every 20 ms it forks its successor and exits, so one look at /proc names only dead generations.
		const tag = `NATIVE_SUBAGENTS_HOPPER=${randomUUID()}`;
		const [name, value] = tag.split("=");
		try {
			await startHopper(0.02, { PI_NATIVE_SUBAGENTS_RUN: "test-token/8", [name]: value });
			const dog = watchdog();
			dog.stdin?.write(line({ marker: "PI_NATIVE_SUBAGENTS_RUN=test-token/" }));
			const exited = new Promise((resolve) => dog.once("exit", resolve));
			dog.stdin?.end();
			await exited;
			await waitUntilNoneWithEnv(tag, "ten looks at /proc in a row without the hopper");
		} finally {
			freezeAndKill(tag);
		}
	});
});

describe("the watchdog's shell gate", () => {
	const MARKER = "PI_NATIVE_SUBAGENTS_RUN=gate-test/";
	/** Runs the gate with a second stage that records what it was handed; resolves when the gate has exited. */
	async function gate(lines: object[], env?: NodeJS.ProcessEnv): Promise<string | undefined> {
		const dir = makeTempDir("lifeline-gate-");
		try {
			const told = join(dir, "told");
			const stage = join(dir, "stage.sh");
			writeFileSync(stage, `/bin/cat > '${told}'\n`);
			const child = spawn("/bin/sh", ["-c", WATCHDOG_GATE, "sh", "/bin/sh", stage, MARKER], {
				detached: true,
				stdio: ["pipe", "ignore", "ignore"],
				env,
			});
			started.push(child);
			const exited = new Promise((resolve) => child.once("close", resolve));
			child.stdin?.end(lines.map(line).join(""));
			await exited;
			return existsSync(told) ? readFileSync(told, "utf8") : undefined;
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}

	it("starts no watchdog when the last line says nothing is registered and a marker is out that no process carries", async () => {
		const told = await gate([
			{ marker: MARKER, live: 0, open: 0 },
			{ marker_out: 1, live: 0, open: 1 },
			{ add: 1, pgid: 99, live: 1, open: 1 },
			{ remove: 1, live: 0, open: 1 },
		]);
		expect(told).toBeUndefined();
	});

	it("hands every line to the watchdog while something is registered", async () => {
		const lines = [
			{ marker: MARKER, live: 0, open: 0 },
			{ add: 1, pgid: 99, live: 1, open: 0 },
		];
		const told = await gate(lines);
		expect(told?.split("\n").filter(Boolean)).toEqual(lines.map((entry) => JSON.stringify(entry)));
	});

	it("hands every line to the watchdog when nothing is registered but a marker is out and a process carries it", async () => {
		sleeper({ PI_NATIVE_SUBAGENTS_RUN: "gate-test/1" });
		const told = await gate([
			{ marker: MARKER, live: 0, open: 0 },
			{ marker_out: 1, live: 0, open: 1 },
		]);
		expect(told).toContain(MARKER);
	});

	it("hands every line to the watchdog when nothing is registered but a marker is out and only a process whose main thread exited carries it", async () => {
		const child = spawn("python3", ["-c", MAIN_THREAD_EXITS_PY], {
			detached: true,
			stdio: "ignore",
			env: { PATH: process.env.PATH ?? "", PI_NATIVE_SUBAGENTS_RUN: "gate-test/1" },
		});
		started.push(child);
		const state = () => readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]?.split(" ")[0];
		await waitUntil(() => state() === "Z", "the main thread to exit");
		expect(isAlive(child.pid as number)).toBe(true);
		const told = await gate([
			{ marker: MARKER, live: 0, open: 0 },
			{ marker_out: 1, live: 0, open: 1 },
		]);
		expect(told).toContain(MARKER);
	});

	it("hands every line to the watchdog when a marker is out and its look for it cannot run (grep not found, or too many threads for one argument list)", async () => {
		const told = await gate(
			[
				{ marker: MARKER, live: 0, open: 0 },
				{ marker_out: 1, live: 0, open: 1 },
			],
			{ PATH: "/nonexistent" },
		);
		expect(told).toContain(MARKER);
	});

	it("hands the watchdog the first line and only the lines since Pi last had nothing registered", async () => {
		const first = { marker: MARKER, tmpdir: "/tmp", pid: 1, live: 0, open: 0 };
		const later = [
			{ marker_out: 2, live: 0, open: 1 },
			{ add: 2, pgid: 98, live: 1, open: 1 },
		];
		const told = await gate([
			first,
			{ marker_out: 1, live: 0, open: 1 },
			{ add: 1, pgid: 99, live: 1, open: 1 },
			{ settled: 1, live: 1, open: 0 },
			{ remove: 1, live: 0, open: 0 },
			...later,
		]);
		// The marker_out line says nothing is registered either: only the registration after it is kept.
		expect(told?.split("\n").filter(Boolean)).toEqual([first, later[1]].map((entry) => JSON.stringify(entry)));
	});

	it("drops the history at every line with nothing registered, a marker left open (an interactive run's) or not: after 2,000 child runs the watchdog is handed two lines", async () => {
		// Run 1 is an interactive one: its marker is never settled, so every later line has one more open.
		const lines: object[] = [
			{ marker: MARKER, live: 0, open: 0 },
			{ marker_out: 1, live: 0, open: 1 },
		];
		for (let run = 2; run <= 2_001; run++) {
			lines.push(
				{ marker_out: run, live: 0, open: 2 },
				{ add: run, pgid: 99, live: 1, open: 2 },
				{ settled: run, live: 1, open: 1 },
				{ remove: run, live: 0, open: 1 },
			);
		}
		lines.push({ marker_out: 2_002, live: 0, open: 2 }, { add: 2_002, pgid: 98, live: 1, open: 2 });
		const told = await gate(lines);
		expect(told?.split("\n").filter(Boolean)).toEqual([lines[0], lines.at(-1)].map((entry) => JSON.stringify(entry)));
	});

	it("starts no watchdog and looks for no marked process when the last line says nothing is registered and every marker is settled", async () => {
		// A settled marker's run was swept (its processes killed), so the gate trusts the line: even a process
		// that carries the marker (here one the sweep never saw) does not start the watchdog.
		sleeper({ PI_NATIVE_SUBAGENTS_RUN: "gate-test/1" });
		const told = await gate([
			{ marker: MARKER, live: 0, open: 0 },
			{ marker_out: 1, live: 0, open: 1 },
			{ add: 1, pgid: 99, live: 1, open: 1 },
			{ settled: 1, live: 1, open: 0 },
			{ remove: 1, live: 0, open: 0 },
		]);
		expect(told).toBeUndefined();
	});

	/**
	 * Runs test/support/lifeline-first-line.ts with `TMPDIR` a private dir: a real lifeline whose gate hands its
	 * lines to a recording stage; resolves, once the gate has exited, with what the stage was handed.
	 */
	async function gateOfLifeline(mode: "nothing registered" | "register") {
		const dir = makeTempDir("lifeline-first-line-");
		try {
			const told = join(dir, "told");
			const stage = join(dir, "stage.sh");
			writeFileSync(stage, `cat > '${told}'\n`);
			const script = fileURLToPath(new URL("../support/lifeline-first-line.ts", import.meta.url));
			const parent = spawn(process.execPath, [script, stage, mode], {
				env: { ...process.env, TMPDIR: dir },
				stdio: ["ignore", "pipe", "inherit"],
			});
			started.push(parent);
			let output = "";
			parent.stdout?.setEncoding("utf8").on("data", (text: string) => {
				output += text;
			});
			const code = await new Promise((resolve) => parent.once("exit", resolve));
			const gatePid = Number(/\{"gate":(\d+)\}/.exec(output)?.[1]);
			expect(code).toBe(0);
			expect(gatePid).toBeGreaterThan(0);
			strays.push(gatePid);
			await waitUntilGone(gatePid);
			return { told: existsSync(told) ? readFileSync(told, "utf8") : undefined, tmp: dir, pid: parent.pid };
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}

	it("starts no watchdog for a lifeline with a marker out that no process carries and nothing registered", async () => {
		const { told } = await gateOfLifeline("nothing registered");
		expect(told).toBeUndefined();
	});

	it("tells the watchdog the parent's marker, temp dir and pid in the first line, its live and open counts last", async () => {
		const { told, tmp, pid } = await gateOfLifeline("register");
		const lines = (told ?? "").split("\n").filter(Boolean);
		// The marker_out line between them said nothing was registered: the gate kept only what followed it.
		expect(lines).toHaveLength(2);
		const first = JSON.parse(lines[0]) as Record<string, unknown>;
		expect(first).toEqual({
			marker: expect.stringMatching(/^PI_NATIVE_SUBAGENTS_RUN=\d+-[0-9a-f]{8}\/$/),
			tmpdir: tmp,
			pid,
			live: 0,
			open: 0,
		});
		expect(Object.keys(first).slice(-2)).toEqual(["live", "open"]);
		expect(JSON.parse(lines[1])).toEqual({ add: 1, pgid: 1_000_001, live: 1, open: 1 });
	});
});

describe("lifeline", () => {
	/**
	 * A lifeline whose watchdog records what it is told (`cat` into a file); resolves, once `count` lines after the
	 * first arrived, with them. The recorder is killed, and gone, before its directory is removed; `act` must leave
	 * nothing registered, or the lifeline would start another.
	 */
	async function toldBy(count: number, act: (lifeline: WatchdogLifeline) => void): Promise<object[]> {
		const dir = makeTempDir("lifeline-told-");
		const pidFile = join(dir, "pid");
		try {
			const received = join(dir, "received");
			const script = `echo $$ > '${pidFile}'; exec cat > '${received}'`;
			act(new WatchdogLifeline({ command: ["sh", "-c", script] }));
			const lines = () => (existsSync(received) ? readFileSync(received, "utf8").split("\n").filter(Boolean) : []);
			await waitUntil(() => lines().length > count, `the watchdog told ${count + 1} lines`);
			return lines()
				.slice(1)
				.map((text) => JSON.parse(text) as object);
		} finally {
			await killRecorder(pidFile);
			rmSync(dir, { recursive: true, force: true });
		}
	}

	it("counts a marker as open from its hand-out until it is settled, once, whatever the registrations do", async () => {
		let last = "";
		const lines = await toldBy(4, (lifeline) => {
			const marker = lifeline.nextMarker();
			const unregister = lifeline.register({ pgid: 1_000_001 });
			marker.settle();
			marker.settle();
			unregister();
			last = marker.value;
		});
		expect(last).toMatch(/\/1\/$/);
		expect(lines).toEqual([
			{ marker_out: 1, live: 0, open: 1 },
			{ add: 1, pgid: 1_000_001, live: 1, open: 1 },
			{ settled: 1, live: 1, open: 0 },
			{ remove: 1, live: 0, open: 0 },
		]);
	});

	it("starts a new watchdog after its watchdog was killed and replays the live registrations to it", async () => {
		const script = fileURLToPath(new URL("../support/lifeline-parent.ts", import.meta.url));
		const parent = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"] });
		started.push(parent);
		parent.stderr?.setEncoding("utf8").on("data", (text: string) => {
			for (const match of text.matchAll(/\{"sleeper":(\d+)\}/g)) strays.push(Number(match[1]));
		});
		const line = await new Promise<string>((resolve, reject) => {
			parent.stdout?.once("data", (data) => resolve(String(data)));
			parent.once("exit", (code) => reject(new Error(`the parent exited with ${code} before reporting`)));
		});
		const { sleepers, watchdogs } = JSON.parse(line) as { sleepers: number[]; watchdogs: number[] };
		expect(watchdogs).toHaveLength(2);
		expect(sleepers.every(isAlive)).toBe(true);
		parent.kill("SIGKILL");
		for (const pid of sleepers) await waitUntilGone(pid);
		await waitUntilGone(watchdogs[1]);
	});

	it("kills a child of a parent SIGKILLed between the child's spawn and its registration", async () => {
		const script = fileURLToPath(new URL("../support/lifeline-kill-at-spawn.ts", import.meta.url));
		const parent = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
		started.push(parent);
		let output = "";
		parent.stdout?.setEncoding("utf8").on("data", (text: string) => {
			output += text;
		});
		const exit = await new Promise<NodeJS.Signals | null>((resolve) =>
			parent.once("exit", (_, signal) => resolve(signal)),
		);
		const sleeper = Number(/\{"sleeper":(\d+)\}/.exec(output)?.[1]);
		strays.push(sleeper);
		expect(exit).toBe("SIGKILL");
		expect(sleeper).toBeGreaterThan(0);
		await waitUntilGone(sleeper);
	});

	it("reports a watchdog that cannot start once, naming its command and error, and starts one again at the next registration", async () => {
		const dir = makeTempDir("lifeline-");
		const command = join(dir, "watchdog");
		const received = join(dir, "received");
		const pidFile = join(dir, "pid");
		const unregister: Array<() => void> = [];
		try {
			const warnings: string[] = [];
			const lifeline = new WatchdogLifeline({ command: [command], warn: (message) => warnings.push(message) });
			unregister.push(lifeline.register({ pgid: 1_000_001 }));
			await waitUntil(() => warnings.length > 0, "a warning about the missing watchdog");
			expect(warnings[0]).toContain(command);
			expect(warnings[0]).toContain("ENOENT");
			// Now a watchdog can start: it records its pid and what it is told until its pipe closes.
			writeFileSync(command, `#!/bin/sh\necho $$ > '${pidFile}'\nexec cat > '${received}'\n`, { mode: 0o755 });
			unregister.push(lifeline.register({ pgid: 1_000_002 }));
			const told = () => (existsSync(received) ? readFileSync(received, "utf8") : "");
			await waitUntil(() => told().includes('"add":2'), "the started watchdog told both registrations");
			expect(told()).toContain('{"add":1,"pgid":1000001,"live":2,"open":0}');
			expect(warnings).toHaveLength(1);
		} finally {
			// Nothing registered first, so the lifeline starts no other watchdog when its recorder dies; then the
			// recorder is gone before its directory is.
			for (const forget of unregister) forget();
			await killRecorder(pidFile);
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("starts no child once the restarts are used up: the spawn fails saying why, and nothing runs", async () => {
		const { lifeline } = await givenUpLifeline();
		const dir = makeTempDir("lifeline-refused-");
		try {
			const marker = join(dir, "ran");
			const outcome = await run({ file: "sh", args: ["-c", `touch '${marker}'`], cwd: dir, env: {} }, { lifeline })
				.done;
			expect(outcome.end).toBe("spawn_failed");
			expect(outcome.startRefused).toBe(true);
			expect(outcome.spawnError).toBe(
				"pi-native-subagents: the parent-death watchdog (true) was started 11 times and is not started again, so no child starts: it would not die with Pi; restart Pi",
			);
			expect(existsSync(marker)).toBe(false);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("reports a watchdog that keeps exiting once the restarts are used up, naming its command and what runs unprotected", async () => {
		const warnings: string[] = [];
		const lifeline = new WatchdogLifeline({ command: ["true"], warn: (message) => warnings.push(message) });
		const unregister = lifeline.register({ pgid: 1_000_001 });
		await waitUntil(() => warnings.length > 0, "a warning about the exiting watchdog");
		unregister();
		expect(warnings).toEqual([
			"pi-native-subagents: parent-death watchdog (true) was started 11 times and is not started again; what runs now (1 registration) is not killed if Pi dies, and no child starts any more: restart Pi",
		]);
	});

	it("reports the restarts used up even after it reported a watchdog that could not start", async () => {
		const dir = makeTempDir("lifeline-both-");
		const command = join(dir, "watchdog");
		try {
			const warnings: string[] = [];
			const lifeline = new WatchdogLifeline({ command: [command], warn: (message) => warnings.push(message) });
			const forget = [lifeline.register({ pgid: 1_000_001 })];
			await waitUntil(() => warnings.length > 0, "a warning about the missing watchdog");
			// Now every watchdog exits at once: each exit starts another while the registration lives.
			writeFileSync(command, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
			forget.push(lifeline.register({ pgid: 1_000_002 }));
			await waitUntil(() => warnings.length > 1, "a warning about the restarts used up");
			for (const unregister of forget) unregister();
			expect(warnings[0]).toContain("could not start: spawn");
			expect(warnings[0]).toContain("children may outlive Pi until one starts");
			expect(warnings[1]).toMatch(
				/was started 11 times and is not started again; what runs now \(2 registrations\) is not killed if Pi dies/,
			);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("sends the warnings of a lifeline without a warn of its own to the reporter the wiring gives", async () => {
		const reported: string[] = [];
		reportLifelineWarnings((message) => reported.push(message));
		try {
			const lifeline = new WatchdogLifeline({ command: ["/no/such/watchdog"] });
			const unregister = lifeline.register({ pgid: 1_000_001 });
			await waitUntil(() => reported.length > 0, "the reported warning");
			unregister();
			expect(reported[0]).toBe(
				"pi-native-subagents: parent-death watchdog (/no/such/watchdog) could not start: spawn /no/such/watchdog ENOENT; children may outlive Pi until one starts (it is started again with the next child)",
			);
		} finally {
			reportLifelineWarnings((message) => process.emitWarning(message));
		}
	});
});

const DIRS_PARENT = fileURLToPath(new URL("../support/lifeline-dirs-parent.ts", import.meta.url));

/**
 * Starts the parent with `TMPDIR` = `tmp`, runs `beside(parentPid)` meanwhile, SIGKILLs the parent once its
 * watchdog runs, and resolves with the parent's directories once its sleeper is gone, its directories are gone
 * and its watchdog has exited (so the watchdog has done all it does).
 */
async function killParentWithDirs(
	tmp: string,
	beside: (pid: number) => void = () => {},
	options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<string[]> {
	// With `cwd`, `TMPDIR` is `tmp` relative to it, as a user may set it (`os.tmpdir()` returns it as it is).
	const cwd = options.cwd ?? process.cwd();
	const parent = spawn(process.execPath, [DIRS_PARENT], {
		cwd,
		env: { ...process.env, ...options.env, TMPDIR: options.cwd ? relative(cwd, tmp) : tmp },
		stdio: ["ignore", "pipe", "pipe"],
	});
	started.push(parent);
	parent.stderr?.setEncoding("utf8").on("data", (text: string) => {
		for (const match of text.matchAll(/\{"sleeper":(\d+)\}/g)) strays.push(Number(match[1]));
	});
	beside(parent.pid as number);
	const line = await new Promise<string>((resolve, reject) => {
		parent.stdout?.once("data", (data) => resolve(String(data)));
		parent.once("exit", (code) => reject(new Error(`the parent exited with ${code} before reporting`)));
	});
	const { sleeper, watchdog, dirs } = JSON.parse(line) as { sleeper: number; watchdog: number; dirs: string[] };
	expect(dirs.map((dir) => dir.slice(tmp.length + 1))).toEqual([
		expect.stringMatching(new RegExp(`^${RUN_DIR_PREFIX}${parent.pid}-[A-Za-z0-9]{6}$`)),
		expect.stringMatching(new RegExp(`^${TMUX_DIR_PREFIX}${parent.pid}-[A-Za-z0-9]{6}$`)),
	]);
	expect(dirs.every((dir) => existsSync(dir))).toBe(true);
	parent.kill("SIGKILL");
	await waitUntilGone(sleeper);
	await waitUntil(() => dirs.every((dir) => !existsSync(dir)), "the parent's run and tmux directories to go");
	await waitUntilGone(watchdog);
	return dirs;
}

/**
 * The watchdog removes a killed Pi's run and tmux directories right after its kills (SECURITY.md "Data"; the rule:
 * src/core/leftover-dirs.mjs), and nothing else. Each parent gets a private `TMPDIR`, so every name in it is the test's.
 */
describe("the parent-death watchdog's directories", () => {
	it("a killed Pi's run and tmux directories are removed by its watchdog", async () => {
		const tmp = makeTempDir("watchdog-dirs-");
		try {
			const dirs = await killParentWithDirs(tmp);
			expect(dirs.filter((dir) => existsSync(dir))).toEqual([]);
		} finally {
			rmSync(tmp, { recursive: true, force: true });
		}
	});

	it("the watchdog leaves other pids' directories, symlinks and other users' names alone", async () => {
		const tmp = makeTempDir("watchdog-dirs-");
		const outside = makeTempDir("watchdog-dirs-target-");
		writeFileSync(join(outside, "kept"), "kept");
		const root = process.getuid?.() === 0;
		const kept: string[] = [];
		try {
			await killParentWithDirs(tmp, (pid) => {
				const dir = (name: string) => {
					mkdirSync(join(tmp, name));
					kept.push(name);
					return join(tmp, name);
				};
				// Another pid: this live test process, and a pid that starts with the parent's digits.
				writeFileSync(join(dir(`${RUN_DIR_PREFIX}${process.pid}-AbC123`), "file"), "x");
				dir(`${TMUX_DIR_PREFIX}${pid}0-AbC123`);
				// Not mkdtemp's six-character suffix.
				dir(`${RUN_DIR_PREFIX}${pid}-AbC1234`);
				// A symlink with a matching name to a directory outside, and a file with a matching name.
				symlinkSync(outside, join(tmp, `${RUN_DIR_PREFIX}${pid}-Sym123`));
				kept.push(`${RUN_DIR_PREFIX}${pid}-Sym123`);
				writeFileSync(join(tmp, `${TMUX_DIR_PREFIX}${pid}-Fil123`), "x");
				kept.push(`${TMUX_DIR_PREFIX}${pid}-Fil123`);
				// Another user's directory with the parent's pid (only root can make one).
				if (root) chownSync(dir(`${RUN_DIR_PREFIX}${pid}-Usr123`), 65534, 65534);
			});
			expect(kept.filter((name) => !lstatExists(join(tmp, name)))).toEqual([]);
			expect(lstatSync(join(tmp, kept.find((name) => name.endsWith("-Sym123")) as string)).isSymbolicLink()).toBe(true);
			expect(readFileSync(join(outside, "kept"), "utf8")).toBe("kept");
		} finally {
			rmSync(tmp, { recursive: true, force: true });
			rmSync(outside, { recursive: true, force: true });
		}
	});
	it("the watchdog removes a run directory holding a symlink to a file outside without following it, in a relative TMPDIR named with spaces and unicode", async () => {
		const cwd = makeTempDir("watchdog-dirs-cwd-");
		const tmp = join(cwd, "temp dir é ü");
		mkdirSync(tmp);
		const outside = join(makeTempDir("watchdog-dirs-target-"), "kept");
		writeFileSync(outside, "kept");
		try {
			const dirs = await killParentWithDirs(tmp, () => {}, { cwd, env: { LIFELINE_DIRS_LINK: outside } });
			expect(dirs.map((dir) => dir.startsWith(`${tmp}/`))).toEqual([true, true]);
			expect(dirs.filter((dir) => lstatExists(dir))).toEqual([]);
			expect(readFileSync(outside, "utf8")).toBe("kept");
		} finally {
			rmSync(cwd, { recursive: true, force: true });
			rmSync(dirname(outside), { recursive: true, force: true });
		}
	});
});

/** Whether `path` itself exists (a dangling or live symlink counts). */
function lstatExists(path: string): boolean {
	try {
		lstatSync(path);
		return true;
	} catch {
		return false;
	}
}
