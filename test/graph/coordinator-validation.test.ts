/**
 * Each coordinator kind's rules, refused at validation with the node and field named (docs/graphs.md
 * §Fan-out, §Feedback loops, §Subgraphs, §Human gates): nothing here runs, so no child is needed.
 */
/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: graph templates are written with ${…} placeholders. */
import { describe, expect, it } from "vitest";
import { Problems } from "../../src/core/problems.ts";
import type { GraphDefinition } from "../../src/graph/definition.ts";
import { parseGraphDefinition } from "../../src/graph/parse-graph.ts";
import { type CompileOptions, compileGraph } from "../../src/graph/validate.ts";
import { objectSchema } from "../support/graphs.ts";

function problemsOf(graph: Record<string, unknown>, options: CompileOptions = {}): readonly string[] {
	const problems = new Problems();
	const definition = parseGraphDefinition(graph, problems);
	if (definition) compileGraph(definition, {}, problems, options);
	return problems.list;
}

const verdict = {
	type: "object",
	properties: { decision: { enum: ["pass", "revise"] }, feedback: { type: "string" } },
	required: ["decision", "feedback"],
};
const scan = {
	agent_type: "pi",
	task: "scan",
	output_schema: {
		type: "object",
		properties: { files: { type: "array", items: { type: "object", properties: { path: { type: "string" } } } } },
	},
};

describe("coordinator validation", () => {
	it("refuses a fan-out whose over is not one ValueRef to an array, an undeclared item path, and concurrency above the graph's", () => {
		const list = problemsOf({
			nodes: {
				scan,
				a: {
					kind: "fanout",
					depends_on: ["scan"],
					over: "files: ${nodes.scan.output.files}",
					node: { agent_type: "pi", task: "t" },
				},
				b: {
					kind: "fanout",
					depends_on: ["scan"],
					over: "${nodes.scan.output.files[0].path}",
					node: { agent_type: "pi", task: "t" },
				},
				c: {
					kind: "fanout",
					depends_on: ["scan"],
					over: "${nodes.scan.output.files}",
					concurrency: 9,
					node: { agent_type: "pi", task: "fix ${item.paht} ${index}" },
				},
			},
			limits: { concurrency: 3 },
		});
		expect(list).toContain(
			'node "a": over: must be exactly one ValueRef to an array: ${inputs.<path>} or ${nodes.<key>.output.<path>}',
		);
		expect(list).toContain('node "b": over: ${nodes.scan.output.files[0].path} does not name an array in its schema');
		expect(list).toContain('node "c": node.task: ${item.paht}: the item schema does not declare item.paht');
		expect(list).toContain('node "c": concurrency: 9 is above the graph\'s limits.concurrency 3');
	});

	it("refuses a feedback loop over the max_iterations cap, an evaluator schema without decision and feedback, and misplaced locals", () => {
		const list = problemsOf(
			{
				nodes: {
					loop: {
						kind: "feedback",
						worker: { agent_type: "pi", task: "work ${worker.x}" },
						evaluator: {
							agent_type: "pi",
							task: "judge ${feedback}",
							output_schema: { type: "object", properties: { decision: { type: "string" } } },
						},
						max_iterations: 12,
					},
					other: { agent_type: "pi", task: "${item}" },
				},
			},
			{ caps: { maxIterations: 5, maxNesting: 3 } },
		);
		expect(list).toContain('node "loop": max_iterations: 12 is above the cap 5 (settings graphs.max_iterations)');
		expect(list).toContain(
			'node "loop": evaluator.output_schema: must declare decision: { "enum": ["pass", "revise"] } and feedback: { "type": "string" }, both required',
		);
		expect(list).toContain(
			'node "loop": worker.task: ${worker.x}: ${worker…} is only available in a feedback loop\'s evaluator task',
		);
		expect(list).toContain(
			'node "loop": evaluator.task: ${feedback}: ${feedback…} is only available in a feedback loop\'s worker task',
		);
		expect(list).toContain('node "other": task: ${item}: ${item…} is only available in a fanout\'s node template');
		expect(
			problemsOf({
				nodes: {
					loop: {
						kind: "feedback",
						worker: { agent_type: "pi", task: "w" },
						evaluator: { agent_type: "pi", task: "e", output_schema: verdict },
					},
				},
			}),
		).toContain('node "loop": max_iterations: is required (a positive integer, at most the settings cap)');
	});

	it("refuses a command gate whose program is a ValueRef, so no input or node output chooses what runs", () => {
		const problems = problemsOf({
			inputs: { type: "object", properties: { tool: { type: "string" } }, required: ["tool"] },
			nodes: {
				plan: { agent_type: "pi", task: "pick", output_schema: objectSchema({ prog: { type: "string" } }) },
				go: { kind: "command", depends_on: ["plan"], run: ["${nodes.plan.output.prog}", "--yes"] },
				via: { kind: "command", run: ["/usr/bin/${inputs.tool}"] },
				ok: { kind: "command", depends_on: ["plan"], run: ["echo", "${nodes.plan.output.prog}"] },
			},
		});
		const rule = "run[0]: the program is written out: a ValueRef may fill its arguments, not choose it";
		expect(problems).toContain(`node "go": ${rule}`);
		expect(problems).toContain(`node "via": ${rule}`);
		expect(problems.filter((line) => line.startsWith('node "ok"'))).toEqual([]);
	});

	it("refuses a human gate with both choices and output_schema", () => {
		expect(
			problemsOf({
				nodes: { ask: { kind: "human", question: "q", choices: ["a"], output_schema: { type: "string" } } },
			}),
		).toContain('node "ask": give choices or output_schema, not both');
	});

	it("refuses graph nodes nested deeper than the cap, inputs the saved graph does not declare, and names not loaded", () => {
		const leaf: GraphDefinition = {
			inputs: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
			nodes: { say: { kind: "command", run: ["echo", "${inputs.topic}"], max_attempts: undefined } },
		} as unknown as GraphDefinition;
		const middle = {
			nodes: { inner: { kind: "graph", graph: "leaf", inputs: { topic: "x" } } },
		} as unknown as GraphDefinition;
		const parse = (raw: unknown) => parseGraphDefinition(raw, new Problems()) as GraphDefinition;
		const subgraphs = new Map([
			["leaf", { definition: parse(leaf), file: "leaf.json" }],
			["middle", { definition: parse(middle), file: "middle.json" }],
		]);
		const deep = problemsOf(
			{ name: "top", nodes: { m: { kind: "graph", graph: "middle" } } },
			{ caps: { maxIterations: 5, maxNesting: 1 }, subgraphs },
		);
		expect(deep).toContain(
			'node "m": graph "middle": node "inner": graph: nesting top → middle → leaf is deeper than 1 (settings graphs.max_nesting)',
		);
		const inputs = problemsOf(
			{ nodes: { l: { kind: "graph", graph: "leaf", inputs: { topc: "x" } }, n: { kind: "graph", graph: "nope" } } },
			{ subgraphs },
		);
		expect(inputs).toContain('node "l": inputs.topc: graph "leaf" declares no input "topc"');
		expect(inputs).toContain('node "l": inputs: graph "leaf" requires input "topic"');
		expect(inputs).toContain('node "n": graph: saved graph "nope" is not loaded');
	});
});
