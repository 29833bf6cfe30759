/**
 * Deferred module loads, one at a time per process: Pi's loader (jiti) can hand out a half-evaluated module
 * when two imports of overlapping module graphs run at once, so every load queued here waits for the one
 * before it (docs/design-notes.md §Start-up cost).
 */

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs `load` once every load queued before it has settled; resolves or rejects with its outcome.
 * `load` must not itself wait for another queued load (it would wait for itself).
 */
export function loadSerially<T>(load: () => Promise<T>): Promise<T> {
	const next = queue.then(load);
	queue = next.catch(() => undefined);
	return next;
}

/**
 * `load`, queued ({@link loadSerially}) on the first call and remembered: every call returns the same promise
 * (a rejection too, so a module that failed to load is not imported again).
 */
export function deferred<T>(load: () => Promise<T>): () => Promise<T> {
	let loaded: Promise<T> | undefined;
	return () => {
		loaded ??= loadSerially(load);
		return loaded;
	};
}

/** `make`, run on the first call and remembered (not queued: `make` may wait for queued loads). */
export function remembered<T>(make: () => T): () => T {
	let made: { value: T } | undefined;
	return () => {
		made ??= { value: make() };
		return made.value;
	};
}
