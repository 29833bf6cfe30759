/**
 * The trust gate of a graph run (SECURITY.md "Graph runs"): every project graph the run reaches — the saved
 * graph it runs, a stored one it resumes, each saved graph a graph node runs — is project-controlled and runs
 * only with explicit trust of its project or a confirmation (launch/trust.ts), all asked about at once, before
 * anything is compiled or pre-flighted. The consent to each names every command it runs: its own command gates
 * and those of every user graph it runs as a subgraph, directly or through other user graphs (a user graph
 * passes no gate of its own, yet the project graph chooses its inputs), and every child of those user graphs
 * that skips approvals (`auto_approve`, or `allowed_tools` claude may run unasked). A project graph it runs has
 * a consent of its own.
 */
import type { Problems } from "../core/problems.ts";
import type { LaunchContext } from "../launch/launch-context.ts";
import { checkTrusted, type ProjectControlled, projectDirOf } from "../launch/trust.ts";
import { argvText } from "./command-gate.ts";
import { type GraphDefinition, nodeLabel } from "./definition.ts";
import type { GraphOrigin, LoadedSubgraph } from "./loader.ts";
import { childrenToResolve } from "./preflight.ts";

/** The graph a run runs, and where it came from. */
export interface RunGraph {
	origin: GraphOrigin;
	definition: GraphDefinition;
}

/**
 * @returns true when no project graph is reached, or every one is trusted or confirmed; else false with the
 *   refusal (naming each graph, its file, its commands and how to grant trust) added to `problems`.
 */
export async function checkGraphTrust(
	run: RunGraph,
	subgraphs: ReadonlyMap<string, LoadedSubgraph>,
	context: Pick<LaunchContext, "trust" | "consents" | "confirm" | "agentDir">,
	problems: Problems,
): Promise<boolean> {
	const projectGraphs = [
		...(run.origin.source === "project" ? [{ ...run.origin, definition: run.definition }] : []),
		...[...subgraphs]
			.filter(([, sub]) => sub.source === "project")
			.map(([name, sub]) => ({ name, file: sub.file, digest: sub.digest, definition: sub.definition })),
	];
	const items: ProjectControlled[] = projectGraphs.map((graph) => {
		const { commands, approved } = whatItRuns(graph.definition, subgraphs);
		const notes = [
			...(commands.length > 0 ? [`runs commands: ${commands.join("; ")}`] : []),
			...(approved.length > 0 ? [`runs children that skip approvals: ${approved.join("; ")}`] : []),
		];
		return {
			what: `project graph ${JSON.stringify(graph.name)}`,
			file: graph.file,
			projectDir: projectDirOf(graph.file),
			digest: graph.digest,
			note: notes.length > 0 ? notes.join("; ") : undefined,
		};
	});
	return items.length === 0 || (await checkTrusted(items, context, problems));
}

/**
 * What `definition` runs that no approval stops. `commands`, as the live view shows an argv (`argvText`): its own
 * command gates, then those of each user graph it reaches through graph nodes that are user graphs, each followed
 * by the way there, every hop with the inputs its graph node gives (`(user graph "relay" with inputs {…} → user
 * graph "runner" with inputs {…})`, templates as written, each inputs text at most {@link INPUTS_SHOWN} characters
 * and the rest counted), so a consent shows what a `${inputs.…}` of a user graph's commands will be. `approved`:
 * each child of those user graphs with `auto_approve`, or with `allowed_tools` it may run unasked on claude (a
 * project graph can grant neither itself, but chooses their inputs), `node "fix": codex, auto_approve, task
 * "${inputs.task}" (user graph "cfix" with inputs {…})`.
 */
function whatItRuns(
	definition: GraphDefinition,
	subgraphs: ReadonlyMap<string, LoadedSubgraph>,
): { commands: string[]; approved: string[] } {
	const commands = ownCommands(definition);
	const approved: string[] = [];
	const seen = new Set<string>();
	const queue = graphNodes(definition).map((node) => ({ ...node, way: [] as string[] }));
	for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
		const sub = subgraphs.get(next.graph);
		const hop = `user graph ${JSON.stringify(next.graph)}${inputsText(next.inputs)}`;
		const way = [...next.way, hop];
		if (sub?.source !== "user" || seen.has(way.join(" → ")) || next.way.length >= MAX_WAY) continue;
		seen.add(way.join(" → "));
		for (const command of ownCommands(sub.definition)) commands.push(`${command} (${way.join(" → ")})`);
		for (const child of approvedChildren(sub.definition)) approved.push(`${child} (${way.join(" → ")})`);
		queue.push(...graphNodes(sub.definition).map((node) => ({ ...node, way })));
	}
	return { commands, approved };
}

/**
 * Each child of `definition` that skips approvals: `auto_approve`, or `allowed_tools` on a child that may be
 * claude's (its harness named, or an agent or roster entry that may choose it), which runs them without asking.
 */
const approvedChildren = (definition: GraphDefinition): string[] =>
	Object.entries(definition.nodes).flatMap(([key, node]) =>
		childrenToResolve(key, node).flatMap(({ node: child, label, task }) => {
			const who = child.agent_type ?? child.agent ?? child.roster_entry ?? "pi";
			const onClaude = child.agent_type === "claude_code" || (!child.agent_type && (child.agent ?? child.roster_entry));
			const how = [
				...(child.auto_approve === true ? ["auto_approve"] : []),
				...(onClaude && child.allowed_tools?.length ? [`allowed_tools ${JSON.stringify(child.allowed_tools)}`] : []),
			];
			return how.length > 0
				? [`${label ?? nodeLabel(key)}: ${who}, ${how.join(", ")}, task ${JSON.stringify(task)}`]
				: [];
		}),
	);

/** Characters of one graph node's inputs a consent shows; the rest is counted. */
const INPUTS_SHOWN = 300;
/** Hops of user graphs followed (more than the deepest nesting the settings allow). */
const MAX_WAY = 16;

function inputsText(inputs: Record<string, unknown> | undefined): string {
	if (inputs === undefined) return "";
	const text = JSON.stringify(inputs);
	const cut = text.length > INPUTS_SHOWN ? `… (${text.length - INPUTS_SHOWN} more characters)` : "";
	return ` with inputs ${text.slice(0, INPUTS_SHOWN)}${cut}`;
}

/** Each command gate's argv as the live view shows it, with the directory it runs in when it gives one. */
const ownCommands = (definition: GraphDefinition): string[] =>
	Object.values(definition.nodes).flatMap((node) =>
		node.kind === "command" ? [`${argvText(node.run)}${node.cwd ? ` (in ${JSON.stringify(node.cwd)})` : ""}`] : [],
	);

const graphNodes = (definition: GraphDefinition): Array<{ graph: string; inputs?: Record<string, unknown> }> =>
	Object.values(definition.nodes).flatMap((node) =>
		node.kind === "graph" ? [{ graph: node.graph, inputs: node.inputs as Record<string, unknown> | undefined }] : [],
	);
