/**
 * The upkeep at a session start (src/runs/session-start-sweep.ts): the leftovers sweep of dead Pi processes'
 * run and tmux directories (SECURITY.md "Data") runs with the hourly artifact prune (docs/tools.md §Artifacts),
 * so it is skipped only within the hour of a stamp this user wrote in a private root of its own.
 */
import { chownSync, existsSync, lstatSync, mkdirSync, readdirSync, symlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ARTIFACT_PRUNE_INTERVAL_MS, artifactRoot, PRUNE_STAMP } from "../../src/runs/artifact-root.ts";
import { RUN_DIR_PREFIX, TMUX_DIR_PREFIX } from "../../src/runs/leftovers.ts";
import { sweepAtSessionStart } from "../../src/runs/session-start-sweep.ts";
import { tempDirsRemovedAfter } from "../support/temp-dir.ts";

const tempDir = tempDirsRemovedAfter(afterEach);
/** Above any Linux `pid_max` (at most 2^22): no process has it, so its maker is gone. */
const DEAD_PID = 999_999_999;
const NOBODY = 65534;

/** Runs `body` with `TMPDIR` = a fresh temp dir (the system's own is shared with every other run). */
function inTempDir(body: (tmp: string) => void): void {
	const tmp = tempDir("session-start-sweep-");
	const saved = process.env.TMPDIR;
	process.env.TMPDIR = tmp;
	try {
		body(tmp);
	} finally {
		if (saved === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = saved;
	}
}

/** A run or tmux directory a dead Pi left in `tmp`, named `<prefix><dead pid>-<suffix>`. */
function leftover(tmp: string, prefix: string, suffix: string): string {
	const dir = join(tmp, `${prefix}${DEAD_PID}-${suffix}`);
	mkdirSync(dir);
	return dir;
}

describe("the leftovers sweep at a session start", () => {
	it("sweeps a dead Pi's run and tmux directories when the hourly prune is due, not again within the hour", () => {
		inTempDir((tmp) => {
			const first = [leftover(tmp, RUN_DIR_PREFIX, "AbC123"), leftover(tmp, TMUX_DIR_PREFIX, "AbC123")];
			sweepAtSessionStart("session-1");
			expect(first.filter((dir) => existsSync(dir))).toEqual([]);
			const stamp = join(artifactRoot(), PRUNE_STAMP);
			expect(lstatSync(stamp).isFile()).toBe(true);
			// Within the hour: left for the next due start.
			const second = leftover(tmp, RUN_DIR_PREFIX, "DeF456");
			sweepAtSessionStart("session-2");
			expect(existsSync(second)).toBe(true);
			const hourAgo = new Date(Date.now() - ARTIFACT_PRUNE_INTERVAL_MS - 1000);
			utimesSync(stamp, hourAgo, hourAgo);
			sweepAtSessionStart("session-3");
			expect(existsSync(second)).toBe(false);
		});
	});

	it("sweeps at every session start while the root's name is a symlink, trusting no stamp behind it and writing none there", () => {
		inTempDir((tmp) => {
			// A private directory of ours with a fresh stamp of ours, and the root's name linked to it.
			const target = join(tmp, "elsewhere");
			mkdirSync(target, { mode: 0o700 });
			sweepAtSessionStart("session-0", target);
			expect(readdirSync(target)).toEqual([PRUNE_STAMP]);
			symlinkSync(target, artifactRoot());
			for (const suffix of ["AbC123", "DeF456"]) {
				const dir = leftover(tmp, RUN_DIR_PREFIX, suffix);
				sweepAtSessionStart("session-1");
				expect(existsSync(dir)).toBe(false);
			}
			expect(lstatSync(artifactRoot()).isSymbolicLink()).toBe(true);
			expect(readdirSync(target)).toEqual([PRUNE_STAMP]);
		});
	});

	// Root can give a directory to another user; anyone else cannot stage this on their own.
	it.skipIf(process.getuid?.() !== 0)(
		"sweeps at every session start while the root is another user's (made first in a shared temp dir)",
		() => {
			inTempDir((tmp) => {
				mkdirSync(artifactRoot(), { mode: 0o700 });
				chownSync(artifactRoot(), NOBODY, NOBODY);
				for (const suffix of ["AbC123", "DeF456"]) {
					const dir = leftover(tmp, TMUX_DIR_PREFIX, suffix);
					sweepAtSessionStart("session-1");
					expect(existsSync(dir)).toBe(false);
				}
				expect(readdirSync(artifactRoot())).toEqual([]);
			});
		},
	);
});
