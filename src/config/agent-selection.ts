/**
 * Selecting an agent by name (docs/agent-libraries.md §Selecting an agent): `reviewer` takes the
 * highest-precedence definition of that name or alias; `claude:reviewer`, `codex:fixer`, `pi:scout` take
 * the highest-precedence one of that format, also when another format's file of that name wins the plain
 * name. An unknown name is reported with the nearest name, the folders searched and, for an agent that
 * exists only in project scope, the `agentScope` that finds it.
 */
import { didYouMean } from "../core/nearest-name.ts";
import type { Problems } from "../core/problems.ts";
import { AGENT_FORMATS, type AgentDefinition, type AgentFileError, type AgentFormat } from "./agent-definition.ts";
import { type AgentDiscovery, type DiscoverAgentsOptions, discoverAgents, formatAgentFileErrors } from "./agents.ts";

/** `claude:reviewer` → `{ format: "claude", name: "reviewer" }`; a plain name has no format. */
export function parseAgentSelector(selector: string): { format?: AgentFormat; name: string } {
	const colon = selector.indexOf(":");
	const prefix = selector.slice(0, colon) as AgentFormat;
	if (colon > 0 && AGENT_FORMATS.includes(prefix)) return { format: prefix, name: selector.slice(colon + 1) };
	return { name: selector };
}

const answersTo = (agent: AgentDefinition, name: string) => agent.name === name || agent.aliases.includes(name);

/** The file that failed to load and takes the name `selector` selects, if one does. */
function blockedBy(discovery: AgentDiscovery, selector: string) {
	const { format, name } = parseAgentSelector(selector);
	return discovery.blocked.get(format === undefined ? name : `${format}:${name}`);
}

/** The definition `selector` names in `discovery`, or `undefined`. Pure. */
export function selectAgent(discovery: AgentDiscovery, selector: string): AgentDefinition | undefined {
	const { format, name } = parseAgentSelector(selector);
	if (blockedBy(discovery, selector)) return undefined;
	return format === undefined ? discovery.selects.get(name) : discovery.selectsOfFormat.get(`${format}:${name}`);
}

/**
 * The definition `selector` names; when there is none, one problem saying so: the nearest name, the
 * directories searched, the files that failed to load and, in scope `user`, whether a project agent has
 * that name (so `agentScope: "both"` would find it).
 */
export function findAgent(
	discovery: AgentDiscovery,
	selector: string,
	options: DiscoverAgentsOptions,
	problems: Problems,
): AgentDefinition | undefined {
	const agent = selectAgent(discovery, selector);
	if (agent) return agent;
	const broken = blockedBy(discovery, selector);
	if (broken) {
		problems.add(describeBlocked(discovery, selector, broken));
		return undefined;
	}
	const names = discovery.agents.flatMap((a) => [a.name, ...a.aliases]);
	const { name } = parseAgentSelector(selector);
	const lines = [`unknown agent "${selector}" in scope "${options.scope}"${didYouMean(name, names)}.`];
	if (options.scope === "user") {
		const project = discoverAgents({ ...options, scope: "project" });
		const found = selectAgent(project, selector);
		if (found) {
			lines.push(
				`"${selector}" is a project agent (${found.filePath}); call with agentScope: "both" (or "project") to select it.`,
			);
		}
	}
	const available = discovery.agents.map((a) => `${a.name} (${a.source}, ${a.format})`).join(", ") || "none";
	lines.push(`Available: ${available}.`);
	lines.push(`Searched: ${discovery.searched.map((d) => `${d.dir} (${d.source}, ${d.format})`).join(", ")}.`);
	const failed = formatAgentFileErrors(discovery.errors);
	if (failed.length > 0) lines.push(`Files that failed to load: ${failed.join("; ")}`);
	problems.add(lines.join(" "));
	return undefined;
}

/** Why a name taken by a file that failed to load selects nothing, naming what that file hides. */
function describeBlocked(discovery: AgentDiscovery, selector: string, broken: AgentFileError): string {
	const { name } = parseAgentSelector(selector);
	const hidden = discovery.shadowed.filter((s) => s.by === broken.filePath && answersTo(s.agent, name));
	const reason = `agent "${selector}" failed to load: ${formatAgentFileErrors([broken]).join("; ")}`;
	if (hidden.length === 0) return reason;
	const files = hidden.map((s) => s.agent.filePath).join(", ");
	return `${reason}; fix it, or the lower-precedence ${name} it hides (${files}) is not used in its place either`;
}
