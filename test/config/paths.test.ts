import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	literalPathProblem,
	requireExisting,
	resolveAdHocCwd,
	resolveAdHocPath,
	resolveLexical,
	resolveRosterOverride,
	rosterBaseDir,
	settingsBaseDir,
} from "../../src/config/paths.ts";
import { tempDir, writeTree } from "./helpers.ts";

describe("path rules", () => {
	it("resolves a relative path against the given base without touching the filesystem", () => {
		expect(resolveLexical("/base/dir", "../x/./y", "cwd")).toBe("/base/x/y");
		expect(resolveLexical("/base", "/abs/path", "cwd")).toBe("/abs/path");
	});

	it("rejects ~, URLs and package selectors instead of expanding them", () => {
		expect(() => resolveLexical("/b", "~/skills", "resources.skills[0]")).toThrow(
			'resources.skills[0]: "~/skills": "~" is not expanded',
		);
		expect(literalPathProblem("https://example.com/x")).toMatch(/URLs and package selectors are not supported/);
		expect(literalPathProblem("npm:some-package")).toMatch(/URLs and package selectors are not supported/);
		expect(literalPathProblem("")).toBe("path must not be empty");
		expect(literalPathProblem("./skills/review")).toBeNull();
	});

	it("takes $VAR literally and says so when the path does not exist", () => {
		const dir = tempDir();
		expect(() => resolveAdHocPath(dir, "$HOME/skills", "any", "resources.skills[0]")).toThrow(
			`resources.skills[0]: ${join(dir, "$HOME/skills")} does not exist (environment variables are not expanded)`,
		);
	});

	it("checks existence and kind with precise errors", () => {
		const dir = tempDir();
		writeTree(dir, { "file.txt": "x" });
		expect(() => requireExisting(join(dir, "file.txt"), "file", "roster_file")).not.toThrow();
		expect(() => requireExisting(dir, "dir", "cwd")).not.toThrow();
		expect(() => requireExisting(dir, "any", "skill")).not.toThrow();
		expect(() => requireExisting(dir, "file", "roster_file")).toThrow(`roster_file: ${dir} is not a regular file`);
		expect(() => requireExisting(join(dir, "file.txt"), "dir", "cwd")).toThrow(
			`cwd: ${join(dir, "file.txt")} is not a directory`,
		);
		expect(() => requireExisting(join(dir, "nope"), "any", "skill")).toThrow(
			`skill: ${join(dir, "nope")} does not exist`,
		);
	});

	it("resolves an ad-hoc cwd against the tool context cwd and requires a directory", () => {
		const dir = tempDir();
		writeTree(dir, { "project/sub/README.md": "x" });
		expect(resolveAdHocCwd(join(dir, "project"), undefined)).toBe(join(dir, "project"));
		expect(resolveAdHocCwd(join(dir, "project"), "sub")).toBe(join(dir, "project/sub"));
		expect(() => resolveAdHocCwd(dir, "missing")).toThrow(`cwd: ${join(dir, "missing")} does not exist`);
	});

	it("resolves ad-hoc resources and roster_file against the effective child cwd", () => {
		const dir = tempDir();
		writeTree(dir, { "child/roster.json": "{}", "child/skills/a/SKILL.md": "a" });
		const childCwd = resolveAdHocCwd(dir, "child");
		expect(resolveAdHocPath(childCwd, "roster.json", "file", "roster_file")).toBe(join(dir, "child/roster.json"));
		expect(resolveAdHocPath(childCwd, "./skills/a", "any", "resources.skills[0]")).toBe(join(dir, "child/skills/a"));
	});

	it("keeps symlinked paths lexical", () => {
		const dir = tempDir();
		writeTree(dir, { "real/roster.json": "{}" });
		symlinkSync(join(dir, "real"), join(dir, "alias"));
		expect(resolveAdHocPath(dir, "alias/roster.json", "file", "roster_file")).toBe(join(dir, "alias/roster.json"));
		expect(rosterBaseDir(join(dir, "alias/roster.json"))).toBe(join(dir, "alias"));
	});

	it("resolves a relative roster override against the process cwd and ignores an empty one", () => {
		expect(resolveRosterOverride("rosters/a.json", "/work/project")).toBe("/work/project/rosters/a.json");
		expect(resolveRosterOverride("/abs/a.json", "/work/project")).toBe("/abs/a.json");
		expect(resolveRosterOverride("", "/work/project")).toBeUndefined();
		expect(resolveRosterOverride(undefined, "/work/project")).toBeUndefined();
	});

	it("uses <agentDir>/extensions as the settings file's base directory", () => {
		expect(settingsBaseDir("/home/u/.pi/agent")).toBe("/home/u/.pi/agent/extensions");
	});
});
