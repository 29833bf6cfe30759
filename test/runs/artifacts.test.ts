/**
 * Full answers go to 0600 files in a 0700 directory of this user (SECURITY.md "Data"), also when someone
 * else prepared the shared temporary directory first.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeArtifact } from "../../src/runs/artifacts.ts";

const roots: string[] = [];
const root = () => {
	const dir = mkdtempSync(join(tmpdir(), "artifacts-"));
	roots.push(dir);
	return dir;
};
afterEach(() => {
	for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("artifact files", () => {
	it("writes a 0600 file in a 0700 directory", () => {
		const dir = join(root(), "pi-native-subagents", "session");
		const written = writeArtifact(dir, "call-1", "full answer");
		expect(written).toEqual({ path: join(dir, "call-1.md") });
		expect(readFileSync(join(dir, "call-1.md"), "utf8")).toBe("full answer");
		expect(statSync(join(dir, "call-1.md")).mode & 0o777).toBe(0o600);
		expect(statSync(dir).mode & 0o777).toBe(0o700);
	});

	it("refuses a session directory someone left open to other users, naming it", () => {
		const dir = join(root(), "pi-native-subagents", "session");
		mkdirSync(dir, { recursive: true });
		chmodSync(dir, 0o777);
		const written = writeArtifact(dir, "call-1", "secret answer");
		expect(written).toEqual({
			error: `could not write the full answer to ${join(dir, "call-1.md")}: ${dir} is open to other users (mode 777)`,
		});
	});

	it("refuses a session directory that is a symlink", () => {
		const base = join(root(), "pi-native-subagents");
		const elsewhere = join(root(), "elsewhere");
		mkdirSync(base, { recursive: true });
		mkdirSync(elsewhere, { mode: 0o700 });
		symlinkSync(elsewhere, join(base, "session"));
		const written = writeArtifact(join(base, "session"), "call-1", "secret answer");
		expect("error" in written && written.error).toContain("is not a directory (a symlink?)");
	});

	it("never writes through a file or symlink left at the temporary name", () => {
		const dir = join(root(), "pi-native-subagents", "session");
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		const target = join(root(), "victim.txt");
		writeFileSync(target, "untouched");
		symlinkSync(target, join(dir, `call-1.md.${process.pid}.tmp`));
		const written = writeArtifact(dir, "call-1", "answer");
		expect("error" in written && written.error).toContain("EEXIST");
		expect(readFileSync(target, "utf8")).toBe("untouched");
	});
});
