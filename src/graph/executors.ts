/**
 * One executor per node kind (docs/graphs.md "Node kinds"). An executor runs one admitted node to its
 * outcome; the engine owns every state change. `agent`: the task filled in from the ValueRefs, the node
 * resolved again at dispatch (fail closed), one child run, and its structured output when the node has an
 * `output_schema`; the coordinators and gates live in their own files.
 */
import { runCommandNode } from "./command-gate.ts";
import { runFanoutNode, runFeedbackNode } from "./coordinators.ts";
import type { AgentNode, NodeKind } from "./definition.ts";
import { type NodeExecution, type NodeExecutor, type NodeOutcome, runChildOf } from "./execution.ts";
import { runHumanNode } from "./human-gate.ts";
import { runSubgraphExit } from "./subgraph-exit.ts";

export type { NodeExecution, NodeExecutor, NodeOutcome, SpecRunner } from "./execution.ts";
export { childOutcome } from "./execution.ts";

function runAgentNode(execution: NodeExecution): Promise<NodeOutcome> {
	const node = execution.compiled.node as AgentNode;
	return runChildOf(execution, node, execution.compiled.templates.task, execution.scope);
}

/** The executor of each node kind. */
export const EXECUTORS: Record<NodeKind, NodeExecutor> = {
	agent: runAgentNode,
	fanout: runFanoutNode,
	feedback: runFeedbackNode,
	graph: runSubgraphExit,
	command: runCommandNode,
	human: runHumanNode,
};
