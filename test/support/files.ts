/** Writing test fixtures to disk. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Writes `value` to `file` as two-space-indented JSON with a final newline, creating the parent directories. */
export function writeJson(file: string, value: unknown): void {
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Writes `files` (relative path → content; objects are written as by writeJson) under `root`, creating directories. */
export function writeTree(root: string, files: Record<string, string | object>): void {
	for (const [relative, content] of Object.entries(files)) {
		const path = join(root, relative);
		if (typeof content !== "string") writeJson(path, content);
		else {
			mkdirSync(dirname(path), { recursive: true });
			writeFileSync(path, content);
		}
	}
}
