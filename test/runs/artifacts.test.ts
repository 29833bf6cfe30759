import { execFileSync } from "node:child_process";
import {
	chmodSync,
	chownSync,
	linkSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ARTIFACT_PRUNE_INTERVAL_MS, artifactPruneDue, PRUNE_STAMP } from "../../src/runs/artifact-root.ts";
import { newArtifactCallId, pruneArtifacts, pruneArtifactsWhenDue, writeArtifact } from "../../src/runs/artifacts.ts";
import { deliverAnswer } from "../../src/runs/delivery.ts";
import { runResult } from "../support/run-result.ts";
import { tempDirsRemovedAfter } from "../support/temp-dir.ts";

const DAY = 24 * 60 * 60 * 1000;

const tempDir = tempDirsRemovedAfter(afterEach);

function tempRoot(): string {
	return tempDir("artifacts-");
}

/** A session directory `name` under `root` holding `bytes` bytes, last written `ageDays` days ago. */
function sessionDir(root: string, name: string, bytes: number, ageDays: number): void {
	const dir = join(root, name);
	mkdirSync(dir);
	const file = join(dir, "a.md");
	writeFileSync(file, "x".repeat(bytes));
	const when = new Date(Date.now() - ageDays * DAY);
	utimesSync(file, when, when);
	utimesSync(dir, when, when);
}

describe("artifact files", () => {
	it("generates a different call id every time, never derived from a provider's id", () => {
		const ids = new Set(Array.from({ length: 1000 }, newArtifactCallId));
		expect(ids.size).toBe(1000);
		for (const id of ids) expect(id).toMatch(/^[0-9a-z]+-[0-9a-f]{8}$/);
	});

	it("writes the whole text privately and atomically, leaving only the artifact", () => {
		const dir = join(tempRoot(), "session");
		const written = writeArtifact(dir, "call-1", "whole answer");
		expect(written).toEqual({ path: join(dir, "call-1.md") });
		expect(readFileSync(join(dir, "call-1.md"), "utf8")).toBe("whole answer");
		expect(readdirSync(dir)).toEqual(["call-1.md"]);
	});

	it("leaves no temp file when a write fails, and the result says the artifact could not be written", () => {
		const dir = join(tempRoot(), "session");
		// Something the rename cannot replace stands where the artifact goes: the temp file was written first.
		mkdirSync(join(dir, "call-2.md"), { recursive: true });
		writeFileSync(join(dir, "call-2.md", "occupant"), "x");
		const written = writeArtifact(dir, "call-2", "text");
		expect("error" in written && written.error).toMatch(/^could not write the full answer to .*call-2\.md: /);
		expect(readdirSync(dir)).toEqual(["call-2.md"]);

		const run = runResult({ finalAnswer: "line\n".repeat(50) });
		const delivery = deliverAnswer(run, { maxBytes: 100, maxLines: 5 }, dir, "call-2");
		expect(delivery.text).toContain("[answer truncated: 5 of ");
		expect(delivery.text).toContain(`could not write the full answer to ${join(dir, "call-2.md")}`);
		expect(run.artifactPath).toBeUndefined();
		expect(run.artifactError).toContain("could not write the full answer");
		expect(readdirSync(dir)).toEqual(["call-2.md"]);
	});
});

/** uid and gid of `nobody`: another local user. */
const NOBODY = 65534;

describe("an artifact root another local user made first", () => {
	// Root can give a directory to another user; anyone else cannot stage this attack on their own.
	it.skipIf(process.getuid?.() !== 0)(
		"refuses a world-writable root of another user, or a symlink to one, before creating anything in it",
		() => {
			const foreign = join(tempRoot(), "pi-native-subagents-0");
			mkdirSync(foreign);
			chownSync(foreign, NOBODY, NOBODY);
			chmodSync(foreign, 0o1777);
			const written = writeArtifact(join(foreign, "session"), "call-1", "secret answer");
			expect("error" in written && written.error).toContain(`${foreign} is not a directory owned by this user`);
			expect(readdirSync(foreign)).toEqual([]);

			const linked = join(tempRoot(), "pi-native-subagents-0");
			symlinkSync(foreign, linked);
			const viaLink = writeArtifact(join(linked, "session"), "call-1", "secret answer");
			expect("error" in viaLink && viaLink.error).toContain(`${linked} is not a directory owned by this user`);
			expect(readdirSync(foreign)).toEqual([]);
		},
	);

	it("refuses a root of its own that others may write to, before creating anything in it", () => {
		const open = join(tempRoot(), "pi-native-subagents-0");
		mkdirSync(open);
		chmodSync(open, 0o777);
		const written = writeArtifact(join(open, "session"), "call-1", "secret answer");
		expect("error" in written && written.error).toContain("that only this user can write to");
		expect(readdirSync(open)).toEqual([]);
	});
});

