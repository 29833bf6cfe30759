/**
 * Whether a process or a process group exists, asked of the kernel with signal 0 (`kill(2)`): nothing is
 * sent. A zombie counts until it is reaped; a process of another user (EPERM) exists. In `runs/`, not
 * `process/`: the session-start sweep (`leftovers.ts`) uses it, and a session start loads no process module.
 */

/**
 * True while `target` exists: a pid, or a process group as `-pgid`.
 * @param target a pid (> 0) or a negated process group id.
 */
export function signalTargetExists(target: number): boolean {
	try {
		process.kill(target, 0);
		return true;
	} catch (error) {
		// EPERM: it exists, as another user's process.
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}
