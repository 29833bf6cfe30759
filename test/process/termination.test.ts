import { randomUUID } from "node:crypto";
import { getEventListeners } from "node:events";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Lifeline } from "../../src/process/lifeline.ts";
import { RUN_MARKER } from "../../src/process/proc-table.mjs";
import { freezeAndKill, MAIN_THREAD_EXITS_PY, waitUntil, waitUntilNoneWithEnv } from "../support/processes.ts";
import { makeTempDir } from "../support/temp-dir.ts";
import { fixture, isAlive, ofType, run, waitUntilGone } from "./run-fixture.ts";

/** Pids a test leaves behind on purpose (outside the group); killed after each test. */
const strays: number[] = [];
/**
 * A wall-clock limit a child reaches only after it has reported its start, even on a loaded machine (a node
 * process can take seconds to start there): the tests wait for that report before the limit ends the run.
 */
const AFTER_START_TIMEOUT_MS = 5_000;
/** A drain window longer than any test's timeout: a run that waits it out fails by timing out. */
const UNREACHED_DRAIN_MS = 600_000;
afterEach(() => {
	for (const pid of strays.splice(0)) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {}
	}
});

describe("startProcess: ending the process group", () => {
	it("kills grandchildren on abort", async () => {
		const controller = new AbortController();
		const { running, waitForRecord, done } = run(fixture("grandchild", ["stay"]), { signal: controller.signal });
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		expect(isAlive(grandchild)).toBe(true);
		controller.abort();
		const outcome = await done;
		expect(outcome.end).toBe("aborted");
		expect(outcome.signal).toBe("SIGTERM");
		await waitUntilGone(grandchild);
		await waitUntilGone(running.pid as number);
	});

	it("kills descendants that moved to their own process group on abort", async () => {
		const controller = new AbortController();
		const { waitForRecord, done } = run(fixture("grandchild", ["stay", "own-group"]), { signal: controller.signal });
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		expect(isAlive(grandchild)).toBe(true);
		controller.abort();
		expect((await done).end).toBe("aborted");
		await waitUntilGone(grandchild);
	});

	it("kills descendants that moved to their own process group on timeout", async () => {
		const { waitForRecord, done } = run(fixture("grandchild", ["stay", "own-group"]), {
			limits: { timeoutMs: AFTER_START_TIMEOUT_MS },
		});
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		expect((await done).end).toBe("timed_out");
		await waitUntilGone(grandchild);
	});

	it("kills grandchildren on timeout", async () => {
		const { waitForRecord, done } = run(fixture("grandchild", ["stay"]), {
			limits: { timeoutMs: AFTER_START_TIMEOUT_MS },
		});
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		const outcome = await done;
		expect(outcome.end).toBe("timed_out");
		await waitUntilGone(grandchild);
	});

	it("times out a child that hangs", async () => {
		const { records, done } = run(fixture("never-exits"), { limits: { timeoutMs: AFTER_START_TIMEOUT_MS } });
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "timed_out", signal: "SIGTERM", exitCode: null });
		expect(outcome.durationMs).toBeGreaterThanOrEqual(AFTER_START_TIMEOUT_MS);
		expect(records.some(ofType("agent_settled"))).toBe(true);
	});

	it("sends SIGKILL after the grace when the child ignores SIGTERM", async () => {
		const controller = new AbortController();
		const { waitForRecord, done } = run(fixture("ignores-sigterm"), {
			signal: controller.signal,
			limits: { killGraceMs: 300 },
		});
		await waitForRecord(ofType("ready"));
		const abortedAt = performance.now();
		controller.abort();
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "aborted", signal: "SIGKILL" });
		expect(performance.now() - abortedAt).toBeGreaterThanOrEqual(290);
		expect(outcome.stderrTail).toContain("ignoring SIGTERM");
	});

	it("ends a child that never exits after its terminal event", async () => {
		const { running, records, done } = run(fixture("never-exits"), {
			limits: { terminalGraceMs: 200 },
			onRecord: (record) => {
				if ((record as { type?: string }).type === "agent_settled") running.terminalSeen();
			},
		});
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "killed_after_terminal", signal: "SIGTERM" });
		expect(records.map((record) => record.type)).toEqual(["session", "agent_settled"]);
		await waitUntilGone(running.pid as number);
	});

	it("lets a child that exits within the terminal grace end as a plain exit", async () => {
		const { running, done } = run(fixture("echo"), {
			limits: { terminalGraceMs: 5000 },
			onRecord: (record) => {
				if ((record as { type?: string }).type === "agent_settled") running.terminalSeen();
			},
		});
		expect(await done).toMatchObject({ end: "exited", exitCode: 0 });
	});

	it("kills a grandchild that holds stdout open after the child exits", async () => {
		const { waitForRecord, done } = run(fixture("grandchild", ["exit"]), { limits: { drainMs: UNREACHED_DRAIN_MS } });
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		// Killing the rest of the group at the leader's exit closes the pipe: the run ends at all (the drain is
		// longer than the test's timeout) only because of that.
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "exited", exitCode: 0 });
		await waitUntilGone(grandchild);
	});

	it("kills a setsid grandchild that holds stdout open after the child exits 0 by itself", async () => {
		const { waitForRecord, done } = run(fixture("grandchild", ["exit", "own-group"]), {
			limits: { drainMs: UNREACHED_DRAIN_MS },
		});
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		strays.push(grandchild);
		// The leader-exit sweep found it by its run marker and closed the pipe: the drain (longer than the
		// test's timeout) was not waited out, or the run would not end here.
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "exited", exitCode: 0 });
		await waitUntilGone(grandchild);
	});

	/** Runs `script` as the child (`sh -c`), in `/` with only PATH: its records are the JSON lines it echoes. */
	const runShell = (script: string) =>
		run({ file: "sh", args: ["-c", script], cwd: "/", env: { PATH: process.env.PATH ?? "" } });

	it("kills a setsid grandchild that appended to its run marker once the child exits, and no other run's process", async () => {
		// The grandchild's marker is the run's with `-x` after it; another run's (`/1/` against `/10/`) must survive.
		// Each leaves the child's group (its own session) before the child exits, so only the marker can find it.
		const script = [
			`detached() { while [ "$(cut -d' ' -f6 /proc/$1/stat)" != "$1" ]; do sleep 0.01; done; }`,
			// biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
			'PI_NATIVE_SUBAGENTS_RUN="${PI_NATIVE_SUBAGENTS_RUN}-x" setsid sleep 600 </dev/null >/dev/null 2>&1 &',
			"grandchild=$!",
			// biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
			'PI_NATIVE_SUBAGENTS_RUN="${PI_NATIVE_SUBAGENTS_RUN%/}0/" setsid sleep 600 </dev/null >/dev/null 2>&1 &',
			"other=$!",
			'echo "{\\"type\\":\\"grandchild\\",\\"pid\\":$grandchild}"',
			'echo "{\\"type\\":\\"other\\",\\"pid\\":$other}"',
			"detached $grandchild; detached $other",
		].join("\n");
		const { waitForRecord, done } = runShell(script);
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		const other = (await waitForRecord(ofType("other"))).pid as number;
		strays.push(grandchild, other);
		expect(await done).toMatchObject({ end: "exited", exitCode: 0 });
		await waitUntilGone(grandchild);
		expect(isAlive(other)).toBe(true);
	});

	it("kills a setsid grandchild whose main thread exited while its other thread runs, found by its run marker", async () => {
		// Shown as a zombie in /proc, with no environment of its own: it lives on in its second thread.
		const python = MAIN_THREAD_EXITS_PY;
		// The child ends only once the grandchild shows as a zombie, so its exit's sweep sees it that way.
		const script = [
			`setsid python3 -c '${python}' </dev/null >/dev/null 2>&1 &`,
			"pid=$!",
			'echo "{\\"type\\":\\"grandchild\\",\\"pid\\":$pid}"',
			`while [ "$(cut -d' ' -f3 /proc/$pid/stat)" != Z ]; do sleep 0.02; done`,
		].join("\n");
		const { waitForRecord, done } = runShell(script);
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		strays.push(grandchild);
		expect(await done).toMatchObject({ end: "exited", exitCode: 0 });
		await waitUntilGone(grandchild);
	});

	it("kills a setsid descendant that keeps re-forking itself after the child exits", async () => {
		// A daemon that never stays one process: every few ms it forks its successor and exits (own session, fds
		// closed), so a look at the whole of /proc is stale before it ends. It carries the run marker and a tag.
		const tag = `NATIVE_SUBAGENTS_HOPPER=${randomUUID()}`;
		const dir = makeTempDir("hopper-");
		const gate = join(dir, "gate");
		const started = join(dir, "started");
		const hopper = `setsid sh -c 'touch ${started}; h() { sleep 0.05; h & exit 0; }; h' </dev/null >/dev/null 2>&1 &`;
		const leader = `${hopper} while [ ! -e ${gate} ]; do sleep 0.05; done; exit 0`;
		const [name, value] = tag.split("=");
		const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", [name]: value };
		try {
			const { done } = run({ file: "sh", args: ["-c", leader], cwd: dir, env });
			await waitUntil(() => existsSync(started), "the hopper to start");
			writeFileSync(gate, "");
			expect(await done).toMatchObject({ end: "exited", exitCode: 0 });
			await waitUntilNoneWithEnv(tag, "ten looks at /proc in a row without a tagged process");
		} finally {
			freezeAndKill(tag);
			rmSync(dir, { recursive: true, force: true });
		}
	});

	/** A lifeline that records what is done with it: registrations, their removal, and the marker's settling. */
	function recordingLifeline(): Lifeline & { events: string[] } {
		const events: string[] = [];
		const value = `settle-test/${randomUUID()}`;
		return {
			events,
			nextMarker: () => ({ name: RUN_MARKER, value, settle: () => events.push("settle") }),
			register: () => {
				events.push("register");
				return () => events.push("unregister");
			},
		};
	}

	it("settles the child's run marker once, after the sweep that follows its exit killed what carried it, never while it runs", async () => {
		const lifeline = recordingLifeline();
		const { waitForRecord, done } = run(fixture("grandchild", ["exit", "own-group"]), {
			limits: { drainMs: UNREACHED_DRAIN_MS },
			lifeline,
		});
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		strays.push(grandchild);
		expect(lifeline.events).toEqual(["register"]);
		expect(await done).toMatchObject({ end: "exited", exitCode: 0 });
		await waitUntil(() => lifeline.events.includes("unregister"), "the sweep after the exit");
		expect(lifeline.events).toEqual(["register", "settle", "unregister"]);
		await waitUntilGone(grandchild);
	});

	it("settles the run marker of a child that could not start at once, registering nothing", async () => {
		const lifeline = recordingLifeline();
		const { done } = run(fixture("grandchild", [], { file: "/nonexistent/harness" }), { lifeline });
		expect(await done).toMatchObject({ end: "spawn_failed" });
		expect(lifeline.events).toEqual(["settle"]);
	});

	it("ends the run after the drain when an unmarked process outside the group holds stdout open", async () => {
		const { records, waitForRecord, done } = run(fixture("grandchild", ["exit", "own-group-clean-env"]), {
			limits: { drainMs: 300 },
		});
		const grandchild = (await waitForRecord(ofType("grandchild"))).pid as number;
		strays.push(grandchild);
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "exited", exitCode: 0 });
		expect(records.some(ofType("agent_settled"))).toBe(true);
		// The escaped grandchild is still running and still holds the pipe: the run ended on the drain.
		expect(isAlive(grandchild)).toBe(true);
	});

	it("removes the abort listener after the end", async () => {
		const controller = new AbortController();
		const { done } = run(fixture("echo"), { signal: controller.signal });
		expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
		await done;
		expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
	});
});
