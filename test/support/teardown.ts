/**
 * Teardown that owns what a test started: wait until no process of an isolated home is left, then remove
 * its directories with a removal that walks the tree again until a deadline. `rmSync`'s own `maxRetries`
 * cannot do that: Node lists a directory once and retries only the final `rmdir`, so a process still
 * writing into the tree (pi's compile cache) defeats it with ENOTEMPTY.
 */
import { rmSync } from "node:fs";
import { setTimeout as pause } from "node:timers/promises";
import { commandLineOf, processesUsing } from "./processes.ts";

/** How long a teardown waits for processes to end, and for a tree to be removed (ms). */
export const TEARDOWN_DEADLINE_MS = 30_000;
/** Pause between two looks at /proc or two removal attempts (ms): a poll interval, not a wait for something. */
const POLL_MS = 50;

/**
 * Resolves once no live process uses `dirs` (see `processesUsing`: by environment or working directory).
 * @throws Error naming each process (pid and command line) still there after `timeoutMs`; those are
 *   SIGKILLed first, so the caller can still remove the directories.
 */
export async function waitUntilNoProcessUses(dirs: readonly string[], timeoutMs = TEARDOWN_DEADLINE_MS): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (let left = processesUsing(dirs); left.length > 0; left = processesUsing(dirs)) {
		if (Date.now() > deadline) {
			const named = left.map((pid) => `${pid} (${commandLineOf(pid)})`);
			killAll(left);
			await pollUntilNone(dirs);
			throw new Error(
				`still running ${timeoutMs} ms after the test was done with ${dirs.join(", ")}: ${named.join("; ")}`,
			);
		}
		await pause(POLL_MS);
	}
}

/**
 * Removes `dir` and everything in it (a missing `dir` is fine). Each attempt walks the whole tree again,
 * so files a late writer added are removed too; retried on ENOTEMPTY, EBUSY and EPERM until `timeoutMs`.
 * @throws the last removal error after `timeoutMs`.
 */
export async function removeTree(dir: string, timeoutMs = TEARDOWN_DEADLINE_MS): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			rmSync(dir, { recursive: true, force: true });
			return;
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code ?? "";
			if (!["ENOTEMPTY", "EBUSY", "EPERM"].includes(code) || Date.now() > deadline) throw error;
		}
		await pause(POLL_MS);
	}
}

/** `waitUntilNoProcessUses(dirs)`, then `removeTree` of each of `dirs`. */
export async function releaseDirectories(dirs: readonly string[]): Promise<void> {
	try {
		await waitUntilNoProcessUses(dirs);
	} finally {
		for (const dir of dirs) await removeTree(dir);
	}
}

function killAll(pids: readonly number[]): void {
	for (const pid of pids) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {
			// Already gone.
		}
	}
}

/** After a SIGKILL: the kernel ends the processes soon, but asynchronously. Bounded by the teardown deadline. */
async function pollUntilNone(dirs: readonly string[]): Promise<void> {
	const deadline = Date.now() + TEARDOWN_DEADLINE_MS;
	while (processesUsing(dirs).length > 0 && Date.now() <= deadline) {
		killAll(processesUsing(dirs));
		await pause(POLL_MS);
	}
}
