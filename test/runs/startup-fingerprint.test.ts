/**
 * The warm-child fingerprint reads through symlinks as Pi does (found by the hostile-repository attack): an
 * `AGENTS.md -> notes/agents.md` edited in its target, or a linked extension whose target was removed, must not
 * let a warm child that started before the change be taken (SECURITY.md "Processes", warm children).
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startupFingerprint } from "../../src/runs/startup-fingerprint.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function scratch(): string {
	const dir = makeTempDir("fingerprint-");
	dirs.push(dir);
	return dir;
}

describe("the startup fingerprint", () => {
	it("changes when the file a symlinked context file leads to is edited", () => {
		const dir = scratch();
		mkdirSync(join(dir, "notes"));
		writeFileSync(join(dir, "notes", "agents.md"), "before\n");
		symlinkSync("notes/agents.md", join(dir, "AGENTS.md"));
		const before = startupFingerprint([join(dir, "AGENTS.md")]);
		writeFileSync(join(dir, "notes", "agents.md"), "after, longer\n");
		expect(startupFingerprint([join(dir, "AGENTS.md")])).not.toBe(before);
	});

	it("changes when a linked extension's target is removed and the link dangles", () => {
		const dir = scratch();
		mkdirSync(join(dir, "extensions"));
		writeFileSync(join(dir, "shared-spy.ts"), "export default () => {};\n");
		symlinkSync(join(dir, "shared-spy.ts"), join(dir, "extensions", "spy.ts"));
		const before = startupFingerprint([join(dir, "extensions")]);
		rmSync(join(dir, "shared-spy.ts"));
		expect(startupFingerprint([join(dir, "extensions")])).not.toBe(before);
	});

	it("walks a symlinked directory: a file added inside it changes the fingerprint", () => {
		const dir = scratch();
		mkdirSync(join(dir, "real-skills", "one"), { recursive: true });
		mkdirSync(join(dir, ".agents"));
		symlinkSync(join(dir, "real-skills"), join(dir, ".agents", "skills"));
		const before = startupFingerprint([join(dir, ".agents", "skills")]);
		writeFileSync(join(dir, "real-skills", "one", "SKILL.md"), "---\nname: one\n---\n");
		expect(startupFingerprint([join(dir, ".agents", "skills")])).not.toBe(before);
	});

	it("ends its walk of a link cycle (where the system stops following it) and gives the same fingerprint twice", () => {
		const dir = scratch();
		mkdirSync(join(dir, "loop"));
		symlinkSync(join(dir, "loop"), join(dir, "loop", "again"));
		const first = startupFingerprint([join(dir, "loop")]);
		expect(first).toContain("again");
		expect(startupFingerprint([join(dir, "loop")])).toBe(first);
	});

	it("stays the same while nothing it leads to changes", () => {
		const dir = scratch();
		writeFileSync(join(dir, "target.md"), "same\n");
		symlinkSync(join(dir, "target.md"), join(dir, "AGENTS.md"));
		expect(startupFingerprint([join(dir, "AGENTS.md")])).toBe(startupFingerprint([join(dir, "AGENTS.md")]));
	});
});
