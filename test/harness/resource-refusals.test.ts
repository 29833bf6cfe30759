/** The shared table of resource refusals (harness/resource-refusals.ts): each harness refuses only what it cannot honour. */
import { describe, expect, it } from "vitest";
import type { Harness, Resources } from "../../src/core/launch-spec.ts";
import { addResourceRefusals } from "../../src/harness/resource-refusals.ts";
import { resources } from "../support/launch-spec.ts";
import { problemsFound } from "../support/problems.ts";

const EVERYTHING = resources({
	skills: ["/s"],
	plugins: ["/p"],
	extensions: ["/e"],
	packages: ["pkg"],
	mcp_servers: ["srv"],
	inherit_personal_resources: false,
	inherit_project_resources: false,
	include_instruction_files: false,
	include_home_system_prompt: false,
});

/** The option each problem names first (`resources.<field>`). */
const fields = (problems: string[]) => problems.map((problem) => /^resources\.\w+/.exec(problem)?.[0]);

/** The refusals of `harness` for `selection`. */
const resourceRefusals = (harness: Harness, selection: Resources) =>
	problemsFound((problems) => addResourceRefusals(harness, selection, problems));

describe("addResourceRefusals", () => {
	it("refuses nothing for the default resources", () => {
		for (const harness of ["pi", "codex", "claude_code"] as const)
			expect(resourceRefusals(harness, resources({}))).toEqual([]);
	});

	it("names, per harness, exactly the options it cannot honour", () => {
		expect(fields(resourceRefusals("pi", EVERYTHING))).toEqual([
			"resources.plugins",
			"resources.packages",
			"resources.mcp_servers",
		]);
		expect(fields(resourceRefusals("claude_code", EVERYTHING))).toEqual([
			"resources.skills",
			"resources.extensions",
			"resources.packages",
			"resources.mcp_servers",
			"resources.include_home_system_prompt",
		]);
		expect(fields(resourceRefusals("codex", EVERYTHING))).toHaveLength(9);
	});

	it("refuses mcp_servers: [] on codex only", () => {
		const disable = resources({ mcp_servers: [] });
		expect(resourceRefusals("pi", disable)).toEqual([]);
		expect(resourceRefusals("claude_code", disable)).toEqual([]);
		expect(resourceRefusals("codex", disable)).toEqual([
			expect.stringContaining("resources.mcp_servers: [] cannot be honoured"),
		]);
	});
});
