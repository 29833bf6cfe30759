/**
 * Preloaded with `node --import` (through `NODE_OPTIONS`): appends the URL of every module Node itself resolves
 * in this process, one a line, to the file `MODULE_RECORD_FILE`, and at its exit the bundle's chunks its loader
 * read (src/core/bundle-loader.ts). Modules Pi's loader (jiti) compiles do not go through Node's resolution. Only the process it was
 * preloaded into records: it takes itself out of `NODE_OPTIONS` for the processes that one starts.
 */
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { pathToFileURL } from "node:url";

const file = process.env.MODULE_RECORD_FILE;
delete process.env.NODE_OPTIONS;
delete process.env.MODULE_RECORD_FILE;
if (file) {
	// The bundle's chunks, which its loader reads itself (src/core/bundle-loader.ts).
	process.on("exit", () => {
		const chunks = globalThis[Symbol.for("pi-native-subagents.bundle-loader")]?.modules.keys() ?? [];
		for (const chunk of chunks) appendFileSync(file, `${pathToFileURL(chunk).href}\n`);
	});
	registerHooks({
		resolve(specifier, context, nextResolve) {
			const resolved = nextResolve(specifier, context);
			appendFileSync(file, `${resolved.url}\n`);
			return resolved;
		},
	});
}
