/**
 * Preloaded with `node --import` (through `NODE_OPTIONS`): appends the URL of every module Node itself resolves
 * in this process, one a line, to the file `MODULE_RECORD_FILE`. Modules Pi's loader (jiti) compiles do not go
 * through Node's resolution; natively loaded ones (the bundle's chunks) do. Only the process it was
 * preloaded into records: it takes itself out of `NODE_OPTIONS` for the processes that one starts.
 */
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const file = process.env.MODULE_RECORD_FILE;
delete process.env.NODE_OPTIONS;
delete process.env.MODULE_RECORD_FILE;
if (file) {
	registerHooks({
		resolve(specifier, context, nextResolve) {
			const resolved = nextResolve(specifier, context);
			appendFileSync(file, `${resolved.url}\n`);
			return resolved;
		},
	});
}
