/**
 * The harness-neutral description of one child launch (docs/architecture.md). Everything above `harness/`
 * produces LaunchSpecs; each harness adapter translates one into a native command line.
 */

/** The native CLI that runs a child. `claude_code` is Anthropic's `claude`. */
export type Harness = "pi" | "codex" | "claude_code";

export const HARNESSES: readonly Harness[] = ["pi", "codex", "claude_code"];

/**
 * Resource selection (docs/rules.md §Resources). Paths are
 * absolute and lexical by the time they reach a LaunchSpec. `undefined` means "not selected".
 */
export interface Resources {
	/** Skill files or directories (pi: `--skill`). */
	skills: string[];
	/** Plugin directories (claude: `--plugin-dir`; rejected for pi). */
	plugins: string[];
	/** Extension files or directories (pi: `-e`). */
	extensions: string[];
	/** Must be empty: this package never installs packages. */
	packages: string[];
	/** `null` inherits the harness's MCP servers, `[]` disables them; a non-empty list is rejected. */
	mcp_servers: string[] | null;
	inherit_personal_resources: boolean;
	inherit_project_resources: boolean;
	include_instruction_files: boolean;
	include_home_system_prompt: boolean;
}

/** Limits applied to one child run. Units: ms and bytes. */
export interface RunLimits {
	/** Wall-clock limit for the whole run, ms. */
	timeoutMs: number;
	/** Grace between SIGTERM and SIGKILL to the process group, ms. */
	killGraceMs: number;
	/** How long a child may keep running after its terminal event before it is killed, ms. */
	terminalGraceMs: number;
	/** How long stdout is drained after the child exits (a grandchild may hold the pipe), ms. */
	drainMs: number;
	/** Longest stdout record accepted, bytes; a longer one is a protocol fault. */
	maxLineBytes: number;
	/** Size of the kept stderr tail, bytes. */
	stderrTailBytes: number;
}

/**
 * Where a launch's settings came from, one of three kinds (docs/rules.md §Resumption): an ad-hoc run, a
 * Markdown agent definition or a roster entry. Digests are sha256, hex.
 */
export type LaunchProvenance = AdHocProvenance | AgentProvenance | RosterEntryProvenance;

/** What every kind of provenance may carry. */
interface ProvenanceBase {
	/** sha256 of the child roster's parsed contents at launch (its entries' settings). */
	childRosterDigest?: string;
}

/** An ad-hoc launch: a harness named by `agent_type`, or a resume of a session with no definition. */
export interface AdHocProvenance extends ProvenanceBase {
	kind: "ad_hoc";
}

/** A launch from a Markdown agent definition. */
export interface AgentProvenance extends ProvenanceBase {
	kind: "agent";
	agentName: string;
	agentFile: string;
	agentSource: "builtin" | "user" | "project";
	/** The agent file's format (`pi`, `claude`, `codex`). */
	agentFormat?: string;
	/** sha256 of the agent file's content the session started from; kept unchanged on resume. */
	definitionDigest?: string;
	/** sha256 of the agent file's content this launch runs (on resume: the file as it is now). */
	agentDigest?: string;
}

/** A launch from a roster entry. */
export interface RosterEntryProvenance extends ProvenanceBase {
	kind: "roster_entry";
	/** The roster file, or `settings` for the personal roster in the settings file. */
	rosterSource: string;
	rosterEntry: string;
	/** Normalized `agent.json` of the entry, when it came from one. */
	agentDefinitionFile?: string;
	/** sha256 of the entry's parsed settings the session started from; kept unchanged on resume. */
	definitionDigest?: string;
}

/** The name of the definition a launch came from (roster entry or agent), `undefined` for an ad-hoc one. */
export function definitionName(provenance: LaunchProvenance): string | undefined {
	switch (provenance.kind) {
		case "roster_entry":
			return provenance.rosterEntry;
		case "agent":
			return provenance.agentName;
		case "ad_hoc":
			return undefined;
	}
}

/**
 * A Claude Code agent file handed to claude's own custom-agent mechanism (docs/agent-libraries.md §Claude
 * Code format): `--agents` defines `name` with `definition` (its frontmatter keys and `prompt`, the body),
 * `--agent` selects it for the session.
 */
export interface ClaudeAgentLaunch {
	name: string;
	definition: Record<string, unknown>;
}

/** A codex custom agent's settings that `codex exec` takes as flags or `-c` overrides (docs/agent-libraries.md §codex format). */
export interface CodexAgentLaunch {
	/** `sandbox_mode` → `--sandbox`. */
	sandboxMode?: "read-only" | "workspace-write" | "danger-full-access";
	/** `mcp_servers` → `-c mcp_servers.<name>=<inline table>` per server. */
	mcpServers?: Record<string, unknown>;
	/** `skills` → `-c skills=<inline table>`. */
	skills?: unknown;
}

