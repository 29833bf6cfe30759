/**
 * Vitest global setup: builds the bundle when it is missing or older than the sources
 * (`scripts/build-runtime.mjs --if-stale`), so every real pi run of the tests loads the bundle as an installed
 * package does (docs/development.md §The bundle).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

export default function setup(): void {
	const root = join(import.meta.dirname, "..", "..");
	execFileSync(process.execPath, [join(root, "scripts", "build-runtime.mjs"), "--if-stale"], { stdio: "inherit" });
}
