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
 * "does not exist" message adds that variables are not expanded, and for `${…}` (a graph's ValueRef or
 * template, say) that nothing is filled in.
 */
import { accessSync, constants, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ConfigError } from "../core/config-error.ts";
import { Problems } from "../core/problems.ts";
import { kindOf, userFileMissing } from "../core/user-file.ts";

/** What a path must be: a regular file, a directory, or either. */
export type PathKind = "file" | "dir" | "any";

const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const PACKAGE_SELECTOR = /^(npm|git|github|gitlab|jsr|pnpm|yarn|file):/i;

/**
 * Checks that a raw path string is a literal local path this package can use. Pure.
 * @param base the absolute directory a relative `raw` resolves against, named in the `~` message.
 * @returns true when it is; otherwise the reason is added to `problems`.
 */
export function checkLiteralPath(raw: string, base: string, problems: Problems): boolean {
	const before = problems.size;
	if (raw.trim() === "") problems.add("path must not be empty");
	else if (raw.startsWith("~")) {
		problems.add(`"${raw}": "~" is not expanded; write an absolute path or one relative to ${base}`);
	} else if (URL_LIKE.test(raw) || PACKAGE_SELECTOR.test(raw)) {
		problems.add(
			`"${raw}": URLs and package selectors are not supported; provision a local file or directory and give its path`,
		);
	} else if (raw.includes("\0")) problems.add("path must not contain NUL bytes");
	return problems.size === before;
}

function kindName(kind: PathKind): string {
	return kind === "file" ? "a regular file" : kind === "dir" ? "a directory" : "a file or directory";
}

/**
 * Checks that an absolute path exists, is of `kind` (following symlinks) and is readable; the reason it is
 * not ("<path> does not exist" / "is not a directory (a regular file)" / "is not readable") is added to `problems`.
 * @returns true when it is usable.
 */
export function checkExisting(path: string, kind: PathKind, problems: Problems): boolean {
	let stats: ReturnType<typeof statSync>;
	try {
		stats = statSync(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const hint = path.includes("${")
			? " (taken as written: ValueRefs, templates and environment variables are not filled in here)"
			: path.includes("$")
				? " (environment variables are not expanded)"
				: "";
		problems.add(
			code === "ENOENT" || code === "ENOTDIR" ? `${path} does not exist${hint}` : `cannot access ${path} (${code})`,
		);
		return false;
	}
	const isKind =
		kind === "file" ? stats.isFile() : kind === "dir" ? stats.isDirectory() : stats.isFile() || stats.isDirectory();
	if (!isKind) {
		problems.add(`${path} is not ${kindName(kind)} (${kindOf(stats)})`);
		return false;
	}
	try {
		accessSync(path, stats.isDirectory() ? constants.R_OK | constants.X_OK : constants.R_OK);
	} catch {
		problems.add(`${path} is not readable`);
		return false;
	}
	return true;
}

/**
 * Resolves `raw` against `base` lexically (`path.resolve`, symlinks kept) and checks it exists as `kind`,
 * adding what is wrong to `problems` (label it with what the path is, e.g. `roster.roles[0] "x": cwd`).
 * Returns the absolute lexical path even when a problem was found, so callers can keep going.
 */
export function resolveExisting(base: string, raw: string, kind: PathKind, problems: Problems): string {
	const path = resolve(base, raw);
	if (checkLiteralPath(raw, base, problems)) checkExisting(path, kind, problems);
	return path;
}

/** Base directory of paths inside a roster file: the selected pathname's directory (no realpath). */
export function rosterBaseDir(rosterFile: string): string {
	return dirname(resolve(rosterFile));
}

/** The personal settings file, `<agentDir>/extensions/agentshell.json` (docs/settings.md §Settings file). */
export function settingsFilePath(agentDir: string): string {
	return join(agentDir, "extensions", "agentshell.json");
}

/**
 * Whether the personal settings file is there to read: anything `readUserFile` does not call missing counts
 * ({@link userFileMissing}), so an unreadable one (a symlink loop, EACCES) is read and reported as malformed, which
 * removes no child session (docs/rules.md §Child sessions), instead of taken for an absent one. Never throws.
 */
export function settingsFilePresent(agentDir: string): boolean {
	return !userFileMissing(settingsFilePath(agentDir));
}

/** Base directory of roster paths inside the personal settings file: `<agentDir>/extensions`. */
export function settingsBaseDir(agentDir: string): string {
	return join(agentDir, "extensions");
}

/**
 * The roster file selected by `PI_AGENTSHELL_ROSTER_FILE`, absolute: a relative value resolves against
 * the parent process cwd when the extension loads. Empty or unset → `undefined` (no override).
 * Existence is checked by the roster loader, which reports the file.
 * @throws ConfigError naming the variable for `~`/URL values.
 */
export function resolveRosterOverride(value: string | undefined, processCwd: string): string | undefined {
	if (value === undefined || value === "") return undefined;
	const problems = new Problems("PI_AGENTSHELL_ROSTER_FILE");
	if (!checkLiteralPath(value, processCwd, problems)) throw new ConfigError(problems.list);
	return resolve(processCwd, value);
}

/**
 * The effective cwd of an ad-hoc call: `cwd` against the tool context cwd, or the context cwd itself.
 * @returns `undefined` when the directory is unusable, with the reason added to `problems` as `cwd: …`.
 */
export function resolveAdHocCwd(contextCwd: string, cwd: string | undefined, problems: Problems): string | undefined {
	if (cwd === undefined) return contextCwd;
	return resolveAdHocPath(contextCwd, cwd, "dir", problems.at("cwd"));
}

/**
 * An ad-hoc path (`cwd`, a resource, `roster_file`) resolved against `base` and checked.
 * @returns `undefined` when it is unusable, with the reason added to `problems` (labelled by the caller).
 */
export function resolveAdHocPath(base: string, raw: string, kind: PathKind, problems: Problems): string | undefined {
	const before = problems.size;
	const path = resolveExisting(base, raw, kind, problems);
	return problems.size === before ? path : undefined;
}
