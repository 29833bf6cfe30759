/**
 * Retention of pi children's session files (harness/pi/session-retention.ts, docs/rules.md §Child sessions):
 * age and total size, never a session a live parent holds, never a file written within RECENT_MS.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
	heldChildSessions,
	pruneChildSessions,
	RECENT_MS,
	SessionHold,
} from "../../../src/harness/pi/session-retention.ts";
import { tempDirsRemovedAfter } from "../../support/temp-dir.ts";

const tempDir = tempDirsRemovedAfter(afterEach);

const DAY = 24 * 60 * 60 * 1000;

function setup() {
	const root = tempDir("child-sessions-");
	const sessions = join(root, "sessions");
	const holds = join(root, "holds");
	mkdirSync(sessions);
	const now = Date.now();
	/** A session file of `bytes` bytes last written `ageMs` ago. */
	const file = (id: string, ageMs: number, bytes = 10) => {
		const name = `2026-01-01T00-00-00-000Z_${id}.jsonl`;
		writeFileSync(join(sessions, name), "x".repeat(bytes));
		const at = (now - ageMs) / 1000;
		utimesSync(join(sessions, name), at, at);
		return name;
	};
	const left = () => readdirSync(sessions).sort();
	return { sessions, holds, now, file, left };
}

/** A pid that belonged to a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid as number;

describe("pi child session retention", () => {
	it("removes sessions older than the age limit, keeping those a live parent holds and dropping dead parents' holds", () => {
		const { sessions, holds, now, file, left } = setup();
		const old = file("old", 40 * DAY);
		const heldLive = file("held-live", 40 * DAY);
		file("held-dead", 40 * DAY);
		const young = file("young", 2 * DAY);
		const live = new SessionHold(holds);
		live.write(["held-live"]);
		const dead = deadPid();
		new SessionHold(holds, dead).write(["held-dead"]);
		const removed = pruneChildSessions(sessions, holds, { maxAgeMs: 30 * DAY, maxTotalBytes: 1e9 }, { now });
		expect(removed.sort()).toEqual([old, `2026-01-01T00-00-00-000Z_held-dead.jsonl`].sort());
		expect(left()).toEqual([heldLive, young].sort());
		expect(readdirSync(holds).filter((name) => name.startsWith(`${dead}-`))).toEqual([]);
		expect([...heldChildSessions(holds)]).toEqual(["held-live"]);
		live.release();
		expect([...heldChildSessions(holds)]).toEqual([]);
	});

	it("keeps no hold file, nor makes the holds directory, while a load holds no session", () => {
		const { holds } = setup();
		const hold = new SessionHold(holds);
		hold.write([]);
		expect(existsSync(holds)).toBe(false);
		hold.write(["held"]);
		expect(readdirSync(holds)).toHaveLength(1);
		expect([...heldChildSessions(holds)]).toEqual(["held"]);
		hold.write([]);
		expect(readdirSync(holds)).toEqual([]);
		expect([...heldChildSessions(holds)]).toEqual([]);
	});

	it("rewrites the hold file only when the ids it holds change, or when it is gone", () => {
		const { holds } = setup();
		const hold = new SessionHold(holds);
		hold.write(["a"]);
		const [name] = readdirSync(holds);
		const inode = () => statSync(join(holds, name)).ino;
		const first = inode();
		// The same ids (a call's claim, then its launch record): the file stays as it was.
		hold.write(["a"]);
		hold.write(["a", "a"]);
		expect(inode()).toBe(first);
		hold.write(["b", "a"]);
		const second = inode();
		expect(second).not.toBe(first);
		expect([...heldChildSessions(holds)].sort()).toEqual(["a", "b"]);
		hold.write(["a", "b"]);
		expect(inode()).toBe(second);
		// Removed by someone else: the next write puts it back even with the same ids.
		rmSync(join(holds, name));
		hold.write(["a", "b"]);
		expect([...heldChildSessions(holds)].sort()).toEqual(["a", "b"]);
		hold.release();
		hold.write(["a", "b"]);
		expect([...heldChildSessions(holds)].sort()).toEqual(["a", "b"]);
	});

	it("removes the oldest unheld sessions while the total exceeds the size limit, never one written recently", () => {
		const { sessions, holds, now, file, left } = setup();
		const oldest = file("a", 5 * DAY, 400);
		const held = file("b", 4 * DAY, 400);
		file("c", 3 * DAY, 400);
		const recent = file("running", RECENT_MS / 2, 400);
		const removed = pruneChildSessions(
			sessions,
			holds,
			{ maxAgeMs: 30 * DAY, maxTotalBytes: 1000 },
			{ now, alsoHeld: ["b"] },
		);
		// 1600 bytes: "a" goes (1200 left), then "c" (800); "b" is held and "running" was written recently.
		expect(removed).toEqual([oldest, "2026-01-01T00-00-00-000Z_c.jsonl"]);
		expect(left()).toEqual([held, recent].sort());
	});
});
