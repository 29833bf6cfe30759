/**
 * Path rules for rosters, resources and ad-hoc calls (docs/rules.md §Paths and child environments).
 *
 * | path                                                  | resolves against                              |
 * |-------------------------------------------------------|-----------------------------------------------|
 * | `cwd`, `roster_file`, resources inside a roster file   | the roster file's own directory (lexical)     |
 * | the same inside the settings file                     | `<agentDir>/extensions`                       |
 * | `agent_file` of a normalized role                     | the file that contains it                     |
 * | ad-hoc `cwd`                                          | the tool context cwd                          |
 * | ad-hoc `resources` and `roster_file`                  | the effective child cwd                       |
 * | `PI_AGENTSHELL_ROSTER_FILE` (relative)                | the parent process cwd at extension load      |
 *
 * Paths become absolute with `path.resolve`; symlinks are never canonicalized (no `realpath`), so a
 * symlinked roster uses the selected pathname's directory.
 *
 * Nothing is expanded: not `~`, not `$VAR`, not URLs or package selectors. Decision (the spec only says
 * they are not expanded): a path starting with `~` or looking like a URL / package selector
 * (`https://…`, `npm:…`, `git:…`) is rejected up front with a message saying so, because it can never
 * be meant literally; a path containing `$` is taken literally and, when it then does not exist, the
 * "does not exist" message adds that variables are not expanded.
 */
import { accessSync, constants, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { LaunchError } from "../core/launch-error.ts";

/** What a path must be: a regular file, a directory, or either. */
export type PathKind = "file" | "dir" | "any";

const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const PACKAGE_SELECTOR = /^(npm|git|github|gitlab|jsr|pnpm|yarn|file):/i;

/**
 * Checks that a raw path string is a literal local path this package can use. Pure.
 * @returns a problem message (without location), or `null` when acceptable.
 */
export function literalPathProblem(raw: string): string | null {
	if (raw.trim() === "") return "path must not be empty";
	if (raw.startsWith("~")) {
		return `"${raw}": "~" is not expanded; write an absolute path or one relative to the documented base directory`;
	}
	if (URL_LIKE.test(raw) || PACKAGE_SELECTOR.test(raw)) {
		return `"${raw}": URLs and package selectors are not supported; provision a local file or directory and give its path`;
	}
	if (raw.includes("\0")) return "path must not contain NUL bytes";
	return null;
}

/**
 * Resolves `raw` against `base` lexically (`path.resolve`, symlinks kept).
 * @throws LaunchError naming `where` when `raw` is not a usable literal path.
 */
export function resolveLexical(base: string, raw: string, where: string): string {
	const problem = literalPathProblem(raw);
	if (problem !== null) throw new LaunchError(`${where}: ${problem}`);
	return resolve(base, raw);
}

function kindName(kind: PathKind): string {
	return kind === "file" ? "a regular file" : kind === "dir" ? "a directory" : "a file or directory";
}

/**
 * Checks that an absolute path exists, is of `kind` (following symlinks) and is readable. Returns a
 * problem message prefixed with `where`, or `null`. Never throws.
 */
export function existingPathProblem(path: string, kind: PathKind, where: string): string | null {
	let stats: ReturnType<typeof statSync>;
	try {
		stats = statSync(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") {
			const hint = path.includes("$") ? " (environment variables are not expanded)" : "";
			return `${where}: ${path} does not exist${hint}`;
		}
		return `${where}: cannot access ${path} (${code})`;
	}
	if (kind === "file" && !stats.isFile()) return `${where}: ${path} is not ${kindName(kind)}`;
	if (kind === "dir" && !stats.isDirectory()) return `${where}: ${path} is not ${kindName(kind)}`;
	if (kind === "any" && !stats.isFile() && !stats.isDirectory()) {
		return `${where}: ${path} is not ${kindName(kind)}`;
	}
	try {
		accessSync(path, stats.isDirectory() ? constants.R_OK | constants.X_OK : constants.R_OK);
	} catch {
		return `${where}: ${path} is not readable`;
	}
	return null;
}

/**
 * Throws unless `path` exists as `kind` and is readable.
 * @param where what the path is, for the message (e.g. `roster /a/roster.json: roster.roles[0] "x": cwd`).
 * @throws LaunchError "<where>: <path> does not exist" / "is not a directory" / "is not readable".
 */
export function requireExisting(path: string, kind: PathKind, where: string): void {
	const problem = existingPathProblem(path, kind, where);
	if (problem !== null) throw new LaunchError(problem);
}

/**
 * Resolves `raw` against `base` and checks it exists as `kind`; collects the problem instead of
 * throwing, so validators can list every problem. Returns the absolute lexical path (even when a
 * problem was found, so callers can keep going).
 */
export function resolveExisting(base: string, raw: string, kind: PathKind, where: string, problems: string[]): string {
	const literal = literalPathProblem(raw);
	if (literal !== null) {
		problems.push(`${where}: ${literal}`);
		return resolve(base, raw);
	}
	const path = resolve(base, raw);
	const problem = existingPathProblem(path, kind, where);
	if (problem !== null) problems.push(problem);
	return path;
}

/** Base directory of paths inside a roster file: the selected pathname's directory (no realpath). */
export function rosterBaseDir(rosterFile: string): string {
	return dirname(resolve(rosterFile));
}

/** The personal settings file, `<agentDir>/extensions/agentshell.json` (README.md "Settings"). */
export function settingsFilePath(agentDir: string): string {
	return join(agentDir, "extensions", "agentshell.json");
}

/** Base directory of roster paths inside the personal settings file: `<agentDir>/extensions`. */
export function settingsBaseDir(agentDir: string): string {
	return join(agentDir, "extensions");
}

/**
 * The roster file selected by `PI_AGENTSHELL_ROSTER_FILE`, absolute: a relative value resolves against
 * the parent process cwd when the extension loads. Empty or unset → `undefined` (no override).
 * Existence is checked by the roster loader, which reports the file.
 * @throws LaunchError for `~`/URL values.
 */
export function resolveRosterOverride(value: string | undefined, processCwd: string): string | undefined {
	if (value === undefined || value === "") return undefined;
	return resolveLexical(processCwd, value, "PI_AGENTSHELL_ROSTER_FILE");
}

/**
 * The effective cwd of an ad-hoc call: `cwd` against the tool context cwd, or the context cwd itself.
 * @throws LaunchError when the directory does not exist or is not a directory.
 */
export function resolveAdHocCwd(contextCwd: string, cwd: string | undefined): string {
	if (cwd === undefined) return contextCwd;
	const path = resolveLexical(contextCwd, cwd, "cwd");
	requireExisting(path, "dir", "cwd");
	return path;
}

/**
 * An ad-hoc resource path or `roster_file`, resolved against the effective child cwd and checked.
 * @throws LaunchError naming `where` when missing or of the wrong kind.
 */
export function resolveAdHocPath(childCwd: string, raw: string, kind: PathKind, where: string): string {
	const path = resolveLexical(childCwd, raw, where);
	requireExisting(path, kind, where);
	return path;
}
