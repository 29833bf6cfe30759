/**
 * zod (the configuration validator, docs/design-notes.md §Start-up cost), required on first use: every module
 * of the package builds its schemas through {@link zod} when it first validates something, so a session
 * that reads no settings file, roster or launch record and whose agent files are plain pi Markdown never loads
 * zod (about 30 ms of CPU and 14 MB). One instance for the whole package: schemas built here compose.
 */
import { createRequire } from "node:module";

type Zod = typeof import("zod");
/** The `z` namespace as a value (what {@link zod} returns). */
export type ZodNamespace = Zod["z"];

let library: Zod | undefined;

/** The `zod` package (its `z` namespace), required with the first call. */
export function zod(): Zod["z"] {
	library ??= createRequire(import.meta.url)("zod") as Zod;
	return library.z;
}

/** `build`, run with the first call and remembered: a schema built when first needed. */
export function lazySchema<T>(build: (z: Zod["z"]) => T): () => T {
	let built: { schema: T } | undefined;
	return () => {
		built ??= { schema: build(zod()) };
		return built.schema;
	};
}
