/**
 * Vitest global setup: every test process, and every process a test starts, gets one private temporary
 * directory of this run as `TMPDIR` (`<system tmp>/pns-tests-XXXXXX`), removed when the run
 * ends. Each test still removes what it made; this takes what a test left behind (its temp homes, roots and
 * run directories) with the run instead of leaving it in the system temp dir, where it piled up into thousands
 * of entries that every session start's sweep (src/runs/leftovers.ts) then had to list. The name is short:
 * tmux socket paths under it (a temp home, then a tmux dir) must stay within the 108 bytes of a socket address.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
	const dir = mkdtempSync(join(tmpdir(), "pns-tests-"));
	const previous = process.env.TMPDIR;
	process.env.TMPDIR = dir;
	return () => {
		if (previous === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = previous;
		rmSync(dir, { recursive: true, force: true });
	};
}
