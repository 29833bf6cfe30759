/**
 * A command gate's progress line (docs/graphs.md §Live view, §Command gates): while the command runs and in
 * the result, the line shows the argv as it runs, its `${…}` references filled in and every control or
 * format character escaped; before it starts, the argv as written. The gate runs a real process in the
 * engine; the value it fills in comes from a human gate answered by a stand-in UI.
 */
/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: graph templates are written with ${…} placeholders. */
import { describe, expect, it } from "vitest";
import { runGraph } from "../../src/graph/engine.ts";
import type { SpecRunner } from "../../src/graph/execution.ts";
import type { HumanHost } from "../../src/graph/gate-hosts.ts";
import { nodeProgress } from "../../src/graph/node-progress.ts";
import { compiledGraph } from "../support/graphs.ts";
import { SCRIPTED_LIMITS } from "../support/launch-spec.ts";

const noChildren: SpecRunner = async () => {
	throw new Error("no child runs in this graph");
};

describe("a command gate's progress line", () => {
	it("shows the command with its templates filled (escaped) while it runs and in the result, and as written before", async () => {
		// A file name chosen upstream, with a terminal escape and a bidi override in it.
		const answer = "src/a b.ts\u001b[2J\u202e";
		const human: HumanHost = { hasUI: () => true, ask: async () => ({ answer }) };
		const graph = compiledGraph({
			ask: { kind: "human", question: "Which file?" },
			check: { kind: "command", run: [process.execPath, "-e", "0", "--", "${nodes.ask.output}"], depends_on: ["ask"] },
		});
		const check = graph.nodes.find((node) => node.key === "check");
		const seen = new Map<string, string | undefined>();
		const outcome = await runGraph(graph, {
			defaultConcurrency: 2,
			resolve: async () => undefined,
			run: noChildren,
			gates: {
				human,
				command: {
					context: () => ({ cwd: process.cwd(), env: { PATH: process.env.PATH ?? "" }, limits: SCRIPTED_LIMITS }),
				},
			},
			onUpdate: (state) => {
				const node = state.nodes.check;
				if (!seen.has(node.status)) seen.set(node.status, nodeProgress(check, node));
			},
		});
		const filled = `$ ${process.execPath} -e 0 -- "src/a b.ts\\u001b[2J\\u202e"`;
		expect(seen.get("waiting")).toBe(`$ ${process.execPath} -e 0 -- "\${nodes.ask.output}"`);
		expect(seen.get("running")).toBe(filled);
		expect(outcome.state.nodes.check.status).toBe("completed");
		expect(nodeProgress(check, outcome.state.nodes.check)).toBe(`${filled} → exit 0`);
		for (const line of seen.values())
			expect([...(line ?? "")].some((c) => c === "\u001b" || c === "\u202e")).toBe(false);
	});
});
