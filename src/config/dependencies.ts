/**
 * Whether this package's runtime dependencies are installed (issue 20 item 4): a clone without
 * `npm install` gets one line naming the command that installs them, not a `Cannot find module` stack at
 * its first call. Node built-ins only, so it can run while the extension loads.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package's `package.json`. */
const PACKAGE_JSON = fileURLToPath(new URL("../../package.json", import.meta.url));

/**
 * The `dependencies` of `package.json` that cannot be resolved from the package directory, sorted; empty
 * when all are installed (a package whose `exports` hide its entry still counts as installed). A dependency
 * whose `package.json` is in a `node_modules` directory that Node's lookup from the package visits, and that has
 * an entry file its `package.json` names, is installed ({@link inNodeModules}: an `existsSync` per directory and
 * one read, where `require.resolve` costs about 5 ms for all of them at every extension load); only the others
 * are resolved, so one whose entry is missing (an interrupted install: npm unpacks `package.json` first) is
 * missing exactly when Node cannot resolve it.
 */
export function missingDependencies(packageJson = PACKAGE_JSON): string[] {
	const manifest = JSON.parse(readFileSync(packageJson, "utf8")) as { dependencies?: Record<string, string> };
	const require = createRequire(packageJson);
	return Object.keys(manifest.dependencies ?? {})
		.filter((name) => {
			if (inNodeModules(dirname(packageJson), name)) return false;
			try {
				require.resolve(name);
				return false;
			} catch (error) {
				return (error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND";
			}
		})
		.sort();
}

/**
 * Whether the first `<dir>/node_modules/<name>/package.json` for `from` or one of its ancestors (the directories
 * Node's module lookup visits, skipping one that is itself named `node_modules`) names an entry file that exists
 * ({@link namesPresentEntry}); `false` sends the dependency to `require.resolve`.
 */
function inNodeModules(from: string, name: string): boolean {
	for (let dir = from; ; dir = dirname(dir)) {
		const packageDir = join(dir, "node_modules", name);
		if (basename(dir) !== "node_modules" && existsSync(join(packageDir, "package.json")))
			return namesPresentEntry(packageDir);
		if (dirname(dir) === dir) return false;
	}
}

/**
 * Whether one of the entry files `<packageDir>/package.json` names (`main`, the targets of `exports` for `.`)
 * exists; `false` for a manifest that cannot be read or names none.
 */
function namesPresentEntry(packageDir: string): boolean {
	try {
		const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as Record<string, unknown>;
		const entries = [manifest.main, ...exportTargets(manifest.exports)];
		return entries.some((entry) => typeof entry === "string" && existsSync(join(packageDir, entry)));
	} catch {
		return false;
	}
}

/** The file targets of an `exports` field for the package's main entry (`.`): every condition's, flattened. */
function exportTargets(exports: unknown): unknown[] {
	if (typeof exports === "string") return [exports];
	if (Array.isArray(exports)) return exports.flatMap(exportTargets);
	if (!exports || typeof exports !== "object") return [];
	const map = exports as Record<string, unknown>;
	if ("." in map) return exportTargets(map["."]);
	return Object.entries(map).flatMap(([key, value]) => (key.startsWith(".") ? [] : exportTargets(value)));
}

/** The one line a user sees when dependencies are missing: which, and the command that installs them. */
export function missingDependenciesMessage(missing: readonly string[], packageJson = PACKAGE_JSON): string {
	return `pi-native-subagents cannot run: its runtime dependencies are not installed (missing: ${missing.join(", ")}). Install them with: cd ${JSON.stringify(dirname(packageJson))} && npm install --omit=dev --omit=peer`;
}
