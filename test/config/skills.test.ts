import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverSkillFiles } from "../../src/config/skills.ts";
import { collect, problemsFound } from "../support/problems.ts";
import { tempDir, writeTree } from "./helpers.ts";

/** The files found for `selections`; fails the test when discovery reports a problem. */
function discover(selections: string[]): string[] {
	const { value, problems } = collect((found) => discoverSkillFiles(selections, "resources.skills", found));
	expect(problems).toEqual([]);
	return value;
}

/** The problems discovery reports for `selections`, named `<where>[i]`. */
function skillProblems(selections: string[], where = "resources.skills"): string[] {
	return problemsFound((found) => discoverSkillFiles(selections, where, found));
}

describe("skill discovery table", () => {
	it("selects an explicit regular file whatever its name", () => {
		const dir = tempDir();
		writeTree(dir, { "notes/review-guide.md": "guide" });
		expect(discover([join(dir, "notes/review-guide.md")])).toEqual([join(dir, "notes/review-guide.md")]);
	});

	it("selects SKILL.md of a directory and stops discovery at that root", () => {
		const dir = tempDir();
		writeTree(dir, { "tdd/SKILL.md": "tdd", "tdd/nested/SKILL.md": "not selected", "tdd/extra.md": "not selected" });
		expect(discover([join(dir, "tdd")])).toEqual([join(dir, "tdd/SKILL.md")]);
	});

	it("searches a nested collection for skill roots and ignores unrelated Markdown", () => {
		const dir = tempDir();
		writeTree(dir, {
			"collection/README.md": "unrelated",
			"collection/review/SKILL.md": "review",
			"collection/group/tdd/SKILL.md": "tdd",
			"collection/group/notes.md": "unrelated",
		});
		expect(discover([join(dir, "collection")])).toEqual([
			join(dir, "collection/group/tdd/SKILL.md"),
			join(dir, "collection/review/SKILL.md"),
		]);
	});

	it("skips hidden directories and node_modules", () => {
		const dir = tempDir();
		writeTree(dir, {
			"collection/.hidden/SKILL.md": "hidden",
			"collection/node_modules/pkg/SKILL.md": "dependency",
			"collection/visible/SKILL.md": "visible",
		});
		expect(discover([join(dir, "collection")])).toEqual([join(dir, "collection/visible/SKILL.md")]);
	});

	it("keeps symlinked paths lexical", () => {
		const dir = tempDir();
		writeTree(dir, { "real/review/SKILL.md": "review", "real/file.md": "file" });
		mkdirSync(join(dir, "collection"));
		symlinkSync(join(dir, "real/review"), join(dir, "collection/linked-review"));
		symlinkSync(join(dir, "real"), join(dir, "alias"));
		expect(discover([join(dir, "collection"), join(dir, "alias/file.md"), join(dir, "alias/review")])).toEqual([
			join(dir, "alias/file.md"),
			join(dir, "alias/review/SKILL.md"),
			join(dir, "collection/linked-review/SKILL.md"),
		]);
	});

	it("rejects a directory cycle detected by physical identity", () => {
		const dir = tempDir();
		writeTree(dir, { "collection/a/README.md": "no skill here" });
		symlinkSync(join(dir, "collection"), join(dir, "collection/a/loop"));
		expect(skillProblems([join(dir, "collection")], "agent.resources.skills")).toEqual([
			`agent.resources.skills[0]: directory cycle at ${join(dir, "collection/a/loop")} (it is one of its own ancestors)`,
		]);
	});

	it("rejects a selected directory with no skill files", () => {
		const dir = tempDir();
		writeTree(dir, { "empty/README.md": "nothing", "empty/.hidden/SKILL.md": "hidden" });
		expect(skillProblems([join(dir, "empty")])).toEqual([
			`resources.skills[0]: ${join(dir, "empty")} contains no skill files (no SKILL.md in it or in its non-hidden subdirectories)`,
		]);
	});

	it("sorts the files and removes exact duplicates but keeps distinct paths to one file", () => {
		const dir = tempDir();
		writeTree(dir, { "b/SKILL.md": "b", "a/SKILL.md": "a" });
		symlinkSync(join(dir, "a"), join(dir, "c"));
		expect(
			discover([join(dir, "b"), join(dir, "a/SKILL.md"), join(dir, "a"), join(dir, "c"), join(dir, "b/SKILL.md")]),
		).toEqual([join(dir, "a/SKILL.md"), join(dir, "b/SKILL.md"), join(dir, "c/SKILL.md")]);
	});

	it("rejects missing and non-regular selections, listing every problem", () => {
		const dir = tempDir();
		writeTree(dir, { "odd/SKILL.md/README.md": "SKILL.md is a directory here" });
		expect(skillProblems([join(dir, "missing"), "/dev/null", join(dir, "odd")])).toEqual([
			`resources.skills[0]: ${join(dir, "missing")} does not exist`,
			"resources.skills[1]: /dev/null is neither a regular file nor a directory",
			`resources.skills[2]: ${join(dir, "odd/SKILL.md")} is not a regular file (a directory)`,
		]);
	});

	it("rejects a dangling symlink inside a collection as a failed traversal", () => {
		const dir = tempDir();
		writeTree(dir, { "collection/ok/SKILL.md": "ok" });
		symlinkSync(join(dir, "nowhere"), join(dir, "collection/dangling"));
		expect(skillProblems([join(dir, "collection")])).toEqual([
			`resources.skills[0]: cannot follow ${join(dir, "collection/dangling")} (ENOENT)`,
		]);
	});

	it("returns no files for no selections", () => {
		expect(discover([])).toEqual([]);
	});
});
