/**
 * Frontmatter keys of agent files written for other tools, read in a pi-format directory (`.pi/agents`,
 * `<agent dir>/agents`; docs/agent-libraries.md §pi format): the official Pi subagent example (`name`,
 * `description`, `tools`, `model`: all native here), Claude Code subagents copied into a pi directory, and
 * the pi-subagents package. A key whose meaning a pi child can be given is mapped (`agent-markdown.ts`); a
 * purely cosmetic one is accepted and listed as ignored; a key that would restrict or empower the child in
 * a way a pi child cannot honour is refused by name, with what it would have changed. Any other key is an
 * error with the nearest known key suggested (a typo must not change a child silently).
 */
import type { Problems } from "../core/problems.ts";

/** Keys accepted and ignored: they change presentation or another tool's workflow, not what the child may do. */
export const IGNORED_AGENT_KEYS: Readonly<Record<string, string>> = {
	color: "display colour",
	background: "Claude Code: run as a background task (use background: true on the call)",
	defaultProgress: "pi-subagents: progress file of its chains",
	interactive: "pi-subagents: parsed but not enforced there either",
};

/** Keys refused, with what they would change that a pi child cannot honour. */
export const REFUSED_AGENT_KEYS: Readonly<Record<string, string>> = {
	permissionMode:
		"would change the child's permission mode (Claude Code); put the file in a .claude/agents directory to run it on claude, or use auto_approve, allowed_tools or disallowed_tools on the call",
	maxTurns: "would limit the child's turns (Claude Code), which a pi child cannot enforce",
	skills:
		"would preload named skills (Claude Code, pi-subagents); select skills through a roster entry's resources, or run a Claude Code file from .claude/agents on claude",
	skill: "would inject named skills (pi-subagents); select skills through a roster entry's resources",
	mcpServers: "would give the child MCP servers (Claude Code); MCP servers come from the harness's own configuration",
	hooks: "would run hooks around the child's tool calls (Claude Code)",
	memory: "would give the child persistent memory (Claude Code)",
	isolation: "would run the child in a temporary git worktree (Claude Code)",
	extensions: "would select the child's Pi extensions (pi-subagents); select them through a roster entry's resources",
};

/** Values of refused keys that change nothing, so they are accepted (and listed as ignored). */
const NEUTRAL_VALUES: Readonly<Record<string, readonly unknown[]>> = {
	permissionMode: ["default"],
};

/**
 * Claude Code tool names mapped to pi's built-in tools, for a pi child of a file written for Claude Code
 * (`Glob` finds files by pattern, as pi's `find` does).
 */
export const CLAUDE_TO_PI_TOOLS: Readonly<Record<string, string>> = {
	Read: "read",
	Write: "write",
	Edit: "edit",
	Bash: "bash",
	Grep: "grep",
	Glob: "find",
	LS: "ls",
};

/** A tool name as a pi child knows it: Claude Code's built-in names mapped ({@link CLAUDE_TO_PI_TOOLS}), others kept. */
export function piToolName(name: string): string {
	return Object.hasOwn(CLAUDE_TO_PI_TOOLS, name) ? CLAUDE_TO_PI_TOOLS[name] : name;
}

/**
 * Splits foreign keys off a frontmatter mapping.
 * @returns the remaining mapping (for the native schema) and the ignored keys present; one problem per
 *   refused key present, naming it, is added to `problems`.
 */
export function splitForeignKeys(
	frontmatter: Record<string, unknown>,
	problems: Problems,
): { rest: Record<string, unknown>; ignored: string[] } {
	const rest: [string, unknown][] = [];
	const ignored: string[] = [];
	for (const [key, value] of Object.entries(frontmatter)) {
		// Own keys only: a key named like an Object.prototype member (`toString`, `__proto__`) is unknown.
		if (
			Object.hasOwn(IGNORED_AGENT_KEYS, key) ||
			(Object.hasOwn(NEUTRAL_VALUES, key) && NEUTRAL_VALUES[key].includes(value))
		)
			ignored.push(key);
		else if (Object.hasOwn(REFUSED_AGENT_KEYS, key))
			problems.add(`${key}: ${REFUSED_AGENT_KEYS[key]}; remove it to use this file`);
		else rest.push([key, value]);
	}
	// fromEntries keeps a `__proto__` key as an own key (an assignment would set the prototype instead).
	return { rest: Object.fromEntries(rest), ignored: ignored.sort() };
}
