/**
 * What a pi child reads from disk when it starts, before it is given a task (Pi's docs/configuration.md,
 * Pi's docs/security.md "Resources protected by project trust", Pi's docs/skills.md): a warm child read them when it
 * started, so they are part of its launch (docs/settings.md §Warm pi children).
 */
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { LaunchSpec } from "../../core/launch-spec.ts";

/** Context files Pi loads from the agent dir, the working directory and each of its parents. */
const CONTEXT_FILES = ["AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];

/** What the agent dir holds that a starting pi reads (settings, models, credentials, prompts, resources). */
const AGENT_DIR_INPUTS = [
	"settings.json",
	"models.json",
	"auth.json",
	"mcp.json",
	"SYSTEM.md",
	"APPEND_SYSTEM.md",
	"extensions",
	"skills",
	"prompts",
	"themes",
	...CONTEXT_FILES,
];

/**
 * The files and directories (absolute, possibly absent) a pi child of `spec` reads at start: the agent dir's
 * configuration and resources, `<home>/.agents/skills` (`home`: the child's `HOME`, default this process's),
 * the cwd's `.pi` directory (what project trust gates), the context files and `.agents/skills` of the cwd and
 * every parent, and the resource paths the spec names.
 */
export function piStartupInputs(spec: LaunchSpec, agentDir: string, home = homedir()): string[] {
	const inputs = AGENT_DIR_INPUTS.map((name) => join(agentDir, name));
	inputs.push(join(home, ".agents", "skills"), join(resolve(spec.cwd), ".pi"));
	for (let dir = resolve(spec.cwd); ; dir = dirname(dir)) {
		inputs.push(...CONTEXT_FILES.map((name) => join(dir, name)), join(dir, ".agents", "skills"));
		if (dirname(dir) === dir) break;
	}
	for (const path of [...(spec.resources?.skills ?? []), ...(spec.resources?.extensions ?? [])]) {
		inputs.push(resolve(spec.cwd, path));
	}
	return inputs;
}
