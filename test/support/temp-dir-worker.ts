/**
 * Vitest setup file (runs in each test worker before its test file): every directory made in the system
 * temp dir in this worker — by a test, a test helper or the product code under test (its run and tmux
 * directories, src/runs/leftovers.ts) — goes into the run's temp-dir ledger (test/support/temp-dir.ts), so
 * the check at the end of the run (test/support/temp-dir-check.ts) sees it, made through `makeTempDir` or not.
 * It wraps `mkdtemp` in `node:fs` (sync, callback and promise forms) and publishes the wrapper to ES module
 * importers with `syncBuiltinESMExports` (Node's documented way to update the builtin's named exports).
 */
import { createRequire, syncBuiltinESMExports } from "node:module";
import { recordTempDir } from "./temp-dir.ts";

type Fs = typeof import("node:fs");
const fs = createRequire(import.meta.url)("node:fs") as Fs;

const mkdtempSync = fs.mkdtempSync;
fs.mkdtempSync = ((prefix: string, options?: unknown) => {
	const dir = mkdtempSync(prefix, options as never);
	recordTempDir(String(dir));
	return dir;
}) as Fs["mkdtempSync"];

const mkdtemp = fs.mkdtemp;
fs.mkdtemp = ((prefix: string, ...rest: unknown[]) => {
	const callback = rest.pop() as (error: NodeJS.ErrnoException | null, dir?: string) => void;
	return mkdtemp(prefix, ...(rest as []), (error: NodeJS.ErrnoException | null, dir?: string) => {
		if (dir !== undefined) recordTempDir(String(dir));
		callback(error, dir);
	});
}) as Fs["mkdtemp"];

const mkdtempPromise = fs.promises.mkdtemp;
fs.promises.mkdtemp = (async (prefix: string, options?: unknown) => {
	const dir = await mkdtempPromise(prefix, options as never);
	recordTempDir(String(dir));
	return dir;
}) as Fs["promises"]["mkdtemp"];

syncBuiltinESMExports();
