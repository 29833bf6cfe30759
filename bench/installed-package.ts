/**
 * This package as `pi install npm:…` leaves it, for the benches that load it into a real pi: its published files
 * (`package.json` `files`, with a bundle built from the sources as they are now) copied to
 * `<dir>/node_modules/pi-native-subagents`, its dependencies linked from this checkout's `node_modules`. An
 * installed copy runs its bundle without checking it against its sources (docs/development.md §The bundle), as
 * users' installs do, so the benches measure what users run rather than a checkout.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");

/**
 * Copies the package into `<dir>/node_modules/pi-native-subagents` after building the bundle when it is missing or
 * stale (`scripts/build-runtime.mjs --if-stale`); returns the copy's path.
 * @throws Error when the build fails (its message and output) or a file cannot be copied.
 */
export function installedPackage(dir: string): string {
	execFileSync(process.execPath, [join(ROOT, "scripts", "build-runtime.mjs"), "--if-stale"], { stdio: "pipe" });
	const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files: string[] };
	const copy = join(dir, "node_modules", "pi-native-subagents");
	mkdirSync(copy, { recursive: true });
	for (const entry of ["package.json", ...manifest.files])
		if (existsSync(join(ROOT, entry)))
			cpSync(join(ROOT, entry), join(copy, entry), { recursive: true, preserveTimestamps: true });
	symlinkSync(realpathSync(join(ROOT, "node_modules")), join(copy, "node_modules"));
	return copy;
}