describe("artifact retention", () => {
	it("removes session directories older than the age limit at session start, never the current one", () => {
		const root = tempRoot();
		sessionDir(root, "old", 10, 8);
		sessionDir(root, "recent", 10, 1);
		sessionDir(root, "current", 10, 30);
		const removed = pruneArtifacts(root, { keep: "current", maxAgeMs: 7 * DAY });
		expect(removed).toEqual(["old"]);
		expect(readdirSync(root).sort()).toEqual(["current", "recent"]);
	});

	it("removes the oldest directories while the total is over the size cap", () => {
		const root = tempRoot();
		sessionDir(root, "oldest", 400, 3);
		sessionDir(root, "middle", 400, 2);
		sessionDir(root, "newest", 400, 1);
		sessionDir(root, "current", 400, 4);
		const removed = pruneArtifacts(root, { keep: "current", maxAgeMs: 7 * DAY, maxTotalBytes: 1000 });
		expect(removed).toEqual(["oldest", "middle"]);
		expect(readdirSync(root).sort()).toEqual(["current", "newest"]);
	});

	it("never follows a symlink out of the root", () => {
		const root = tempRoot();
		const outside = tempRoot();
		sessionDir(outside, "victim", 10, 30);
		symlinkSync(join(outside, "victim"), join(root, "link"));
		expect(pruneArtifacts(root, { maxAgeMs: DAY })).toEqual([]);
		expect(readdirSync(join(outside, "victim"))).toEqual(["a.md"]);
		const linkedRoot = join(tempRoot(), "root-link");
		symlinkSync(outside, linkedRoot);
		expect(pruneArtifacts(linkedRoot, { maxAgeMs: DAY })).toEqual([]);
		expect(readdirSync(outside)).toEqual(["victim"]);
	});
});

