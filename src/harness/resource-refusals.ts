/**
 * The resource options a harness refuses because it has no way to honour them, in one table
 * (docs/rules.md §Resources; docs/harness-support.md). Rules that
 * depend on more than one option or on files (pi's paired inheritance flags, pi's `SYSTEM.md` check)
 * stay in the harness's own command builder.
 */
import type { Harness, LaunchSpec, Resources } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import { UNSUPPORTED_SKILLS_PROBLEM } from "./skill-references.ts";

/** One option: when it is asked for, and each refusing harness's reason (absent: that harness honours it). */
interface ResourceRefusal {
	asked(resources: Resources): boolean;
	refusedBy: Partial<Record<Harness, string>>;
}

const MCP_INHERIT_OR_DISABLE = "resources.mcp_servers: only null (inherit) or [] (disable) are supported";

const RESOURCE_REFUSALS: readonly ResourceRefusal[] = [
	{
		asked: (r) => r.skills.length > 0,
		refusedBy: { codex: UNSUPPORTED_SKILLS_PROBLEM, claude_code: UNSUPPORTED_SKILLS_PROBLEM },
	},
	{
		asked: (r) => r.plugins.length > 0,
		refusedBy: {
			pi: "resources.plugins: the pi harness has no plugins; use extensions or skills",
			codex: "resources.plugins: codex has no per-run plugin directory",
		},
	},
	{
		asked: (r) => r.extensions.length > 0,
		refusedBy: {
			codex: "resources.extensions: extensions are pi-only",
			claude_code: "resources.extensions: extensions are pi-only; use plugins",
		},
	},
	{
		asked: (r) => r.packages.length > 0,
		refusedBy: Object.fromEntries(
			(["pi", "codex", "claude_code"] as const).map((harness) => [
				harness,
				"resources.packages: must be empty; this package never installs packages",
			]),
		),
	},
	{
		asked: (r) => r.mcp_servers !== null && r.mcp_servers.length > 0,
		refusedBy: {
			pi: MCP_INHERIT_OR_DISABLE,
			codex: "resources.mcp_servers: only null (inherit) is supported",
			claude_code: MCP_INHERIT_OR_DISABLE,
		},
	},
	{
		asked: (r) => r.mcp_servers !== null && r.mcp_servers.length === 0,
		refusedBy: {
			codex:
				"resources.mcp_servers: [] cannot be honoured: codex has no per-run switch that removes configured MCP servers (-c mcp_servers={} does not)",
		},
	},
	{
		asked: (r) => !r.inherit_personal_resources,
		refusedBy: {
			codex:
				"resources.inherit_personal_resources: false cannot be honoured: codex always loads $CODEX_HOME (config, AGENTS.md, skills)",
		},
	},
	{
		asked: (r) => !r.inherit_project_resources,
		refusedBy: {
			codex:
				"resources.inherit_project_resources: false cannot be honoured: codex has no switch for project skills and instructions",
		},
	},
	{
		asked: (r) => !r.include_instruction_files,
		refusedBy: {
			codex:
				"resources.include_instruction_files: false cannot be honoured: codex always reads $CODEX_HOME/AGENTS.md (project_doc_max_bytes=0 drops only project files)",
		},
	},
	{
		asked: (r) => !r.include_home_system_prompt,
		refusedBy: {
			codex: "resources.include_home_system_prompt: false cannot be honoured: codex has no home system prompt switch",
			claude_code:
				"resources.include_home_system_prompt: false cannot be honoured: claude has no home system prompt switch",
		},
	},
];

/**
 * Adds the reasons `harness` refuses the options `resources` asks for to `problems`, in table order; none
 * when there is no selection. Pure.
 */
export function addResourceRefusals(harness: Harness, resources: Resources | undefined, problems: Problems): void {
	if (!resources) return;
	for (const rule of RESOURCE_REFUSALS) {
		const reason = rule.refusedBy[harness];
		if (reason !== undefined && rule.asked(resources)) problems.add(reason);
	}
}

/** Agent-definition options of a spec, with each refusing harness's reason (docs/agent-libraries.md). */
const AGENT_REFUSALS: readonly { asked(spec: LaunchSpec): boolean; refusedBy: Partial<Record<Harness, string>> }[] = [
	{
		asked: (s) => s.replaceSystemPrompt === true && s.systemPromptAddition !== undefined,
		refusedBy: { codex: "systemPromptMode: replace cannot be honoured: codex has no flag that replaces its prompt" },
	},
	{
		asked: (s) => s.noSkills === true,
		refusedBy: {
			codex: "inheritSkills: false cannot be honoured: codex has no switch that turns skill discovery off",
			claude_code: "inheritSkills: false cannot be honoured: claude has no switch that turns skill discovery off",
		},
	},
	{
		asked: (s) => s.forkSessionFile !== undefined,
		refusedBy: {
			codex: "defaultContext: fork: only pi forks the parent's pi session",
			claude_code: "defaultContext: fork: only pi forks the parent's pi session",
		},
	},
	{
		asked: (s) => s.claudeAgent !== undefined,
		refusedBy: {
			pi: "a Claude Code agent definition runs only on claude",
			codex: "a Claude Code agent definition runs only on claude",
		},
	},
	{
		asked: (s) => s.codexAgent !== undefined,
		refusedBy: { pi: "codex agent settings run only on codex", claude_code: "codex agent settings run only on codex" },
	},
];

/** Adds the reasons `harness` refuses the agent-definition options of `spec` to `problems`. Pure. */
export function addAgentRefusals(harness: Harness, spec: LaunchSpec, problems: Problems): void {
	for (const rule of AGENT_REFUSALS) {
		const reason = rule.refusedBy[harness];
		if (reason !== undefined && rule.asked(spec)) problems.add(reason);
	}
}
