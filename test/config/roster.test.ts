import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadRosterFile } from "../../src/config/roster.ts";
import type { RosterEntry } from "../../src/config/roster-entry.ts";
import { recheckNormalizedEntry } from "../../src/config/roster-normalized.ts";
import { settingsDigest } from "../../src/config/settings-digest.ts";
import { ConfigError } from "../../src/core/config-error.ts";
import { DEFAULT_RESOURCES } from "../../src/launch/resolve-resources.ts";
import { problemsFound } from "../support/problems.ts";
import { tempDir, writeTree } from "./helpers.ts";

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), "../fixtures/config/rosters");
const invalid = (name: string) => join(fixtures, "invalid", name);

function loadError(file: string): ConfigError {
	try {
		loadRosterFile(file);
	} catch (error) {
		if (error instanceof ConfigError) return error;
		throw error;
	}
	throw new Error(`expected ${file} to be rejected`);
}

const def = (name: string, extra: Record<string, unknown> = {}, roles: string[] = []) => ({
	agent: { name, description: `${name} role`, agent_type: "pi", model: "fake/fake-model", effort: "medium", ...extra },
	roster: { enabled: roles.length > 0, roles: roles.map((agent_file) => ({ agent_file })) },
});

describe("roster validation table", () => {
	// Each row: fixture, then fragments the message must contain: file, entry, field and reason.
	const table: Array<[rule: string, file: string, fragments: string[]]> = [
		["unknown top-level key", invalid("unknown-top-level-key.json"), ['limits: unknown key "limits"']],
		[
			"unknown entry key",
			invalid("unknown-entry-key.json"),
			['roster.roles[0] "scout": instructions: unknown key "instructions"'],
		],
		[
			"missing required string",
			invalid("missing-required-string.json"),
			['roster.roles[0] "scout": model: is required (a non-empty string)'],
		],
		[
			"empty required string",
			invalid("empty-required-string.json"),
			['roster.roles[0] "scout": effort: must not be empty'],
		],
		[
			"agent_type outside pi, codex, claude_code",
			invalid("bad-agent-type.json"),
			['roster.roles[0] "scout": agent_type: expected one of pi, codex, claude_code, got "opencode"'],
		],
		[
			"duplicate name",
			invalid("duplicate-name.json"),
			['roster.roles[1] "scout": name: duplicate name "scout" (already used by roster.roles[0])'],
		],
		[
			"roster_file on a non-pi entry",
			invalid("roster-file-on-non-pi.json"),
			['roster.roles[0] "scout": roster_file: is Pi-only, but agent_type is "codex"'],
		],
		[
			"bad resource value",
			invalid("bad-resource-value.json"),
			['roster.roles[0] "scout": resources.inherit_personal_resources: expected true or false, got string'],
		],
		[
			"non-empty packages",
			invalid("non-empty-packages.json"),
			['roster.roles[0] "scout": resources.packages: must be empty'],
		],
		[
			"non-empty mcp_servers",
			invalid("non-empty-mcp-servers.json"),
			['roster.roles[0] "scout": resources.mcp_servers: a non-empty list is not supported'],
		],
		[
			"missing path",
			invalid("missing-path.json"),
			[`roster.roles[0] "scout": cwd: ${invalid("no-such-dir")} does not exist`],
		],
		[
			"missing path in a disabled roster",
			invalid("missing-path-disabled.json"),
			[`roster.roles[0] "scout": resources.skills[0]: ${invalid("skills/missing/SKILL.md")} does not exist`],
		],
		[
			"non-pi normalized definition with an enabled roster",
			invalid("non-pi-enabled/agent.json"),
			['roster.enabled: must be false because agent_type is "codex"'],
		],
		[
			"non-pi normalized child definition with a non-empty roster",
			invalid("non-pi-child-with-roles/parent/agent.json"),
			[
				`roster.roles[0] → ${invalid("non-pi-child-with-roles/child/agent.json")}: roster.roles: must be empty because agent_type is "claude_code"`,
			],
		],
		[
			"normalized entry with extra keys",
			invalid("normalized-entry-extra-keys/agent.json"),
			['roster.roles[0]: model: unknown key "model"'],
		],
		[
			"normalized entry whose agent_file is missing",
			invalid("normalized-missing-agent-file/agent.json"),
			[`roster.roles[0]: agent_file: ${invalid("nowhere/agent.json")} does not exist`],
		],
		[
			"normalized agent with an inline-only key",
			invalid("normalized-roster-file-key/agent.json"),
			['agent.roster_file: unknown key "roster_file"'],
		],
	];

	it.each(table)("rejects %s naming the file, entry and field", (_rule, file, fragments) => {
		const error = loadError(file);
		for (const fragment of fragments) {
			expect(error.problems).toContainEqual(expect.stringContaining(`${file}: ${fragment}`));
		}
	});

	it("rejects malformed JSON naming the file", () => {
		const dir = tempDir();
		const file = join(dir, "roster.json");
		writeFileSync(file, '{"roster": {"enabled": true,, "roles": []}}');
		expect(loadError(file).problems).toEqual([expect.stringMatching(new RegExp(`^${file}: malformed JSON: `))]);
	});

	it("says on one line where malformed JSON stops being JSON, also when the text ends early or is YAML", () => {
		const dir = tempDir();
		const cases: [string, string][] = [
			['{"roster": {\n  "enabled": ', "malformed JSON: Unexpected end of JSON input (line 2, column 14)"],
			["roster:\n  enabled: true\n", "(line 1, column 1)"],
			["", "malformed JSON: Unexpected end of JSON input (the file is empty)"],
		];
		for (const [text, expected] of cases) {
			const file = join(dir, "roster.json");
			writeFileSync(file, text);
			const [problem] = loadError(file).problems;
			expect(problem).toContain(expected);
			expect(problem).not.toContain("\n");
		}
	});

	it("refuses duplicate keys in a roster file, naming the file and the key's path", () => {
		const dir = tempDir();
		const file = join(dir, "roster.json");
		writeFileSync(file, '{"roster": {"enabled": true, "roles": [], "roles": []}}');
		expect(loadError(file).problems).toEqual([
			`${file}: duplicate key "roles" at line 1, column 43 (roster.roles): JSON files must not repeat a key (the last one would silently win)`,
		]);
	});

	it("refuses a roster file nested deeper than 64 levels or holding a __proto__ key, naming the file and the place", () => {
		const dir = tempDir();
		const deep = join(dir, "deep.json");
		// 20,000 levels fit in a few kilobytes, far under the file limit; nothing past the reader walks them.
		writeFileSync(deep, `{"roster":{"enabled":true,"roles":[${"[".repeat(20_000)}${"]".repeat(20_000)}]}}`);
		expect(loadError(deep).problems).toEqual([
			`${deep}: roster.roles[0]: nested deeper than 64 levels of objects and arrays (at most 64 are read)`,
		]);
		const proto = join(dir, "proto.json");
		writeFileSync(proto, '{"roster":{"enabled":true,"roles":[{"agent_file":"a.md","__proto__":{"model":"x"}}]}}');
		expect(loadError(proto).problems).toEqual([
			`${proto}: roster.roles[0]: the key "__proto__" is not allowed (JavaScript objects treat it as their prototype); rename it`,
		]);
	});

	it("refuses a roster file that is a symlink to a device (/dev/null), naming it", () => {
		const dir = tempDir();
		const file = join(dir, "roster.json");
		symlinkSync("/dev/null", file);
		expect(loadError(file).problems).toEqual([`${file}: is not a regular file (a character device)`]);
	});

	it("rejects a missing roster file naming it", () => {
		const file = invalid("not-there.json");
		expect(loadError(file).problems).toEqual([`${file}: file does not exist`]);
	});

	it("rejects a document that is neither format", () => {
		const dir = tempDir();
		writeTree(dir, { "roster.json": { roles: [] } });
		expect(loadError(join(dir, "roster.json")).message).toMatch(
			/expected a native inline roster .* found keys "roles"/,
		);
	});

	it("rejects a normalized definition without its roster section", () => {
		const dir = tempDir();
		writeTree(dir, { "agent.json": { agent: def("solo").agent } });
		expect(loadError(join(dir, "agent.json")).problems).toEqual([
			`${join(dir, "agent.json")}: roster: is required (an object)`,
		]);
	});

	it("lists every problem of a file, not just the first", () => {
		const dir = tempDir();
		writeTree(dir, {
			"roster.json": {
				roster: {
					enabled: "yes",
					roles: [
						{ name: "a", description: "", agent_type: "pi", model: "m", effort: "e", colour: "red" },
						{ name: "b", description: "d", agent_type: "codex", model: "m", effort: "e", cwd: "missing" },
					],
				},
			},
		});
		const problems = loadError(join(dir, "roster.json")).problems;
		expect(problems).toHaveLength(4);
		expect(problems.join("\n")).toMatch(/roster\.enabled: expected true or false, got string/);
		expect(problems.join("\n")).toMatch(/roster\.roles\[1\] "b": cwd: .*missing does not exist/);
		expect(problems.join("\n")).toMatch(/roster\.roles\[0\] "a": description: must not be empty/);
		expect(problems.join("\n")).toMatch(/roster\.roles\[0\] "a": colour: unknown key "colour"/);
	});
});

