/**
 * Every agent node through the same launch resolution a `subagent` call uses (docs/graphs.md
 * "Validation"): the child fields' shape checks (`toChildCall`), agent and roster lookup, trust of project
 * agents, depth, paths, resources (`resolveChildCalls`) and the harness's own validation
 * (`checkHarnessesAccept`). Before anything runs for all nodes at once, and again for each node at dispatch
 * (an agent removed or a roster disabled meanwhile fails that node closed).
 */
import type { AgentScope } from "../config/agents.ts";
import type { RosterState } from "../config/extension-state.ts";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import type { Harness, LaunchSpec } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import { type ChildArgs, type ChildCall, toChildCall } from "../launch/child-args.ts";
import type { LaunchContext } from "../launch/launch-context.ts";
import { resolveChildCalls } from "../launch/resolve-calls.ts";
import type { ResumeLookup } from "../launch/resolve-resume.ts";
import { checkHarnessesAccept } from "../launch/validate-specs.ts";
import { type AgentNode, type AgentTemplate, type GraphNode, nodeLabel } from "./definition.ts";

/** What resolution needs from the calling session; read again at each use, so dispatch sees changes. */
export interface NodeLaunchEnv {
	context(): LaunchContext;
	rosterState(): RosterState;
	scope: AgentScope;
	sessions: ResumeLookup;
	adapters: Partial<Record<Harness, HarnessAdapter>>;
}

/**
 * One child to resolve: its node's key, the agent node or a coordinator's child template, and the task
 * text (the template, or the filled-in task); `label` names it in problems (default `node "<key>"`).
 */
export interface NodeToResolve {
	key: string;
	node: AgentNode | AgentTemplate;
	task: string;
	label?: string;
}

/** The fields of a node that are not child fields. */
const NODE_ONLY = new Set(["kind", "depends_on", "when", "max_attempts"]);

/** The child fields of an agent node or template, as `toChildCall` takes them. */
function childArgs(node: AgentNode | AgentTemplate, task: string): ChildArgs {
	const child = Object.fromEntries(Object.entries(node).filter(([field]) => !NODE_ONLY.has(field)));
	return { ...(child as ChildArgs), task };
}

/**
 * The children a node of each kind runs, to pre-flight: an agent node itself, a fan-out's item template,
 * a feedback loop's worker and evaluator; gates and graph nodes run none of their own.
 */
export function childrenToResolve(key: string, node: GraphNode): NodeToResolve[] {
	const part = (template: AgentTemplate, field: string) => ({
		key,
		node: template,
		task: template.task,
		label: `${nodeLabel(key)}: ${field}`,
	});
	if (node.kind === "agent") return [{ key, node, task: node.task }];
	if (node.kind === "fanout") return [part(node.node, "node")];
	if (node.kind === "feedback") return [part(node.worker, "worker"), part(node.evaluator, "evaluator")];
	return [];
}

/**
 * Resolves the nodes into launch specs (an `output_schema` is checked and carried like any child field). Problems are labelled
 * `node "<key>": …`; a trust prompt, if one is needed, asks about every project agent of the nodes at once.
 * @returns node key → spec, or `undefined` with every problem added to `problems`.
 */
export async function resolveNodes(
	nodes: readonly NodeToResolve[],
	env: NodeLaunchEnv,
	problems: Problems,
): Promise<Map<string, LaunchSpec> | undefined> {
	const labels = nodes.map((item) => item.label ?? nodeLabel(item.key));
	const calls = nodes.map((item, i) => toChildCall(childArgs(item.node, item.task), problems.at(labels[i])));
	// The nodes whose fields are fine are still resolved, so every problem is listed at once.
	const shaped = nodes.flatMap((item, i) =>
		calls[i] ? [{ item, call: calls[i] as ChildCall, label: labels[i] }] : [],
	);
	const labelsOfShaped = shaped.map((s) => s.label);
	const specs = await resolveChildCalls(
		shaped.map((s) => s.call),
		labelsOfShaped,
		env.scope,
		env.context(),
		env.rosterState(),
		env.sessions,
		problems,
		// Before any trust prompt: a node its harness refuses is not asked about.
		(resolved, labelsOfResolved) => checkHarnessesAccept(resolved, labelsOfResolved, env.adapters, problems),
	);
	if (shaped.length < nodes.length) return undefined;
	if (!specs) return undefined;
	return new Map(specs.map((spec, i) => [nodes[i].key, spec]));
}
