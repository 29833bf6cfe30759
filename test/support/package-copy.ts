/**
 * A copy of this package for the bundle tests (test/package/runtime-bundle*.test.ts): its entry, manifest, sources,
 * agents and build script, its node_modules linked, with the built bundle (`dist/`) when asked.
 */
import { cpSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "./temp-dir.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/** Package copies made so far; {@link removePackageCopies} removes them. */
const copies: string[] = [];

/** A fresh copy of the package in a temp directory, with `dist/` when `withBundle`. */
export function packageCopy(withBundle: boolean): string {
	const copy = makeTempDir("bundle-package-");
	copies.push(copy);
	for (const entry of ["index.ts", "package.json", "src", "agents", "scripts", ...(withBundle ? ["dist"] : [])])
		cpSync(join(ROOT, entry), join(copy, entry), { recursive: true, preserveTimestamps: true });
	symlinkSync(realpathSync(join(ROOT, "node_modules")), join(copy, "node_modules"));
	return copy;
}

/** Removes every copy (after the processes that ran in them are gone). */
export function removePackageCopies(): void {
	for (const copy of copies.splice(0)) rmSync(copy, { recursive: true, force: true });
}