describe("listing every problem at once", () => {
	it("reports path and rule problems of well-formed entries next to the schema problems of others", () => {
		const root = tempDir();
		const file = join(root, "roster.json");
		writeTree(root, {
			"roster.json": JSON.stringify({
				roster: {
					enabled: "yes",
					roles: [
						{ name: "a", description: "d", agent_type: "pi", model: "m", effort: "e", extra: 1 },
						{ name: "b", description: "d", agent_type: "codex", model: "m", effort: "e", roster_file: "r.json" },
						{ name: "c", description: "d", agent_type: "pi", model: "m", effort: "e", cwd: "missing-dir" },
						{ name: "c", description: "d", agent_type: "pi", model: "m", effort: "e" },
					],
				},
			}),
		});
		const messages = loadError(file).problems.join("\n");
		expect(messages).toContain("roster.enabled");
		expect(messages).toContain('roster.roles[0] "a": extra: unknown key "extra"');
		expect(messages).toContain('roster.roles[1] "b": roster_file: is Pi-only');
		expect(messages).toContain(`roster.roles[2] "c": cwd: ${join(root, "missing-dir")} does not exist`);
		expect(messages).toContain('roster.roles[3] "c": name: duplicate name "c"');
	});
});

describe("loading valid rosters", () => {
	it("accepts a native inline roster and resolves its paths against the file's directory", () => {
		const dir = join(fixtures, "inline");
		const roster = loadRosterFile(join(dir, "roster.json"));
		expect(roster).toMatchObject({ source: join(dir, "roster.json"), format: "inline", enabled: true });
		expect(roster.entries.map((e) => [e.name, e.harness])).toEqual([
			["feature-owner", "pi"],
			["Feature-Owner", "claude_code"],
			["codex-helper", "codex"],
		]);
		const owner = roster.entries[0];
		expect(owner).toMatchObject({
			model: "fake/fake-model",
			effort: "high",
			cwd: join(dir, "work"),
			rosterFile: join(dir, "child-roster.json"),
			resources: {
				skills: [join(dir, "skills/ownership/SKILL.md"), join(dir, "skills")],
				extensions: [join(dir, "extensions/tool.ts")],
				plugins: [],
				packages: [],
				mcp_servers: [],
				inherit_personal_resources: false,
				inherit_project_resources: false,
				include_instruction_files: true,
				include_home_system_prompt: false,
			},
		});
		expect(owner.agentFile).toBeUndefined();
		expect(roster.entries[1].resources).toEqual({
			...DEFAULT_RESOURCES,
			plugins: [join(dir, "plugins/review-plugin")],
		});
		expect(roster.entries[2].resources).toBeUndefined();
		expect(roster.entries[2].cwd).toBeUndefined();
	});

	it("defaults an inline roster to disabled with no roles", () => {
		const dir = tempDir();
		writeTree(dir, { "roster.json": { roster: {} } });
		expect(loadRosterFile(join(dir, "roster.json"))).toEqual({
			source: join(dir, "roster.json"),
			format: "inline",
			enabled: false,
			entries: [],
		});
	});

	it("accepts a normalized definition and snapshots its direct children", () => {
		const dir = join(fixtures, "normalized");
		const roster = loadRosterFile(join(dir, "foreman/agent.json"));
		expect(roster).toMatchObject({ format: "normalized", enabled: true, source: join(dir, "foreman/agent.json") });
		expect(roster.entries.map((e) => e.name)).toEqual(["feature-owner", "foreman"]);
		const [owner, self] = roster.entries;
		expect(owner).toMatchObject({
			harness: "pi",
			agentFile: join(dir, "feature-owner/agent.json"),
			rosterFile: join(dir, "feature-owner/agent.json"),
			cwd: dir,
			resources: { skills: [join(dir, "feature-owner/skills/ownership/SKILL.md")], mcp_servers: null },
		});
		expect(self).toMatchObject({ effort: "high", agentFile: join(dir, "foreman/agent.json") });
	});

	it("gives non-pi normalized children no roster selection while pi leaves get their own file", () => {
		const dir = join(fixtures, "normalized");
		const roster = loadRosterFile(join(dir, "feature-owner/agent.json"));
		const byName = Object.fromEntries(roster.entries.map((e) => [e.name, e]));
		expect(byName.implementation).toMatchObject({
			harness: "codex",
			agentFile: join(dir, "implementation/agent.json"),
		});
		expect(byName.implementation.rosterFile).toBeUndefined();
		expect(byName.reviewer.harness).toBe("claude_code");
		expect(byName.foreman.rosterFile).toBe(join(dir, "foreman/agent.json"));
	});

	it("accepts cyclic and self references", () => {
		const dir = join(fixtures, "normalized");
		expect(() => loadRosterFile(join(dir, "foreman/agent.json"))).not.toThrow();
		expect(() => loadRosterFile(join(dir, "feature-owner/agent.json"))).not.toThrow();
	});

	it("does not read grandchild definitions, only checks that they exist", () => {
		const dir = tempDir();
		writeTree(dir, {
			"parent/agent.json": def("parent", {}, ["../child/agent.json"]),
			"child/agent.json": def("child", {}, ["../grandchild/agent.json"]),
			"grandchild/agent.json": "{ this is not JSON",
		});
		const roster = loadRosterFile(join(dir, "parent/agent.json"));
		expect(roster.entries.map((e) => e.name)).toEqual(["child"]);
		rmSync(join(dir, "grandchild"), { recursive: true });
		expect(loadError(join(dir, "parent/agent.json")).problems).toEqual([
			`${join(dir, "parent/agent.json")}: roster.roles[0] → ${join(dir, "child/agent.json")}: roster.roles[0]: agent_file: ${join(dir, "grandchild/agent.json")} does not exist`,
		]);
	});

	it("rejects two normalized children with the same resolved name", () => {
		const dir = tempDir();
		writeTree(dir, {
			"parent/agent.json": def("parent", {}, ["../a/agent.json", "../b/agent.json"]),
			"a/agent.json": def("twin"),
			"b/agent.json": def("twin"),
		});
		expect(loadError(join(dir, "parent/agent.json")).problems).toEqual([
			`${join(dir, "parent/agent.json")}: roster.roles[1] "twin": name: duplicate name "twin" (already used by roster.roles[0])`,
		]);
	});

	it("resolves a symlinked roster's paths against the symlink's directory", () => {
		const dir = tempDir();
		writeTree(dir, {
			"real/roster.json": { roster: { roles: [{ ...def("x").agent, cwd: "work" }] } },
			"link/work/README.md": "work",
		});
		symlinkSync(join(dir, "real/roster.json"), join(dir, "link/roster.json"));
		const roster = loadRosterFile(join(dir, "link/roster.json"));
		expect(roster.source).toBe(join(dir, "link/roster.json"));
		expect(roster.entries[0].cwd).toBe(join(dir, "link/work"));
		expect(() => loadRosterFile(join(dir, "real/roster.json"))).toThrow(/real\/work does not exist/);
	});

	it("rejects ~ and URL paths instead of expanding them", () => {
		const dir = tempDir();
		writeTree(dir, {
			"roster.json": {
				roster: {
					roles: [{ ...def("x").agent, cwd: "~/work", resources: { skills: ["https://example.com/SKILL.md"] } }],
				},
			},
		});
		const problems = loadError(join(dir, "roster.json")).problems.join("\n");
		expect(problems).toMatch(/cwd: "~\/work": "~" is not expanded/);
		expect(problems).toMatch(/resources\.skills\[0\]: "https:\/\/example\.com\/SKILL\.md": URLs and package selectors/);
	});
});

