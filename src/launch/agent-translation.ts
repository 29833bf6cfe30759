/**
 * An agent definition's fields translated onto the harness a child runs on (docs/agent-libraries.md
 * §Running a file on another harness): on the file's own harness every key keeps its meaning; on another
 * one, tool names and effort are translated, and what the target cannot honour is refused before start,
 * naming the file, the key, the value and the harness.
 */
import type { AgentDefinition } from "../config/agent-definition.ts";
import { piToolName } from "../config/agent-keys.ts";
import type { Harness, LaunchSpec } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";

/** The spec fields an agent definition decides (the call's own values are applied over them by the resolver). */
export type AgentFields = Pick<
	LaunchSpec,
	| "model"
	| "effort"
	| "allowedTools"
	| "disallowedTools"
	| "systemPromptAddition"
	| "replaceSystemPrompt"
	| "noSkills"
	| "claudeAgent"
	| "codexAgent"
> & {
	/** `inheritProjectContext: false`: resources with `include_instruction_files: false`. */
	noContextFiles?: boolean;
	forkParentSession?: boolean;
	readFirst?: string[];
	outputFile?: string;
};

/** Model names only claude resolves: its aliases and its model ids (Claude Code model configuration). */
const CLAUDE_MODEL = /^(sonnet|opus|haiku|opusplan|best|default)(\[1m\])?$|^claude-/;

/**
 * Whether `harness` can resolve the model selector `model` written for another harness: pi needs
 * `provider/id` (a bare name would go to pi's fuzzy matching, and e.g. `sonnet` to a provider without a
 * key); claude needs one of its aliases or a `claude-…` id; codex takes any name but claude's.
 */
function resolvableModel(model: string, harness: Harness): boolean {
	if (harness === "pi") return model.includes("/");
	if (harness === "claude_code") return CLAUDE_MODEL.test(model);
	return !CLAUDE_MODEL.test(model);
}

/**
 * The fields `agent` gives a child on `harness`.
 * @param modelGiven whether the call names its own model (the file's is then not used, nor checked).
 * @returns the fields; refusals (each `<file>: <key>: <value> …`) are added to `problems`.
 */
export function translateAgent(
	agent: AgentDefinition,
	harness: Harness,
	modelGiven: boolean,
	problems: Problems,
): AgentFields {
	const own = harness === agent.harness;
	const refuse = (key: string, value: unknown, why: string) =>
		problems.add(`${agent.filePath}: ${key}: ${JSON.stringify(value)} ${why} on the ${harness} harness`);
	const fields: AgentFields = { effort: agent.effort, systemPromptAddition: agent.systemPrompt || undefined };
	if (agent.model !== undefined && !modelGiven) {
		if (own || resolvableModel(agent.model, harness)) fields.model = agent.model;
		else refuse("model", agent.model, "cannot be resolved; give model on the call for");
	}
	if (agent.format === "claude") claudeFields(agent, harness, fields, refuse);
	else {
		fields.allowedTools = agent.tools;
		fields.disallowedTools = agent.disallowedTools;
	}
	if (agent.codex) codexFields(agent, harness, fields, refuse);
	if (agent.pi) {
		const pi = agent.pi;
		if (pi.replaceSystemPrompt) {
			if (harness === "codex")
				refuse("systemPromptMode", "replace", "cannot be honoured (codex has no prompt replacement flag)");
			else fields.replaceSystemPrompt = true;
		}
		if (pi.noSkills) {
			if (harness === "pi") fields.noSkills = true;
			else refuse("inheritSkills", false, "cannot be honoured (no switch turns skill discovery off)");
		}
		if (pi.forkParentSession) {
			if (harness === "pi") fields.forkParentSession = true;
			else refuse("defaultContext", "fork", "cannot be honoured (only pi forks the parent's pi session)");
		}
		if (pi.noContextFiles) fields.noContextFiles = true;
		fields.readFirst = pi.readFirst;
		fields.outputFile = pi.outputFile;
	}
	return fields;
}

type Refuse = (key: string, value: unknown, why: string) => void;

/** A Claude Code file: claude's own mechanism on claude; tool names mapped for pi; claude-only keys refused elsewhere. */
function claudeFields(agent: AgentDefinition, harness: Harness, fields: AgentFields, refuse: Refuse): void {
	const claude = agent.claude as NonNullable<AgentDefinition["claude"]>;
	if (harness === "claude_code") {
		fields.claudeAgent = { name: agent.name, definition: { ...claude.definition, prompt: agent.systemPrompt } };
		// claude 2.1.332 reads CLAUDE.md files for the session's agent whatever its `omitClaudeMd`.
		if (claude.definition.omitClaudeMd === true) fields.noContextFiles = true;
		// The body is the agent's own prompt there; claude itself offers the agent's tools (the call's
		// allowed_tools narrows them further).
		fields.systemPromptAddition = undefined;
		return;
	}
	for (const key of claude.claudeOnlyKeys) {
		refuse(key, claude.definition[key], "means something only claude honours; it cannot be kept");
	}
	const toolNames = (names: string[] | undefined) => (harness === "pi" ? names?.map(piToolName) : names);
	fields.allowedTools = toolNames(agent.tools);
	fields.disallowedTools = toolNames(agent.disallowedTools);
}

/** A codex custom agent: its settings on codex; refused by key elsewhere. */
function codexFields(agent: AgentDefinition, harness: Harness, fields: AgentFields, refuse: Refuse): void {
	const codex = agent.codex as NonNullable<AgentDefinition["codex"]>;
	if (harness === "codex") {
		fields.codexAgent = codex;
		return;
	}
	const keys = { sandbox_mode: codex.sandboxMode, mcp_servers: codex.mcpServers, skills: codex.skills };
	for (const [key, value] of Object.entries(keys)) {
		if (value !== undefined) refuse(key, value, "is a codex setting that cannot be kept");
	}
}
