/**
 * A resume of a session started from an agent file (docs/rules.md §Resumption, docs/agent-libraries.md
 * §Resuming): the file as it is now, translated for the session's harness exactly as a new launch is.
 */
import { readFileSync } from "node:fs";
import type { AgentFormat } from "../config/agent-definition.ts";
import { type AgentDefinition, parseAgentFileAs } from "../config/agents.ts";
import type { LaunchSpec } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import type { LaunchRecord } from "../sessions/launch-record.ts";
import type { ChildCall } from "./child-call.ts";
import { agentSpecFields } from "./resolve-agent.ts";

/**
 * The Markdown agent a session started from, as its file is now (its instructions are part of the role;
 * an edit applies from the next launch on, as it would for a new session; a project agent's edit must pass
 * the trust gate again).
 */
export function resumedAgent(record: LaunchRecord, problems: Problems): AgentDefinition | undefined {
	const file = record.provenance.agentFile as string;
	let content: string;
	try {
		content = readFileSync(file, "utf8");
	} catch (error) {
		problems.add(
			`the session's agent definition ${file} cannot be read (${(error as NodeJS.ErrnoException).code}); start a new session`,
		);
		return undefined;
	}
	const format = (record.provenance.agentFormat ?? "pi") as AgentFormat;
	return parseAgentFileAs(format, content, file, record.provenance.agentSource ?? "user", problems.at(file));
}

/**
 * The agent file's settings for a resume of a session started from it, translated exactly as for a new
 * launch (`agentSpecFields`): claude's `--agents` definition, a codex agent's sandbox, MCP servers and
 * skills, pi's prompt mode and skill switch, the file's tools under the call's. The session's model and
 * effort stay the record's; `defaultReads` and `defaultContext` belong to a session's start and are not
 * applied again. pi and claude build their system prompt on every start; codex keeps its developer
 * instructions in the thread it resumes, so passing them again would repeat them.
 */
export function resumedAgentFields(
	agent: AgentDefinition,
	record: LaunchRecord,
	call: ChildCall,
	problems: Problems,
): Partial<LaunchSpec> | undefined {
	const fields = agentSpecFields(agent, record.harness, call, record.cwd, true, problems);
	if (!fields) return undefined;
	const { noContextFiles, forkParentSession, readFirst, model, effort, systemPromptAddition, ...native } = fields;
	return { ...native, systemPromptAddition: record.harness === "codex" ? undefined : systemPromptAddition };
}
