import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

const created: string[] = [];

/** A fresh temporary directory (physical path, so lexical assertions are exact); removed after each test. */
export function tempDir(prefix = "pns-config-"): string {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	created.push(dir);
	return dir;
}

afterEach(() => {
	for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (relative path → content; objects are JSON-encoded) under `root`, creating directories. */
export function writeTree(root: string, files: Record<string, string | object>): void {
	for (const [relative, content] of Object.entries(files)) {
		const path = join(root, relative);
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
	}
}
