/**
 * What a loaded agent definition is, whatever format it was written in (docs/agent-libraries.md): a
 * Markdown agent of this package or pi-subagents (`pi`), a Claude Code subagent (`claude`) or a codex
 * custom agent (`codex`).
 */
import type { CodexAgentLaunch, Harness } from "../core/launch-spec.ts";

/** Which agent directories are searched: user scope (and the built-ins) is the default, project scope is opt-in. */
export type AgentScope = "user" | "project" | "both";

/**
 * Where a definition was found. `builtin` is this package's `agents/` folder (lowest precedence); project
 * definitions are project-controlled and need trust.
 */
export type AgentSource = "builtin" | "user" | "project";

/** The format a definition file is written in, which is also its qualifier (`claude:reviewer`). */
export type AgentFormat = "pi" | "claude" | "codex";

export const AGENT_FORMATS: readonly AgentFormat[] = ["pi", "claude", "codex"];

/** Codex custom-agent settings that `codex exec` takes as flags or `-c` overrides. */
export type CodexAgentSettings = CodexAgentLaunch;

/** pi-subagents keys that change how a pi child starts (docs/agent-libraries.md §pi format). */
export interface PiAgentSettings {
	/** `systemPromptMode: replace`: the body replaces pi's system prompt instead of being appended. */
	replaceSystemPrompt?: boolean;
	/** `inheritProjectContext: false`: no AGENTS.md / CLAUDE.md context files. */
	noContextFiles?: boolean;
	/** `inheritSkills: false`: no skill discovery. */
	noSkills?: boolean;
	/** `defaultContext: fork`: the child starts from a fork of the parent's session. */
	forkParentSession?: boolean;
	/** `defaultReads`: files (relative to the child's cwd) listed for the child to read first. */
	readFirst?: string[];
	/** `output`: the final answer is also written to this file, relative to the child's cwd. */
	outputFile?: string;
}

/** One valid agent definition. */
export interface AgentDefinition {
	name: string;
	/** Extra names it can be selected by (pi-subagents `aliases`). */
	aliases: string[];
	description: string;
	format: AgentFormat;
	/** Tool allowlist; `undefined` means the harness default. An explicit empty list means no tools. */
	tools?: string[];
	/** Tool denylist (`disallowedTools`). */
	disallowedTools?: string[];
	/** Keys accepted and without effect here (cosmetic), sorted. */
	ignoredKeys: string[];
	model?: string;
	effort?: string;
	/** The harness it runs on when the call does not name one. */
	harness: Harness;
	/** The body (Markdown after the frontmatter, or codex `developer_instructions`), trimmed. */
	systemPrompt: string;
	source: AgentSource;
	/** Absolute path of the file. */
	filePath: string;
	/** sha256 (hex) of the file's content: what a trust confirmation and a resume check refer to. */
	digest: string;
	/** pi-subagents settings (pi format). */
	pi?: PiAgentSettings;
	/**
	 * Claude Code format: the frontmatter keys claude's `--agents` JSON takes (without `prompt`, which is
	 * the body), as written; keys that only claude can honour are named in `claudeOnlyKeys`.
	 */
	claude?: { definition: Record<string, unknown>; claudeOnlyKeys: string[] };
	/** Codex format: the keys `codex exec` takes. */
	codex?: CodexAgentSettings;
}

/** A file (or agents directory) that could not be used, with every reason found. */
export interface AgentFileError {
	/** Absolute path of the file or directory. */
	filePath: string;
	source: AgentSource;
	format: AgentFormat;
	/** Human-readable reasons, each naming the key when there is one. */
	problems: string[];
	/**
	 * The agent name the file claims: its file name without the extension (`scout.md` → `scout`), or the
	 * name two files both define. A definition of that name from a lower-precedence source is not used in
	 * its place. Absent for an unreadable directory.
	 */
	name?: string;
	/** The `aliases` of a file refused for a name clash, kept from lower-precedence files as `name` is. */
	aliases?: string[];
}

/** A definition hidden by one of higher precedence with the same name (docs/agent-libraries.md §Selecting an agent). */
export interface ShadowedAgent {
	agent: AgentDefinition;
	/** The file that wins. */
	by: string;
}
