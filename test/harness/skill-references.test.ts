import { describe, expect, it } from "vitest";
import { appendSkillReferences } from "../../src/harness/skill-references.ts";

describe("skill reference block", () => {
	it("appends JSON-quoted absolute paths after the verbatim briefing", () => {
		const task = 'Implement "export".\n\n- keep tests green\n';
		expect(appendSkillReferences(task, ["/w/a b/SKILL.md", '/w/q"uote/SKILL.md'])).toBe(
			`${task}\n\nSelected skill files: read and follow these before doing the assigned task.\n- "/w/a b/SKILL.md"\n- "/w/q\\"uote/SKILL.md"`,
		);
	});

	it("adds nothing when no skills are selected", () => {
		expect(appendSkillReferences("task", [])).toBe("task");
		expect(appendSkillReferences("task", undefined)).toBe("task");
	});
});
