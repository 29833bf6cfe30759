/**
 * A roster entry's `resources` with every path resolved against the file that declared it and checked
 * (docs/rules.md §Resources).
 */
import type { Resources } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import { type PathKind, resolveExisting } from "./paths.ts";
import type { ParsedResources } from "./roster-schema.ts";

const RESOURCE_PATH_KINDS: Record<"skills" | "plugins" | "extensions", PathKind> = {
	skills: "any",
	plugins: "dir",
	extensions: "any",
};

/**
 * Resolves parsed `resources` against `baseDir` and checks each listed path exists (skills/extensions: file
 * or directory; plugins: directory). Problems are added as `<key>.<field>[i]: …`.
 * @param key the field path of the selection in its file: `resources`, or `agent.resources` in an `agent.json`.
 */
export function resolveResources(
	parsed: ParsedResources,
	baseDir: string,
	problems: Problems,
	key = "resources",
): Resources {
	const resolveList = (field: "skills" | "plugins" | "extensions") =>
		parsed[field].map((raw, i) =>
			resolveExisting(baseDir, raw, RESOURCE_PATH_KINDS[field], problems.at(`${key}.${field}[${i}]`)),
		);
	return {
		skills: resolveList("skills"),
		plugins: resolveList("plugins"),
		extensions: resolveList("extensions"),
		packages: [],
		mcp_servers: parsed.mcp_servers === null ? null : [],
		inherit_personal_resources: parsed.inherit_personal_resources,
		inherit_project_resources: parsed.inherit_project_resources,
		include_instruction_files: parsed.include_instruction_files,
		include_home_system_prompt: parsed.include_home_system_prompt,
	};
}
