/**
 * npm's `prepare` (npm ci, npm install in a clone, git installs): builds the bundle
 * (scripts/build-runtime.mjs) when it can, and never fails the install: without the dev dependencies (rolldown,
 * Node 22 to read the TypeScript it imports) the package runs from its sources, as it does without a bundle.
 * Plain JavaScript for any Node npm runs on.
 */
try {
	await import("./build-runtime.mjs");
} catch (error) {
	process.stderr.write(
		`pi-native-subagents: no bundle built (${error instanceof Error ? error.message : String(error)}); the sources are used\n`,
	);
}
