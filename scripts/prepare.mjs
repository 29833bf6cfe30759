/**
 * npm's `prepare` (npm ci, npm install in a clone, git installs): builds the bundle
 * (scripts/build-runtime.mjs) when it can, and never fails the install: without the dev dependencies (rolldown) or
 * on a Node that cannot read the TypeScript the build imports (before 22.18), the package runs from its sources, as
 * it does without a bundle, and one line says why. Plain JavaScript for any Node npm runs on.
 */
const skip = (reason) =>
	process.stderr.write(`pi-native-subagents: no bundle built (${reason}); the sources are used\n`);
if (!process.features.typescript) skip(`Node ${process.version} cannot read the TypeScript the build imports`);
else {
	try {
		await import("./build-runtime.mjs");
	} catch (error) {
		// rolldown's message carries a native backtrace, and a plugin's error its JavaScript stack: the other lines,
		// as one.
		const message = error instanceof Error ? error.message : String(error);
		skip(
			message
				.split("\nStack backtrace")[0]
				.split("\n")
				.filter((line) => !/^\s*at\s/.test(line))
				.join("\n")
				.replace(/\s*\n\s*/g, " ")
				.trim(),
		);
	}
}