describe("artifact retention at session start", () => {
	/** A private root holding one session directory older than the age limit. */
	function rootWithStale(): string {
		const root = tempRoot();
		chmodSync(root, 0o700);
		sessionDir(root, "stale-1", 10, 8);
		return root;
	}
	const age = (path: string, ms: number) => {
		const when = new Date(Date.now() - ms);
		utimesSync(path, when, when);
	};

	it("prunes at a session start, then not again until the last prune is an interval old", () => {
		const root = rootWithStale();
		expect(pruneArtifactsWhenDue(root, { keep: "current" })).toEqual(["stale-1"]);
		expect(lstatSync(join(root, PRUNE_STAMP)).isFile()).toBe(true);
		sessionDir(root, "stale-2", 10, 8);
		// Within the interval: nothing is measured or removed.
		expect(pruneArtifactsWhenDue(root, { keep: "current" })).toBeUndefined();
		expect(readdirSync(root).sort()).toEqual([PRUNE_STAMP, "stale-2"]);
		age(join(root, PRUNE_STAMP), ARTIFACT_PRUNE_INTERVAL_MS + 1000);
		expect(pruneArtifactsWhenDue(root, { keep: "current" })).toEqual(["stale-2"]);
		expect(readdirSync(root)).toEqual([PRUNE_STAMP]);
		expect(Date.now() - lstatSync(join(root, PRUNE_STAMP)).mtimeMs).toBeLessThan(ARTIFACT_PRUNE_INTERVAL_MS);
	});

	it("trusts a stamp written in the millisecond the session starts (file times carry sub-millisecond digits)", () => {
		const root = rootWithStale();
		const now = Date.now() - 60_000;
		writeFileSync(join(root, PRUNE_STAMP), "x", { mode: 0o600 });
		utimesSync(join(root, PRUNE_STAMP), (now + 0.7) / 1000, (now + 0.7) / 1000);
		expect(lstatSync(join(root, PRUNE_STAMP)).mtimeMs).toBeGreaterThan(now);
		expect(pruneArtifactsWhenDue(root, { now })).toBeUndefined();
		expect(readdirSync(root).sort()).toEqual([PRUNE_STAMP, "stale-1"]);
	});

	it("does not trust a stamp that is a symlink, and replaces the link without writing through it", () => {
		const root = rootWithStale();
		const outside = join(tempRoot(), "target");
		writeFileSync(outside, "not yours to touch");
		symlinkSync(outside, join(root, PRUNE_STAMP));
		expect(pruneArtifactsWhenDue(root)).toEqual(["stale-1"]);
		expect(readFileSync(outside, "utf8")).toBe("not yours to touch");
		expect(lstatSync(join(root, PRUNE_STAMP)).isFile()).toBe(true);
	});

	it("does not trust a stamp that is a fifo or a directory, never opens the fifo, and replaces it with a stamp", () => {
		const root = rootWithStale();
		execFileSync("mkfifo", [join(root, PRUNE_STAMP)]);
		expect(artifactPruneDue(root)).toBe(true);
		// Opening the fifo would block here for ever: the stamp replaces it by a rename.
		expect(pruneArtifactsWhenDue(root)).toEqual(["stale-1"]);
		expect(lstatSync(join(root, PRUNE_STAMP)).isFile()).toBe(true);
		rmSync(join(root, PRUNE_STAMP));
		mkdirSync(join(root, PRUNE_STAMP));
		sessionDir(root, "stale-2", 10, 8);
		// A directory cannot be replaced by a file: every start prunes, and nothing throws.
		expect(pruneArtifactsWhenDue(root)).toEqual(["stale-2"]);
		expect(lstatSync(join(root, PRUNE_STAMP)).isDirectory()).toBe(true);
		expect(artifactPruneDue(root)).toBe(true);
	});

	it("does not trust a stamp dated in the future or writable by others", () => {
		const root = rootWithStale();
		writeFileSync(join(root, PRUNE_STAMP), "x", { mode: 0o600 });
		const future = new Date(Date.now() + 24 * 60 * 60 * 1000);
		utimesSync(join(root, PRUNE_STAMP), future, future);
		expect(pruneArtifactsWhenDue(root)).toEqual(["stale-1"]);
		sessionDir(root, "stale-2", 10, 8);
		chmodSync(join(root, PRUNE_STAMP), 0o666);
		expect(pruneArtifactsWhenDue(root)).toEqual(["stale-2"]);
	});

	it.skipIf(process.getuid?.() !== 0)("does not trust a stamp another user owns", () => {
		const root = rootWithStale();
		writeFileSync(join(root, PRUNE_STAMP), "x", { mode: 0o600 });
		chownSync(join(root, PRUNE_STAMP), NOBODY, NOBODY);
		expect(pruneArtifactsWhenDue(root)).toEqual(["stale-1"]);
		expect(lstatSync(join(root, PRUNE_STAMP)).uid).toBe(0);
	});

	it("does not trust a stamp in a root others may write to, nor one hard-linked from another file", () => {
		const root = rootWithStale();
		// A fresh stamp of ours, then the root opened to others (who could plant or link a file of ours in it).
		expect(pruneArtifactsWhenDue(root)).toEqual(["stale-1"]);
		sessionDir(root, "stale-2", 10, 8);
		chmodSync(root, 0o777);
		expect(pruneArtifactsWhenDue(root)).toEqual(["stale-2"]);
		// Private again: a stamp that is a hard link of a file elsewhere (its mtime is that file's) is not trusted.
		chmodSync(root, 0o700);
		sessionDir(root, "stale-3", 10, 8);
		const elsewhere = join(tempRoot(), "often-touched");
		writeFileSync(elsewhere, "x", { mode: 0o600 });
		rmSync(join(root, PRUNE_STAMP), { force: true });
		linkSync(elsewhere, join(root, PRUNE_STAMP));
		expect(pruneArtifactsWhenDue(root)).toEqual(["stale-3"]);
		expect(lstatSync(join(root, PRUNE_STAMP)).nlink).toBe(1);
		expect(readFileSync(elsewhere, "utf8")).toBe("x");
	});

	it("makes a missing root (0700) to keep its stamp, so a machine that never wrote an artifact measures nothing at the next start", () => {
		const root = join(tempRoot(), "never-written");
		expect(artifactPruneDue(root)).toBe(true);
		expect(pruneArtifactsWhenDue(root)).toEqual([]);
		expect(lstatSync(root).mode & 0o777).toBe(0o700);
		expect(readdirSync(root)).toEqual([PRUNE_STAMP]);
		expect(artifactPruneDue(root)).toBe(false);
		expect(pruneArtifactsWhenDue(root)).toBeUndefined();
	});

	it("says the prune is due exactly when pruneArtifactsWhenDue would prune (the session start asks it first)", () => {
		const root = rootWithStale();
		expect(artifactPruneDue(root)).toBe(true);
		pruneArtifactsWhenDue(root);
		expect(artifactPruneDue(root)).toBe(false);
		age(join(root, PRUNE_STAMP), ARTIFACT_PRUNE_INTERVAL_MS + 1000);
		expect(artifactPruneDue(root)).toBe(true);
		chmodSync(join(root, PRUNE_STAMP), 0o666);
		expect(artifactPruneDue(root, Date.now() - 1000, ARTIFACT_PRUNE_INTERVAL_MS * 10)).toBe(true);
		chmodSync(join(root, PRUNE_STAMP), 0o600);
		expect(artifactPruneDue(root, Date.now(), ARTIFACT_PRUNE_INTERVAL_MS * 10)).toBe(false);
	});

	it("writes no stamp in a root others may write to, so every session start prunes there", () => {
		const root = rootWithStale();
		chmodSync(root, 0o777);
		expect(pruneArtifactsWhenDue(root)).toEqual(["stale-1"]);
		expect(readdirSync(root)).toEqual([]);
	});
});
