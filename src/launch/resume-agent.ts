/**
 * A resume of a session started from an agent file (docs/rules.md §Resumption, docs/agent-libraries.md
 * §Resuming): the file as it is now, translated for the session's harness exactly as a new launch is.
 */
import type { AgentFormat } from "../config/agent-definition.ts";
import { type AgentDefinition, parseAgentFileAs } from "../config/agents.ts";
import type { AgentProvenance, LaunchSpec } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import { readUserFile } from "../core/user-file.ts";
import type { LaunchRecord } from "../sessions/launch-record.ts";
import type { ChildCall } from "./child-call.ts";
import { agentSpecFields } from "./resolve-agent.ts";

/**
 * The Markdown agent a session started from, as its file is now (its instructions are part of the role;
 * an edit applies from the next launch on, as it would for a new session; a project agent's edit must pass
 * the trust gate again).
 */
export function resumedAgent(provenance: AgentProvenance, problems: Problems): AgentDefinition | undefined {
	const file = provenance.agentFile;
	const read = readUserFile(file);
	if ("problem" in read) {
		problems.add(`the session's agent definition ${file} cannot be read (it ${read.problem}); start a new session`);
		return undefined;
	}
	const format = (provenance.agentFormat ?? "pi") as AgentFormat;
	return parseAgentFileAs(format, read.text, file, provenance.agentSource, problems.at(file));
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
