/**
 * Resource selections given as tool arguments (docs/rules.md §Calling the tool and §Paths and child environments:
 * "Ad-hoc resources and `roster_file` resolve against the effective child cwd"). Validated with the same zod schema as
 * roster files, then resolved and checked with the same path rules.
 */
import { resolveResources } from "../config/roster-resources.ts";
import { resourcesSchema } from "../config/roster-schema.ts";
import { addZodIssues } from "../config/zod-issues.ts";
import type { Resources } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";

/** Every field at its default: what "no resources" means when a selection must be compared. */
export const DEFAULT_RESOURCES: Resources = {
	skills: [],
	plugins: [],
	extensions: [],
	packages: [],
	mcp_servers: null,
	inherit_personal_resources: true,
	inherit_project_resources: true,
	include_instruction_files: true,
	include_home_system_prompt: true,
};

/**
 * Parses and resolves a `resources` argument against `childCwd`. `undefined`/`null` → `undefined`
 * (not set). Problems are added as `resources.<field>: <reason>`.
 */
export function resolveResourceArgument(raw: unknown, childCwd: string, problems: Problems): Resources | undefined {
	if (raw === undefined || raw === null) return undefined;
	const parsed = resourcesSchema().safeParse(raw);
	if (!parsed.success) {
		addZodIssues(parsed.error.issues, problems, "resources.");
		return undefined;
	}
	return resolveResources(parsed.data, childCwd, problems);
}
