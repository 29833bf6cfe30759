/**
 * The /proc sweep against a process that keeps re-forking itself, when the sweep is held up between listing
 * /proc and reading a pid (a loaded machine): such a listing names only generations that have exited.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { stopAndKillFamily } from "../../src/process/proc-table.mjs";
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
});
