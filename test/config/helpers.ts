import { rmSync } from "node:fs";
import { afterEach } from "vitest";
import { ConfigError } from "../../src/core/config-error.ts";
import { makeTempDir } from "../support/temp-dir.ts";

export { writeTree } from "../support/files.ts";

const created: string[] = [];

/** A fresh temporary directory (physical path, so lexical assertions are exact); removed after each test. */
export function tempDir(prefix = "pns-config-"): string {
	const dir = makeTempDir(prefix);
	created.push(dir);
	return dir;
}

afterEach(() => {
	for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The problems of the ConfigError `fn` throws; throws when `fn` returns, and rethrows any other error. */
export function problemsOf(fn: () => unknown): string[] {
	try {
		fn();
	} catch (error) {
		if (error instanceof ConfigError) return error.problems;
		throw error;
	}
	throw new Error("expected a ConfigError");
}
