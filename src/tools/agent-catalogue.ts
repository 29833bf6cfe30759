/**
 * The agent catalogue (docs/agent-libraries.md §Catalogue): every selectable agent with its source file,
 * format, harness, scope and ignored keys, the definitions a clash hides, and the files that failed to
 * load. Shown by `subagent_roster`, by `/subagent-agents`, and (its failures) once at session start.
 */
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import {
	type AgentDefinition,
	type AgentDiscovery,
	type DiscoverAgentsOptions,
	describeAgent,
	discoverAgents,
	formatAgentFileErrors,
} from "../config/agents.ts";
import { printable } from "../core/printable.ts";

/** The catalogue as text lines; project directories are read (not run) whatever the scope. */
export function catalogueLines(options: Omit<DiscoverAgentsOptions, "scope">): string[] {
	const discovery = discoverAgents({ ...options, scope: "both" });
	const lines = ["Agents (project over user over built-in; within a scope pi, then claude, then codex):"];
	if (discovery.agents.length === 0) lines.push("none");
	for (const agent of discovery.agents) {
		lines.push(`- ${describeAgent(agent)} [${agent.harness}]: ${agent.description}`);
		const scope = agent.source === "project" ? ' (select with agentScope: "both" or "project")' : "";
		lines.push(`  format: ${agent.format}, file: ${agent.filePath}${aliasesOf(agent, discovery)}${scope}`);
	}
	for (const { agent, by } of discovery.shadowed) {
		const failed = discovery.errors.some((error) => error.filePath === by) ? ", which failed to load" : "";
		lines.push(
			`- shadowed: ${agent.name} (${agent.source}, ${agent.format}) ${agent.filePath}, by ${by}${failed}; ${howToSelect(agent, discovery)}`,
		);
	}
	for (const line of formatAgentFileErrors(discovery.errors)) lines.push(`- failed to load: ${line}`);
	// Names, descriptions and paths come from the files: one visible line each (SECURITY.md "Text from files and children").
	return lines.map(printable);
}

/** How a shadowed definition is selected by its format, or why it cannot be. */
function howToSelect(agent: AgentDefinition, discovery: AgentDiscovery): string {
	const qualified = `${agent.format}:${agent.name}`;
	if (discovery.blocked.has(qualified)) return "not selectable until that file is fixed or renamed";
	const taker = discovery.selectsOfFormat.get(qualified);
	if (taker === agent) return `select it as ${qualified}`;
	return `not selectable: ${qualified} selects ${taker?.filePath ?? "another file"} (of the same format)`;
}

/**
 * `, aliases: a, b` for the aliases that select `agent` (the catalogue's scope, "both"); those another source takes
 * first are listed apart: one a file that failed to load holds, one another agent takes (a project one only with
 * agentScope "both" or "project").
 */
function aliasesOf(agent: AgentDefinition, discovery: AgentDiscovery): string {
	const labels = [
		"aliases",
		"aliases held by a file that failed to load",
		"aliases that select another agent",
		'aliases that select a project agent with agentScope "both" or "project"',
	] as const;
	const labelOf = (alias: string): (typeof labels)[number] => {
		const taker = discovery.selects.get(alias);
		if (taker === agent) return labels[0];
		if (discovery.blocked.has(alias)) return labels[1];
		return taker?.source === "project" ? labels[3] : labels[2];
	};
	return labels
		.map((label) => [label, agent.aliases.filter((alias) => labelOf(alias) === label)] as const)
		.map(([label, names]) => (names.length > 0 ? `, ${label}: ${names.join(", ")}` : ""))
		.join("");
}

/** The load problems of every agent file, one line each (`<file>: <problem>`), for the session-start report. */
export function agentLoadProblems(options: Omit<DiscoverAgentsOptions, "scope">): string[] {
	return formatAgentFileErrors(discoverAgents({ ...options, scope: "both" }).errors).map(printable);
}

/** `/subagent-agents`: the catalogue as a notification. */
export function agentsCommand(options: Omit<DiscoverAgentsOptions, "scope">, ctx: ExtensionCommandContext): void {
	const lines = catalogueLines(options);
	const broken = lines.some((line) => line.startsWith("- failed to load:"));
	ctx.ui.notify(lines.join("\n"), broken ? "warning" : "info");
}
