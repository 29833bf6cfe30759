/**
 * Whether a path a file chose stays inside a directory, symlinks included: used for a project agent's
 * `output` file (docs/agent-libraries.md §pi format), which must not let a project make this package write
 * outside the child's cwd.
 */
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";

/**
 * True when `target` (absolute) is `dir` or below it once every existing part of both is resolved through
 * symlinks (`target` need not exist: its nearest existing ancestor is resolved and the rest appended).
 * Never throws; a directory that cannot be resolved contains nothing.
 */
export function isInsideDirectory(dir: string, target: string): boolean {
	let root: string;
	try {
		root = realpathSync(dir);
	} catch {
		return false;
	}
	const rel = relative(root, realOfNearestExisting(resolve(target)));
	return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** `path` with its longest existing prefix resolved through symlinks. */
function realOfNearestExisting(path: string): string {
	const rest: string[] = [];
	for (let at = path; ; at = dirname(at)) {
		try {
			return join(realpathSync(at), ...rest);
		} catch {
			if (dirname(at) === at) return path;
			rest.unshift(basename(at));
		}
	}
}
