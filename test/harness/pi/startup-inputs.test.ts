/**
 * What a pi child reads when it starts (src/harness/pi/startup-inputs.ts), the part of a warm child's launch
 * that is files (docs/settings.md §Warm pi children).
 */
import { describe, expect, it } from "vitest";
import { piStartupInputs } from "../../../src/harness/pi/startup-inputs.ts";
import { launchSpec } from "../../support/launch-spec.ts";

describe("the start-up inputs of a pi child", () => {
	it("are the agent dir's configuration and resources, the child's home skills, the cwd's .pi, every parent's context files and the named resources", () => {
		const spec = launchSpec({
			harness: "pi",
			cwd: "/work/repo",
			resources: {
				skills: ["skills/review"],
				extensions: ["/opt/ext.ts"],
				plugins: [],
				packages: [],
				inherit_personal_resources: true,
				inherit_project_resources: true,
				mcp_servers: null,
				include_instruction_files: true,
				include_home_system_prompt: true,
			},
		});
		const inputs = piStartupInputs(spec, "/home/u/.pi/agent", "/home/child");
		for (const name of [
			"settings.json",
			"models.json",
			"auth.json",
			"extensions",
			"skills",
			"AGENTS.md",
			"SYSTEM.md",
		]) {
			expect(inputs).toContain(`/home/u/.pi/agent/${name}`);
		}
		expect(inputs).toContain("/home/child/.agents/skills");
		expect(inputs).toContain("/work/repo/.pi");
		for (const dir of ["/work/repo", "/work", ""]) {
			expect(inputs).toContain(`${dir}/AGENTS.md`);
			expect(inputs).toContain(`${dir}/CLAUDE.md`);
			expect(inputs).toContain(`${dir}/.agents/skills`);
		}
		expect(inputs).toContain("/work/repo/skills/review");
		expect(inputs).toContain("/opt/ext.ts");
	});
});
