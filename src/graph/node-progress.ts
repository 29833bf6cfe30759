/**
 * What the live view and the result lines say of each coordinator and gate (docs/graphs.md "Live view"):
 * items `3/12 ✓`, round `2/5`, `$ npm test → exit 1`, `question waiting: …`, and one row per part with its
 * own child's state, usage and session.
 */
import type { ChildRun } from "../core/child-run.ts";
import type { GraphPartDetails } from "../core/graph-details.ts";
import { argvText } from "./command-gate.ts";
import type { CompiledNode } from "./compiled.ts";
import type { NodeState } from "./run-state.ts";
import { valueText } from "./value-refs.ts";

/** The node's progress in words, or `undefined` for an agent node. */
export function nodeProgress(compiled: CompiledNode | undefined, node: NodeState): string | undefined {
	const definition = compiled?.node;
	const parts = Object.values(node.parts ?? {});
	switch (definition?.kind) {
		case "fanout": {
			if (parts.length === 0) return undefined;
			const done = parts.filter((part) => part.status === "completed").length;
			const failed = parts.filter((part) => part.status === "failed").length;
			return `${done}/${parts.length} ✓${failed > 0 ? ` · ${failed} ✗` : ""}`;
		}
		case "feedback": {
			const started = parts.filter((part) => part.attempts > 0).map((part) => part.iteration ?? 0);
			return started.length > 0 ? `round ${Math.max(...started)}/${definition.max_iterations}` : undefined;
		}
		case "command": {
			// Once started, the argv as it ran (references filled); before, as written (`${…}` shown quoted).
			const exit = (node.output as { exit_code?: number } | undefined)?.exit_code;
			return `$ ${argvText(node.command ?? definition.run)}${exit === undefined ? "" : ` → exit ${exit}`}`;
		}
		case "human":
			if (node.parked) return `parked: ${node.parked.question}`;
			if (node.status === "running") return `question waiting: ${definition.question}`;
			return node.status === "completed" ? `answered: ${valueText(node.output)}` : undefined;
		case "graph":
			return `graph "${definition.graph}"`;
		default:
			return undefined;
	}
}

/** The node's parts as details rows, with each running part's live activity from its child. */
export function partDetails(
	key: string,
	node: NodeState,
	children: ReadonlyMap<string, ChildRun>,
): GraphPartDetails[] | undefined {
	if (!node.parts) return undefined;
	return Object.entries(node.parts).map(([name, part]) => ({
		name,
		status: part.status,
		attempts: part.attempts,
		harness: part.harness,
		agent: part.agent,
		model: part.model,
		usage: part.usage,
		durationMs: part.startedAt !== undefined && part.endedAt !== undefined ? part.endedAt - part.startedAt : undefined,
		reason: part.error,
		nativeSessionId: part.nativeSessionId,
		activity: part.status === "running" ? children.get(`${key} ${name}`)?.result?.activity : undefined,
	}));
}
