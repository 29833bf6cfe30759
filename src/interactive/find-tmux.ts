/** Locating the tmux executable that interactive runs need (docs/interactive.md). */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * The tmux executable on `PATH` (absolute), or `undefined` when there is none.
 * @param path a `PATH` value; default `process.env.PATH`.
 */
export function findTmux(path = process.env.PATH ?? ""): string | undefined {
	for (const dir of path.split(delimiter)) {
		if (!dir) continue;
		const file = join(dir, "tmux");
		try {
			accessSync(file, constants.X_OK);
			return file;
		} catch {
			// not here
		}
	}
	return undefined;
}
