/**
 * The /proc sweep against a process that keeps re-forking itself, when the sweep is held up between listing
 * /proc and reading a pid (a loaded machine): such a listing names only generations that have exited.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isDead, processTable, readStat, stopAndKillFamily } from "../../src/process/proc-table.mjs";
import {
	freezeAndKill,
	isAlive,
	processesWithEnv,
	startHopper,
	waitUntil,
	waitUntilNoneWithEnv,
} from "../support/processes.ts";

describe("the stop-and-kill sweep of /proc", () => {
	it("kills a re-forking process although its live generation had exited before each of several listings was read", async () => {
		// Every 20 ms it forks its successor and exits.
		const tag = `NATIVE_SUBAGENTS_HOPPER=${randomUUID()}`;
		const [name, value] = tag.split("=");
		try {
			await startHopper(0.02, { PI_NATIVE_SUBAGENTS_RUN: "sweep-token/1", [name]: value });
			await waitUntil(() => processesWithEnv(tag).length > 0, "the hopper to run");
			// The first four listings are held up until every listed generation of the hopper has exited, and
			// take 10 ms by the sweep's clock; the later ones are read at once.
			let heldUp = 4;
			let clock = 0;
			const afterListing = (pids: number[]) => {
				if (heldUp === 0) return;
				heldUp--;
				const listed = new Set(pids);
				const generations = processesWithEnv(tag).filter((pid) => listed.has(pid));
				while (generations.some(isAlive)) {
					// Held up: the listed generations fork on and exit meanwhile.
				}
				clock += 10;
			};
			const killed = stopAndKillFamily("PI_NATIVE_SUBAGENTS_RUN=sweep-token/", [], 20, {
				now: () => clock,
				afterListing,
			});
			expect(heldUp).toBe(0);
			expect(killed).toBeGreaterThan(0);
			await waitUntilNoneWithEnv(tag, "ten looks at /proc in a row without the hopper");
		} finally {
			freezeAndKill(tag);
		}
	});

	it("reads no environment of a process older than the run: an older marked process is left, the run's own is killed", async () => {
		const marker = `PI_NATIVE_SUBAGENTS_RUN=born-${randomUUID()}/1`;
		const [name, value] = marker.split("=");
		const sleeper = () => spawn("sleep", ["60"], { detached: true, stdio: "ignore", env: { [name]: value } });
		const started: ChildProcess[] = [];
		const startTime = (child: ChildProcess) => Number(readStat(child.pid ?? 0)?.startTime);
		try {
			const older = sleeper();
			started.push(older);
			// The run's process: one started at a later clock tick than the older one.
			let own = sleeper();
			started.push(own);
			while (startTime(own) <= startTime(older)) {
				own.kill("SIGKILL");
				await waitUntil(() => !isAlive(own.pid ?? 0) || readStat(own.pid ?? 0)?.state === "Z", "the early one to end");
				own = sleeper();
				started.push(own);
			}
			const killed = stopAndKillFamily(`${marker}\0`, [], 20, { bornFrom: startTime(own) });
			expect(killed).toBe(1);
			await waitUntil(() => own.exitCode !== null || own.signalCode !== null, "the run's own process to end");
			expect(own.signalCode).toBe("SIGKILL");
			expect(isAlive(older.pid ?? 0)).toBe(true);
		} finally {
			for (const child of started) child.kill("SIGKILL");
			await waitUntil(
				() => started.every((child) => child.exitCode !== null || child.signalCode !== null),
				"every sleeper to end",
			);
		}
	});

	it("counts a process whose every thread exited as dead, though its tracer still holds them as zombies", async () => {
		const script = fileURLToPath(new URL("../support/traced-zombie.py", import.meta.url));
		const tracer = spawn("python3", [script], { stdio: ["pipe", "pipe", "inherit"] });
		const gone = new Promise((resolve) => tracer.once("close", resolve));
		try {
			const line = await new Promise<string>((resolve, reject) => {
				tracer.stdout?.once("data", (data) => resolve(String(data)));
				tracer.once("exit", (code) => reject(new Error(`traced-zombie.py exited with ${code} before reporting`)));
			});
			const { pid } = JSON.parse(line) as { pid: number };
			const stat = readStat(pid);
			expect(stat).toMatchObject({ state: "Z", threads: 3 });
			expect(stat && isDead(stat)).toBe(true);
			expect(processTable().some((entry) => entry.pid === pid)).toBe(false);
		} finally {
			tracer.stdin?.end();
			await gone;
		}
	});
});
