/**
 * docs/rules.md §Configuration files: a file with problems lists all of them in one answer; §Rosters: a duplicate
 * name is an error naming the file, the entry and the field. The duplicate-name check runs over every roster entry
 * with a readable name, whether or not the rest of the entry passed its checks: in an inline roster file, in a
 * normalized roster's child definitions and in the settings file's personal roster. An entry with no usable name
 * causes no duplicate report.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRosterFile } from "../../src/config/roster.ts";
import { loadInline } from "../../src/config/roster-inline.ts";
import { loadRuntimeConfig } from "../../src/config/runtime-config.ts";
import { problemsOf, tempDir, writeTree } from "./helpers.ts";

const entry = (name: unknown, extra: Record<string, unknown> = {}) => ({
	name,
	description: "d",
	agent_type: "pi",
	model: "fake/fake-model",
	effort: "off",
	...extra,
});

const inlineProblems = (roles: unknown[]) =>
	problemsOf(() => loadInline({ roster: { enabled: true, roles } }, "/tmp/roster.json")).join("\n");

describe("an inline roster with a duplicate name on an entry that has other problems too", () => {
	it("lists the duplicate name together with the unknown key", () => {
		const message = inlineProblems([entry("c"), entry("c", { resource: {} })]);
		expect(message).toContain('roster.roles[1] "c": resource: unknown key "resource"');
		expect(message).toContain('roster.roles[1] "c": name: duplicate name "c" (already used by roster.roles[0])');
	});

	it("lists it when the earlier entry is the malformed one", () => {
		const message = inlineProblems([entry("c", { model: "" }), entry("c")]);
		expect(message).toContain('roster.roles[0] "c": model: must not be empty');
		expect(message).toContain('roster.roles[1] "c": name: duplicate name "c" (already used by roster.roles[0])');
	});

	it("reports the duplicate name of well-formed entries as before", () => {
		expect(inlineProblems([entry("c"), entry("c")])).toContain('duplicate name "c"');
	});

	it("reports no duplicate for entries with no usable name", () => {
		for (const name of ["", "  ", 7, undefined]) {
			expect(inlineProblems([entry(name), entry(name)])).not.toContain("duplicate name");
		}
	});
});

describe("the other rosters get the same check", () => {
	it("a normalized roster: two children of one name, one with an unknown key", () => {
		const dir = tempDir();
		const definition = (extra: Record<string, unknown> = {}) => ({
			agent: entry("twin", extra),
			roster: { enabled: false, roles: [] },
		});
		writeTree(dir, {
			"parent/agent.json": {
				agent: entry("parent"),
				roster: { enabled: true, roles: [{ agent_file: "../a/agent.json" }, { agent_file: "../b/agent.json" }] },
			},
			"a/agent.json": definition(),
			"b/agent.json": definition({ resource: {} }),
		});
		const message = problemsOf(() => loadRosterFile(join(dir, "parent/agent.json"))).join("\n");
		expect(message).toContain('agent.resource: unknown key "resource"');
		expect(message).toContain('roster.roles[1] "twin": name: duplicate name "twin" (already used by roster.roles[0])');
	});

	it("a normalized roster with a problem of its own (a missing agent_file, a bad cwd): its children are read too", () => {
		const dir = tempDir();
		const definition = (extra: Record<string, unknown> = {}) => ({
			agent: entry("twin", extra),
			roster: { enabled: false, roles: [] },
		});
		const roles = ["../a/agent.json", "../b/agent.json", "../gone/agent.json"].map((file) => ({ agent_file: file }));
		writeTree(dir, {
			"parent/agent.json": { agent: entry("parent", { cwd: "no-such-dir" }), roster: { enabled: true, roles } },
			"a/agent.json": definition(),
			"b/agent.json": definition({ resource: {} }),
		});
		const message = problemsOf(() => loadRosterFile(join(dir, "parent/agent.json"))).join("\n");
		expect(message).toContain("roster.roles[2]: agent_file:");
		expect(message).toContain("agent.cwd:");
		expect(message).toContain('agent.resource: unknown key "resource"');
		expect(message).toContain('roster.roles[1] "twin": name: duplicate name "twin" (already used by roster.roles[0])');
	});

	it("a normalized roster that lists itself as a role reports its own problems once", () => {
		const dir = tempDir();
		const roles = [{ agent_file: "agent.json" }, { agent_file: "../gone/agent.json" }];
		writeTree(dir, {
			"parent/agent.json": { agent: entry("parent", { cwd: "no-such-dir" }), roster: { enabled: true, roles } },
		});
		const problems = problemsOf(() => loadRosterFile(join(dir, "parent/agent.json")));
		expect(problems.filter((problem) => problem.includes("no-such-dir does not exist"))).toHaveLength(1);
		expect(problems.filter((problem) => problem.includes("gone/agent.json does not exist"))).toHaveLength(1);
	});

	it("the settings file's personal roster, malformed in shape", () => {
		const agentDir = tempDir();
		const roster = { enabled: true, roles: [entry("c"), entry("c", { resource: {} })] };
		writeTree(agentDir, { "extensions/agentshell.json": JSON.stringify({ roster }) });
		const { settingsError } = loadRuntimeConfig(agentDir, {}, "/");
		expect(settingsError).toContain('roster.roles[1] "c": resource: unknown key "resource"');
		expect(settingsError).toContain('roster.roles[1] "c": name: duplicate name "c" (already used by roster.roles[0])');
		expect(settingsError?.match(/unknown key "resource"/g)).toHaveLength(1);
	});
});
