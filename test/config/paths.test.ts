/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: ValueRefs written as paths, taken as written */
import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	checkExisting,
	checkLiteralPath,
	type PathKind,
	resolveAdHocCwd,
	resolveAdHocPath,
	resolveExisting,
	resolveRosterOverride,
	rosterBaseDir,
	settingsBaseDir,
} from "../../src/config/paths.ts";
import { Problems } from "../../src/core/problems.ts";
import { collect, problemsFound } from "../support/problems.ts";
import { tempDir, writeTree } from "./helpers.ts";

/** The problems of `path` as a `kind`, labelled `where`. */
const existing = (path: string, kind: PathKind, where: string) =>
	problemsFound((problems) => checkExisting(path, kind, problems.at(where)));

/** An ad-hoc path that must resolve; fails the test when it reports a problem. */
function adHoc(base: string, raw: string, kind: PathKind): string | undefined {
	const { value, problems } = collect((found) => resolveAdHocPath(base, raw, kind, found));
	expect(problems).toEqual([]);
	return value;
}

describe("path rules", () => {
	it("resolves a relative path against the given base without touching the filesystem", () => {
		const problems = new Problems();
		expect(resolveExisting("/base/dir", "../x/./y", "any", problems)).toBe("/base/x/y");
		expect(resolveExisting("/base", "/abs/path", "any", problems)).toBe("/abs/path");
	});

	it("rejects ~, URLs and package selectors instead of expanding them, naming the directory a path is relative to", () => {
		const literal = (raw: string) => problemsFound((problems) => checkLiteralPath(raw, "/b", problems));
		expect(
			problemsFound((problems) => resolveExisting("/b", "~/skills", "any", problems.at("resources.skills[0]"))),
		).toEqual(['resources.skills[0]: "~/skills": "~" is not expanded; write an absolute path or one relative to /b']);
		expect(literal("https://example.com/x")).toEqual([
			expect.stringMatching(/URLs and package selectors are not supported/),
		]);
		expect(literal("npm:some-package")).toEqual([
			expect.stringMatching(/URLs and package selectors are not supported/),
		]);
		expect(literal("")).toEqual(["path must not be empty"]);
		expect(literal("./skills/review")).toEqual([]);
		expect(() => resolveRosterOverride("~/roster.json", "/w")).toThrow(
			'PI_AGENTSHELL_ROSTER_FILE: "~/roster.json": "~" is not expanded; write an absolute path or one relative to /w',
		);
	});

	it("takes $VAR and ${…} literally and says so when the path does not exist", () => {
		const dir = tempDir();
		expect(
			problemsFound((problems) => resolveAdHocPath(dir, "$HOME/skills", "any", problems.at("resources.skills[0]"))),
		).toEqual([
			`resources.skills[0]: ${join(dir, "$HOME/skills")} does not exist (environment variables are not expanded)`,
		]);
		expect(problemsFound((problems) => resolveAdHocCwd(dir, "${inputs.d}", problems))).toEqual([
			`cwd: ${join(dir, "${inputs.d}")} does not exist (taken as written: ValueRefs, templates and environment variables are not filled in here)`,
		]);
	});

	it("checks existence and kind with precise errors", () => {
		const dir = tempDir();
		writeTree(dir, { "file.txt": "x" });
		expect(existing(join(dir, "file.txt"), "file", "roster_file")).toEqual([]);
		expect(existing(dir, "dir", "cwd")).toEqual([]);
		expect(existing(dir, "any", "skill")).toEqual([]);
		expect(existing(dir, "file", "roster_file")).toEqual([`roster_file: ${dir} is not a regular file (a directory)`]);
		expect(existing(join(dir, "file.txt"), "dir", "cwd")).toEqual([
			`cwd: ${join(dir, "file.txt")} is not a directory (a regular file)`,
		]);
		expect(existing(join(dir, "nope"), "any", "skill")).toEqual([`skill: ${join(dir, "nope")} does not exist`]);
	});

	it("names what is there when a path is not of its kind: a FIFO given as a normalized roster's agent_file", () => {
		const fifo = join(tempDir(), "agent.json");
		execFileSync("mkfifo", [fifo]);
		expect(existing(fifo, "file", "roster.roles[0]: agent_file")).toEqual([
			`roster.roles[0]: agent_file: ${fifo} is not a regular file (a FIFO)`,
		]);
	});

	it("resolves an ad-hoc cwd against the tool context cwd and requires a directory", () => {
		const dir = tempDir();
		writeTree(dir, { "project/sub/README.md": "x" });
		const problems = new Problems();
		expect(resolveAdHocCwd(join(dir, "project"), undefined, problems)).toBe(join(dir, "project"));
		expect(resolveAdHocCwd(join(dir, "project"), "sub", problems)).toBe(join(dir, "project/sub"));
		expect(problems.list).toEqual([]);
		expect(collect((found) => resolveAdHocCwd(dir, "missing", found))).toEqual({
			value: undefined,
			problems: [`cwd: ${join(dir, "missing")} does not exist`],
		});
	});

	it("resolves ad-hoc resources and roster_file against the effective child cwd", () => {
		const dir = tempDir();
		writeTree(dir, { "child/roster.json": "{}", "child/skills/a/SKILL.md": "a" });
		const childCwd = join(dir, "child");
		expect(adHoc(childCwd, "roster.json", "file")).toBe(join(dir, "child/roster.json"));
		expect(adHoc(childCwd, "./skills/a", "any")).toBe(join(dir, "child/skills/a"));
	});

	it("keeps symlinked paths lexical", () => {
		const dir = tempDir();
		writeTree(dir, { "real/roster.json": "{}" });
		symlinkSync(join(dir, "real"), join(dir, "alias"));
		expect(adHoc(dir, "alias/roster.json", "file")).toBe(join(dir, "alias/roster.json"));
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
