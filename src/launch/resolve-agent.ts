/**
 * Resolves calls that name a Markdown agent definition into LaunchSpecs (DESIGN.md §1 single, parallel
 * and chain modes). Every check happens here, before anything is spawned: the agent exists, the cwd
 * exists, the depth allows a child, and project agents pass the trust gate.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { type AgentDefinition, type AgentScope, discoverAgents, formatAgentFileErrors } from "../config/agents.ts";
import { assertDepthAllows } from "./depth.ts";
import type { LaunchContext } from "./launch-context.ts";
import { LaunchError } from "./launch-error.ts";
import type { LaunchSpec } from "./launch-spec.ts";
import { assertTrusted } from "./trust.ts";

/** One child of a call, naming an agent definition. */
export interface AgentTask {
	agent: string;
	task: string;
	taskName?: string;
	/** Resolved against the tool context's cwd. */
	cwd?: string;
	/** Overrides the definition's model. */
	model?: string;
	/** Overrides the definition's effort. */
	effort?: string;
}

/**
 * Resolves every task of a call. Problems of all tasks are collected and thrown together.
 * @throws LaunchError listing unknown agents (with the available ones), missing cwds, the depth refusal,
 *   and a refused or declined trust prompt.
 */
export async function resolveAgentTasks(
	tasks: AgentTask[],
	scope: AgentScope,
	context: LaunchContext,
): Promise<LaunchSpec[]> {
	assertDepthAllows(context);
	const discovery = discoverAgents({ cwd: context.cwd, agentDir: context.agentDir, scope });
	const byName = new Map(discovery.agents.map((agent) => [agent.name, agent]));
	const problems: string[] = [];
	const resolved: Array<{ task: AgentTask; agent: AgentDefinition; cwd: string }> = [];
	tasks.forEach((task, index) => {
		const label = tasks.length > 1 ? `task ${index + 1}: ` : "";
		const agent = byName.get(task.agent);
		if (!agent) {
			const available = discovery.agents.map((a) => `${a.name} (${a.source})`).join(", ") || "none";
			const broken = formatAgentFileErrors(discovery.errors);
			problems.push(
				`${label}unknown agent "${task.agent}" in scope "${scope}". Available: ${available}.${broken.length > 0 ? ` Files that failed to load: ${broken.join("; ")}` : ""}`,
			);
		}
		const cwdProblem = checkDirectory(task.cwd, context.cwd);
		if (cwdProblem) problems.push(`${label}${cwdProblem}`);
		if (agent && !cwdProblem) resolved.push({ task, agent, cwd: resolve(context.cwd, task.cwd ?? ".") });
	});
	if (problems.length > 0) throw new LaunchError(problems);

	const projectAgents = new Map<string, AgentDefinition>();
	for (const { agent } of resolved) if (agent.source === "project") projectAgents.set(agent.filePath, agent);
	await assertTrusted(
		[...projectAgents.values()].map((agent) => ({ what: `project agent "${agent.name}"`, file: agent.filePath })),
		context,
	);

	return resolved.map(({ task, agent, cwd }) => ({
		harness: agent.harness,
		task: task.task,
		taskName: task.taskName,
		cwd,
		model: task.model ?? agent.model,
		effort: task.effort ?? agent.effort,
		allowedTools: agent.tools,
		autoApprove: false,
		projectTrusted: context.projectTrusted,
		systemPromptAddition: agent.systemPrompt || undefined,
		session: { kind: "new" },
		depth: context.depth + 1,
		limits: context.limits,
		provenance: { agentName: agent.name, agentFile: agent.filePath, agentSource: agent.source },
	}));
}

/** Returns a message naming the directory when `cwd` (resolved against `base`) is not a directory. */
export function checkDirectory(cwd: string | undefined, base: string): string | undefined {
	if (cwd === undefined) return undefined;
	const path = resolve(base, cwd);
	try {
		if (!statSync(path).isDirectory()) return `cwd "${cwd}" (${path}) is not a directory`;
	} catch {
		return `cwd "${cwd}" (${path}) does not exist`;
	}
	return undefined;
}
