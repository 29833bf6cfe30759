/**
 * Module paths as the start-up tests read them: each chunk of the bundle (`dist/runtime/*.cjs`) a
 * process loaded stands for the source modules it holds (`dist/runtime/chunks.json`, written by
 * scripts/build-runtime.mjs), listed after the chunk itself.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** `paths` (relative to package `root`) with every bundle chunk followed by its source modules. */
export function withBundledSources(root: string, paths: readonly string[]): string[] {
	const chunks = JSON.parse(readFileSync(join(root, "dist", "runtime", "chunks.json"), "utf8")) as Record<
		string,
		string[]
	>;
	return paths.flatMap((path) => {
		const chunk = path.startsWith("dist/runtime/") ? chunks[path.slice("dist/runtime/".length)] : undefined;
		return chunk ? [path, ...chunk] : [path];
	});
}
