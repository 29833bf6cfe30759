/**
 * Portable skill discovery for prompt references (docs/rules.md §Selected skills for codex and claude children). Runs
 * on every launch and resume; nothing is cached.
 *
 * For each selected path (absolute, lexical):
 * - a readable regular file selects itself, whatever its name;
 * - a directory containing `SKILL.md` selects that file and discovery stops at that root;
 * - otherwise each child directory is searched for skill roots, skipping hidden directories and
 *   `node_modules`; other files (unrelated Markdown included) are never selected.
 *
 * Paths stay lexical (built with `path.join` from the selection, symlink names kept); directory cycles
 * are detected by physical identity (`dev` + `ino`) of the ancestors. The result is sorted and exact
 * duplicates removed; two lexical paths to one physical file stay distinct. This is not Pi's native
 * loader: no YAML is parsed and no ignore files are read.
 */
import { accessSync, constants, type Dirent, readdirSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import type { Problems } from "../core/problems.ts";
import { kindOf } from "../core/user-file.ts";

const SKILL_FILE = "SKILL.md";

function errorCode(error: unknown): string {
	return (error as NodeJS.ErrnoException).code ?? String(error);
}

function identity(stats: Stats): string {
	return `${stats.dev}:${stats.ino}`;
}

function isReadable(path: string): boolean {
	try {
		accessSync(path, constants.R_OK);
		return true;
	} catch {
		return false;
	}
}

interface Walk {
	files: string[];
	/** Labelled with the selection (`<where>[i]`). */
	problems: Problems;
}

/** Searches `dir` for skill roots; returns how many skill files it selected. */
function walk(dir: string, dirStats: Stats, ancestors: readonly string[], state: Walk): number {
	const id = identity(dirStats);
	if (ancestors.includes(id)) {
		state.problems.add(`directory cycle at ${dir} (it is one of its own ancestors)`);
		return 0;
	}
	const skillPath = join(dir, SKILL_FILE);
	let skillStats: Stats | undefined;
	try {
		skillStats = statSync(skillPath);
	} catch (error) {
		if (errorCode(error) !== "ENOENT") {
			state.problems.add(`cannot access ${skillPath} (${errorCode(error)})`);
			return 0;
		}
	}
	if (skillStats !== undefined) {
		if (!skillStats.isFile()) {
			state.problems.add(`${skillPath} is not a regular file (${kindOf(skillStats)})`);
			return 0;
		}
		if (!isReadable(skillPath)) {
			state.problems.add(`${skillPath} is not readable`);
			return 0;
		}
		state.files.push(skillPath);
		return 1;
	}
	let children: Dirent[];
	try {
		children = readdirSync(dir, { withFileTypes: true });
	} catch (error) {
		state.problems.add(`cannot list directory ${dir} (${errorCode(error)})`);
		return 0;
	}
	children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	let found = 0;
	for (const child of children) {
		if (child.name.startsWith(".") || child.name === "node_modules") continue;
		if (!child.isDirectory() && !child.isSymbolicLink()) continue;
		const childPath = join(dir, child.name);
		let childStats: Stats;
		try {
			childStats = statSync(childPath);
		} catch (error) {
			state.problems.add(`cannot follow ${childPath} (${errorCode(error)})`);
			continue;
		}
		if (!childStats.isDirectory()) continue;
		found += walk(childPath, childStats, [...ancestors, id], state);
	}
	return found;
}

/**
 * Expands selected skill paths into the skill files to reference.
 *
 * @param selections absolute lexical paths (files or directories), e.g. a resolved `resources.skills`.
 * @param where names the selection in messages, e.g. `roster entry "x": resources.skills`; each adds `[i]`.
 * @returns absolute lexical file paths, sorted, exact duplicates removed; `[]` for no selections. Every
 *   problem is added to `problems`: a missing, unreadable or non-regular selected path, a failed traversal,
 *   a directory cycle, or a selected directory with no skill files.
 */
export function discoverSkillFiles(selections: readonly string[], where: string, problems: Problems): string[] {
	const files: string[] = [];
	selections.forEach((selection, index) => {
		const state: Walk = { files, problems: problems.at(`${where}[${index}]`) };
		let stats: Stats;
		try {
			stats = statSync(selection);
		} catch (error) {
			const code = errorCode(error);
			state.problems.add(
				code === "ENOENT" || code === "ENOTDIR"
					? `${selection} does not exist`
					: `cannot access ${selection} (${code})`,
			);
			return;
		}
		if (stats.isFile()) {
			if (isReadable(selection)) files.push(selection);
			else state.problems.add(`${selection} is not readable`);
			return;
		}
		if (!stats.isDirectory()) {
			state.problems.add(`${selection} is neither a regular file nor a directory`);
			return;
		}
		const before = state.problems.size;
		const found = walk(selection, stats, [], state);
		if (found === 0 && state.problems.size === before) {
			state.problems.add(
				`${selection} contains no skill files (no ${SKILL_FILE} in it or in its non-hidden subdirectories)`,
			);
		}
	});
	return [...new Set(files)].sort();
}
