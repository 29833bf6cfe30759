/**
 * The children this process has started and still runs, of every kind that can change the filesystem: a
 * harness child (headless or interactive) and a graph's command gate. A child whose call was planned while
 * another ran, or before another started, is checked by its harness again as it starts (docs/rules.md
 * §Child processes).
 */
let started = 0;
let running = 0;

/**
 * Counts one start; call it as a child is about to be started.
 * @returns the end of that child, to call once (more calls count nothing) when its process is gone.
 */
export function noteChildStart(): () => void {
	started++;
	running++;
	let ended = false;
	return () => {
		if (ended) return;
		ended = true;
		running--;
	};
}

/** Where the count stands: starts so far, and children running now. */
export function childActivity(): { started: number; running: number } {
	return { started, running };
}
