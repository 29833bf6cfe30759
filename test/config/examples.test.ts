import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadRosterFile } from "../../src/config/roster.ts";
import { recheckNormalizedEntry } from "../../src/config/roster-normalized.ts";
import { discoverSkillFiles } from "../../src/config/skills.ts";
import { Problems } from "../../src/core/problems.ts";
import { problemsFound } from "../support/problems.ts";

const examples = resolve(dirname(fileURLToPath(import.meta.url)), "../../examples");

describe("shipped example rosters", () => {
	it("loads the normalized foreman → feature-owner → implementation and reviewer graph", () => {
		const foreman = loadRosterFile(join(examples, "normalized/foreman/agent.json"));
		expect(foreman.entries.map((e) => e.name)).toEqual(["feature-owner"]);
		for (const entry of foreman.entries)
			expect(problemsFound((problems) => recheckNormalizedEntry(entry, problems))).toEqual([]);
		const owner = loadRosterFile(join(examples, "normalized/feature-owner/agent.json"));
		expect(owner.entries.map((e) => e.name)).toEqual(["implementation", "reviewer"]);
		const implementation = owner.entries[0];
		expect(discoverSkillFiles(implementation.resources?.skills ?? [], "resources.skills", new Problems())).toEqual([
			join(examples, "normalized/implementation/skills/tdd/SKILL.md"),
		]);
		expect(discoverSkillFiles(foreman.entries[0].resources?.skills ?? [], "resources.skills", new Problems())).toEqual([
			join(examples, "normalized/feature-owner/skills/ownership/SKILL.md"),
		]);
	});

	it("loads the inline roster and its feature-owner child roster", () => {
		const root = loadRosterFile(join(examples, "inline/roster.json"));
		expect(root.entries[0]).toMatchObject({
			name: "feature-owner",
			rosterFile: join(examples, "inline/feature-owner-roster.json"),
		});
		const child = loadRosterFile(root.entries[0].rosterFile ?? "");
		expect(child.entries.map((e) => [e.name, e.harness])).toEqual([
			["implementation", "pi"],
			["reviewer", "codex"],
		]);
	});
});
