/**
 * Selected skills for normalized codex and claude children (docs/rules.md §Selected skills for codex and claude
 * children): neither CLI takes a per-run skill path, so the skill files are delivered as references in the prompt.
 * Pure; discovery (`config/skills.ts`) happens earlier.
 */

/** The first line of the block, as the spec words it. */
const SKILL_REFERENCES_HEADING = "Selected skill files: read and follow these before doing the assigned task.";

/**
 * Appends the read-before-work block to `task`, which stays verbatim: one `- "<path>"` line per file with
 * the path JSON-quoted. No file bodies are embedded. No files (or `undefined`) returns `task` unchanged.
 *
 * @param files discovered absolute skill file paths, already sorted and de-duplicated (`LaunchSpec.skillReferences`).
 * @example appendSkillReferences("Fix the bug.", ["/w/skills/tdd/SKILL.md"])
 * // 'Fix the bug.\n\nSelected skill files: read and follow these before doing the assigned task.\n- "/w/skills/tdd/SKILL.md"'
 */
export function appendSkillReferences(task: string, files: readonly string[] | undefined): string {
	if (!files || files.length === 0) return task;
	const lines = files.map((file) => `- ${JSON.stringify(file)}`);
	return `${task}\n\n${SKILL_REFERENCES_HEADING}\n${lines.join("\n")}`;
}

/**
 * The problem for a non-empty `resources.skills` on codex or claude (the adapter prefixes the harness):
 * only normalized roster children get skills, as references with `resources.skills` emptied; ad-hoc and
 * inline-roster selections keep the native behaviour, which is that these CLIs have no skill option.
 */
export const UNSUPPORTED_SKILLS_PROBLEM =
	"resources.skills is not supported for ad-hoc calls or inline roster entries (the native CLI has no per-run skill option); select skills through a normalized agent.json roster entry, which delivers them as prompt references";