/** Options of a run in the harness's own TUI in tmux (docs/interactive.md). */
export interface InteractiveOptions {
	/** Keep the tmux session (and the harness in it) after the run ends. */
	stayOpen: boolean;
	/** End the run after this long without a change on the screen, ms; `null`: never. */
	inactivityTimeoutMs: number | null;
	/**
	 * End the run (`failed`) after its harness showed a first-run dialog this long with no change on the
	 * screen, ms (settings `interactive.dialog_timeout_ms`); absent: `DIALOG_TIMEOUT_MS` (core/graces.ts). Not with `stayOpen`.
	 */
	dialogTimeoutMs?: number;
}

/** A new native session, or a resumed one. */
export type SessionChoice = { kind: "new" } | { kind: "resume"; nativeSessionId: string };

/** One child launch, fully resolved and checked: what an adapter turns into a command line. */
export interface LaunchSpec {
	harness: Harness;
	/** The text handed to the child, delivered byte for byte (never through argv when large). */
	task: string;
	/** Short label for rendering and records. */
	taskName?: string;
	/** Absolute working directory of the child. */
	cwd: string;
	/** Harness-native model selector (`provider/id` for pi). */
	model?: string;
	/** Harness-native effort / thinking level (pi `--thinking`, codex `model_reasoning_effort`, claude `--effort`). */
	effort?: string;
	/** Tool allowlist: the tools offered (pi `--tools`, claude `--tools` of each rule's tool name). */
	allowedTools?: string[];
	/**
	 * The call's own `allowed_tools`, which claude also takes as permission rules (`--allowedTools`: a matching
	 * call runs without asking). An agent file's `tools` only narrow what is offered: a file cannot grant itself
	 * more than the call allows (SECURITY.md "Trust").
	 */
	approvedTools?: string[];
	/** Tool denylist (pi `--exclude-tools`, claude `--disallowedTools`). */
	disallowedTools?: string[];
	/** Bypass approvals / sandbox for this call only. */
	autoApprove: boolean;
	/**
	 * Whether the child's cwd is explicitly trusted (SECURITY.md "Trust"): pi children get `--approve` /
	 * `--no-approve` from it, claude children load no project settings and codex children no project
	 * instructions without it.
	 */
	projectTrusted: boolean;
	/** Text appended to the child's system prompt (an agent definition's body). */
	systemPromptAddition?: string;
	/** `systemPromptAddition` replaces the harness's system prompt instead (pi-subagents `systemPromptMode: replace`). */
	replaceSystemPrompt?: boolean;
	/** No skill discovery (pi-subagents `inheritSkills: false`; pi `--no-skills`). */
	noSkills?: boolean;
	/** Start from a fork of this session file, absolute (pi-subagents `defaultContext: fork`; pi `--fork`). */
	forkSessionFile?: string;
	/** The final answer is also written to this file, absolute (pi-subagents `output`); named in the result. */
	outputFile?: string;
	/** A Claude Code agent run through claude's `--agents` / `--agent`. */
	claudeAgent?: ClaudeAgentLaunch;
	/** A codex custom agent's settings. */
	codexAgent?: CodexAgentLaunch;
	resources?: Resources;
	/**
	 * Normalized codex/claude roster children only: discovered absolute skill files delivered as a prompt
	 * reference block appended to the task (docs/rules.md §Selected skills for codex and claude children).
	 */
	skillReferences?: string[];
	/**
	 * The resource selection as the roster entry made it, when `resources` differs from it (a normalized
	 * codex/claude child gets its skills as `skillReferences` and `skills: []`); launch records keep this.
	 */
	selectedResources?: Resources;
	/** Roster file selected for the child (`PI_AGENTSHELL_ROSTER_FILE`), absolute; pi only. */
	rosterFile?: string;
	session: SessionChoice;
	/** Delegation depth of the child: the parent's depth + 1. */
	depth: number;
	limits: RunLimits;
	provenance: LaunchProvenance;
	/** Run the harness's TUI in tmux instead of its headless mode. */
	interactive?: InteractiveOptions;
	/**
	 * JSON Schema object the child's result must satisfy (docs/structured-output.md): asked for through the
	 * harness's own mechanism, validated by the parent, one repair turn. Checked before start (at most
	 * 64 KiB of JSON, a schema ajv compiles, never with `interactive`).
	 */
	outputSchema?: Record<string, unknown>;
}
