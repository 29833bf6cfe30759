/**
 * Test-only fault injection (docs/development.md §Fault injection), enabled only by two environment variables
 * a test sets; without them every function here is a no-op pass-through.
 *
 * - `PI_NATIVE_SUBAGENTS_TEST_FS_FAULT=<op>:<code>:<name part>[:<nth>]` makes the nth (default 1st) call of
 *   `op` (`write`, `fsync` or `rename`) on a path whose last component contains `<name part>` fail with
 *   `code` (`ENOSPC`, `EIO`, …), as a full disk or a failing device would; later calls succeed. A rename is
 *   matched by its target, a directory fsync by the directory's name.
 * - `PI_NATIVE_SUBAGENTS_TEST_FAULT=<point>` SIGKILLs this process when the code reaches `<point>` (e.g.
 *   `after-disposition`: a control's disposition is durable, its effect not yet applied).
 */

import { basename } from "node:path";

/** The variable of the fs fault. */
export const FS_FAULT_ENV = "PI_NATIVE_SUBAGENTS_TEST_FS_FAULT";
/** The variable of the kill fault point. */
export const KILL_FAULT_ENV = "PI_NATIVE_SUBAGENTS_TEST_FAULT";

/** The write operations a fault can hit. */
export type FsFaultOp = "write" | "fsync" | "rename";

const seen = new Map<string, number>();

/**
 * Throws the configured error when `op` on `path` is the faulty call.
 * @throws an `Error` with `code` set (like a `NodeJS.ErrnoException`) when the fault fires.
 */
export function fsFault(op: FsFaultOp, path: string, env: NodeJS.ProcessEnv = process.env): void {
	const spec = env[FS_FAULT_ENV];
	if (!spec) return;
	const [faultOp, code, part, nth] = spec.split(":");
	if (faultOp !== op || !part || !basename(path).includes(part)) return;
	const count = (seen.get(spec) ?? 0) + 1;
	seen.set(spec, count);
	if (count !== Number(nth ?? 1)) return;
	// Without the path, as the system reports a failed write or fsync (`ENOSPC: no space left on device, write`).
	const error = new Error(`${code}: injected ${op} fault`) as NodeJS.ErrnoException;
	error.code = code;
	throw error;
}

/** SIGKILLs this process when `point` is the configured kill fault point. */
export function killFaultPoint(point: string, env: NodeJS.ProcessEnv = process.env): void {
	if (env[KILL_FAULT_ENV] === point) process.kill(process.pid, "SIGKILL");
}