describe("snapshot digests and recheckNormalizedEntry", () => {
	function setup() {
		const dir = tempDir();
		writeTree(dir, {
			"parent/agent.json": def("parent", {}, ["../child/agent.json"]),
			"child/agent.json": def("child", { effort: "low" }),
		});
		const [entry] = loadRosterFile(join(dir, "parent/agent.json")).entries;
		return { dir, entry, childFile: join(dir, "child/agent.json") };
	}

	it("passes when the child definition is unchanged, whatever its formatting", () => {
		const { entry, childFile } = setup();
		writeFileSync(childFile, JSON.stringify(def("child", { effort: "low" })));
		expect(problemsFound((problems) => recheckNormalizedEntry(entry, problems))).toEqual([]);
	});

	it("passes when only the child's own roster changed (read at its launch)", () => {
		const { entry, childFile } = setup();
		writeTree(dirname(childFile), { "agent.json": def("child", { effort: "low" }, ["./agent.json"]) });
		expect(problemsFound((problems) => recheckNormalizedEntry(entry, problems))).toEqual([]);
	});

	it("fails naming the file and /reload when the child definition changed", () => {
		const { entry, childFile } = setup();
		writeTree(dirname(childFile), { "agent.json": def("child", { effort: "high" }) });
		expect(problemsFound((problems) => recheckNormalizedEntry(entry, problems))).toEqual([
			expect.stringMatching(
				new RegExp(`^${childFile}: the agent definition of roster entry "child" changed after load; run /reload`),
			),
		]);
	});

	it("fails naming the file and /reload when the child definition was deleted", () => {
		const { entry, childFile } = setup();
		rmSync(childFile);
		expect(problemsFound((problems) => recheckNormalizedEntry(entry, problems))).toEqual([
			expect.stringMatching(/was deleted after load; run \/reload/),
		]);
	});

	it("fails listing the problems when the child definition became invalid", () => {
		const { entry, childFile } = setup();
		writeFileSync(childFile, "{");
		const problems = problemsFound((found) => recheckNormalizedEntry(entry, found));
		expect(problems[0]).toMatch(/is no longer valid; fix it \(and if you changed its agent settings, run \/reload/);
		expect(problems[1]).toMatch(new RegExp(`^${childFile}: malformed JSON`));
	});

	it("ignores entries that do not come from an agent file", () => {
		const entry: RosterEntry = { name: "x", description: "d", harness: "pi", model: "m", effort: "e", digest: "" };
		expect(problemsFound((problems) => recheckNormalizedEntry(entry, problems))).toEqual([]);
	});

	it("computes the same digest for the same settings in any key order", () => {
		expect(settingsDigest({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
			settingsDigest({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }),
		);
		expect(settingsDigest({ a: 1 })).not.toBe(settingsDigest({ a: 2 }));
	});

	it("treats a defaulted resource field and an explicit default as the same settings", () => {
		const dir = tempDir();
		writeTree(dir, {
			"p/agent.json": def("p", {}, ["../c/agent.json"]),
			"c/agent.json": def("c", { resources: {} }),
		});
		const [entry] = loadRosterFile(join(dir, "p/agent.json")).entries;
		mkdirSync(join(dir, "c"), { recursive: true });
		writeTree(dir, { "c/agent.json": def("c", { resources: { skills: [], mcp_servers: null } }) });
		expect(problemsFound((problems) => recheckNormalizedEntry(entry, problems))).toEqual([]);
	});
});
