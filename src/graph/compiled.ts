/**
 * The shape of a compiled graph (docs/graphs.md "Validation"): what `validate.ts` produces and the engine,
 * the executors and the subgraph flattening read.
 */
import type { NodeTemplates } from "./compile-node.ts";
import type { Condition } from "./conditions.ts";
import type { GraphDefinition, GraphNode } from "./definition.ts";
import type { OutputShape } from "./ref-rules.ts";
import type { TemplatePart } from "./value-refs.ts";

/** One subgraph's inputs: where they are filled in (the enclosing frame) and what they must match. */
export interface SubgraphFrame {
	/** The saved graph's name. */
	graph: string;
	/** The enclosing frame (`undefined`: the top graph). */
	parent?: string;
	/** Input name → its template (`parts`) or JSON value (`value`). */
	inputs: Record<string, { parts: TemplatePart[] } | { value: unknown }>;
	/** The saved graph's inputs schema. */
	schema?: Record<string, unknown>;
}

/** One node, checked: its templates cut into parts (`compile-node.ts`), its condition parsed, its dependencies known. */
export interface CompiledNode {
	key: string;
	node: GraphNode;
	templates: NodeTemplates;
	when?: Condition;
	dependsOn: string[];
	/** Every node it depends on, directly or not. */
	ancestors: Set<string>;
	/** Inside a subgraph: the frame its `${inputs…}` read (`subgraph-exit.ts`); absent in the top graph. */
	frame?: string;
	/** The `when` of each enclosing `graph` node, read in that node's frame: one false skips this node. */
	gates?: Array<{ when: Condition; frame?: string }>;
	/**
	 * A `graph` node, the exit of its flattened subgraph: the dependencies that must complete (its own
	 * `depends_on`), the inner nodes (one failed fails it) and the saved graph's outputs (read in `frame`).
	 */
	exit?: { requires: string[]; inner: string[]; outputs: Array<{ name: string; parts: TemplatePart[] }> };
}

export interface CompiledGraph {
	definition: GraphDefinition;
	inputs: unknown;
	/** In dependency order (a node after every node it depends on; definition order otherwise). */
	nodes: CompiledNode[];
	outputs: Array<{ name: string; parts: TemplatePart[] }>;
	/** Subgraph frames by name (the `graph` node's key, `a/b` when nested). */
	frames: Record<string, SubgraphFrame>;
	/** Every node's output shape (what ValueRefs to it may read), subgraphs' inner nodes included. */
	shapes: Map<string, OutputShape>;
}
