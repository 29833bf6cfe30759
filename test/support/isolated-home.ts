/**
 * The one builder behind the isolated pi, codex and claude homes: a fresh temp dir with named
 * subdirectories, the variables that point a binary at them (plus the caller's extra variables, which
 * win), and a cleanup that waits until nothing started with them runs, then removes it all. Nothing under the real `~/.pi`, `~/.codex` or `~/.claude` is
 * ever read or written by a binary started with `env`.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { releaseDirectories } from "./teardown.ts";
import { makeTempDir } from "./temp-dir.ts";

/** A home: `dir`, one absolute path per named subdirectory, `env` and `cleanup()`. */
export type IsolatedHome<Name extends string> = Record<Name, string> & {
	/** The temp dir holding everything; removed by `cleanup()`. */
	dir: string;
	/** Variables to lay over the parent's environment when spawning the binary. */
	env: Record<string, string>;
	/**
	 * Waits until no process uses `dir` (by an environment entry or its working directory: whatever was
	 * started with `env`, wherever it went), then removes `dir` (a missing one is fine). Rejects, naming
	 * them, when processes are still there after the teardown deadline (they are SIGKILLed, `dir` still goes).
	 */
	cleanup(): Promise<void>;
};

/**
 * Creates `<tmpdir>/<prefix>XXXXXX` with each of `subdirs` (name → relative path) inside it.
 * @param env the variables for the created paths; `extraEnv` is laid over them.
 */
export function createIsolatedHome<Name extends string>(
	prefix: string,
	subdirs: Record<Name, string>,
	env: (paths: Record<Name, string>) => Record<string, string>,
	extraEnv: Record<string, string> = {},
): IsolatedHome<Name> {
	const dir = makeTempDir(prefix);
	const paths = Object.fromEntries(
		Object.entries<string>(subdirs).map(([name, relative]) => [name, join(dir, relative)]),
	) as Record<Name, string>;
	for (const path of Object.values<string>(paths)) mkdirSync(path, { recursive: true });
	return {
		...paths,
		dir,
		env: { ...env(paths), ...extraEnv },
		cleanup: () => releaseDirectories([dir]),
	};
}
