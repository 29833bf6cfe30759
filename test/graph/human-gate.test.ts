/**
 * Human gates in the engine with their real gate code (docs/graphs.md §Human gates): no child runs, so no
 * runner is needed; the UI is the host a Pi session would give (test/e2e/graph-human-tui.test.ts drives the
 * real one in tmux). Headless gates fail closed or park the run; a parked run resumed with a UI asks and
 * goes on; answers are validated and taken once per request id.
 */
/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: graph templates are written with ${…} placeholders. */
import { describe, expect, it } from "vitest";
import { runGraph } from "../../src/graph/engine.ts";
import type { SpecRunner } from "../../src/graph/execution.ts";
import type { HumanHost, HumanReply, HumanRequest } from "../../src/graph/gate-hosts.ts";
import { HumanRequests } from "../../src/graph/human-gate.ts";
import { compiledGraph } from "../support/graphs.ts";

const compiled = (nodes: Record<string, Record<string, unknown>>) => compiledGraph(nodes);

const noChildren: SpecRunner = async () => {
	throw new Error("no child runs in these graphs");
};

/** A UI that answers each request with the next reply, recording what it was asked. */
function ui(replies: HumanReply[], asked: HumanRequest[] = []): HumanHost {
	return {
		hasUI: () => true,
		ask: async (request) => {
			asked.push(request);
			return replies.shift() ?? { declined: true };
		},
	};
}
const headless: HumanHost = { hasUI: () => false, ask: async () => ({ declined: true }) };

const options = (human: HumanHost) => ({
	defaultConcurrency: 2,
	resolve: async () => undefined,
	run: noChildren,
	gates: { human },
});

describe("human gates", () => {
	it("fails a headless gate closed (failed (declined)) and skips its dependents", async () => {
		const graph = compiled({
			ask: { kind: "human", question: "Ship it?", choices: ["yes", "no"] },
			after: { kind: "human", question: "Then?", depends_on: ["ask"] },
		});
		const { state } = await runGraph(graph, options(headless));
		expect(state.nodes.ask).toMatchObject({ status: "failed" });
		expect(state.nodes.ask.error).toMatch(/^declined: no UI to ask/);
		expect(state.nodes.after).toMatchObject({ status: "skipped", skip: { kind: "dependency", node: "ask" } });
	});

	it("parks a headless gate with on_headless park: the run stays unfinished, and a session with a UI resumes it", async () => {
		const graph = compiled({
			ask: { kind: "human", question: "Ship it?", choices: ["yes", "no"], on_headless: "park" },
			after: { kind: "human", question: "Shipped ${nodes.ask.output}?", depends_on: ["ask"] },
		});
		const parked = await runGraph(graph, options(headless));
		expect(parked.state.nodes.ask.status).toBe("waiting");
		expect(parked.state.nodes.ask.parked?.question).toBe("Ship it?");
		expect(parked.state.nodes.ask.parked?.requestId).toMatch(/^[0-9a-f-]{36}$/);
		expect(parked.state.nodes.after.status).toBe("waiting");
		const asked: HumanRequest[] = [];
		const resumed = await runGraph(graph, {
			...options(ui([{ answer: "yes" }, { answer: "done" }], asked)),
			initial: parked.state,
		});
		expect(resumed.state.nodes.ask).toMatchObject({ status: "completed", output: "yes" });
		expect(resumed.state.nodes.after).toMatchObject({ status: "completed", output: "done" });
		expect(asked.map((request) => request.question)).toEqual(["Ship it?", "Shipped yes?"]);
		expect(new Set(asked.map((request) => request.id)).size).toBe(2);
	});

	it("refuses with Escape (failed (declined)), and asks again for an answer that does not validate", async () => {
		const graph = compiled({
			refused: { kind: "human", question: "Go?", choices: ["yes", "no"] },
			count: {
				kind: "human",
				question: "How many?",
				output_schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
			},
		});
		const asked: HumanRequest[] = [];
		const { state } = await runGraph(graph, {
			...options(ui([{ declined: true }, { answer: "three" }, { answer: '{"n": 3}' }], asked)),
			defaultConcurrency: 1,
		});
		expect(state.nodes.refused).toMatchObject({ status: "failed", error: "declined" });
		expect(state.nodes.count).toMatchObject({ status: "completed", output: { n: 3 } });
		expect(asked[2].invalid).toContain("the answer does not match output_schema");
	});

	it("takes one answer per request id: a duplicate or a late answer is refused", async () => {
		const requests = new HumanRequests();
		const request = { id: "r-1", node: "ask", question: "Go?" };
		const answered = requests.open(request);
		expect(requests.answer("r-1", { answer: "yes" })).toEqual({ accepted: true });
		expect(requests.answer("r-1", { answer: "no" })).toEqual({
			accepted: false,
			reason: "request r-1 is not open (answered already, closed or unknown)",
		});
		expect(await answered).toEqual({ answer: "yes" });
		void requests.open({ ...request, id: "r-2" });
		requests.close("r-2");
		expect(requests.answer("r-2", { answer: "late" }).accepted).toBe(false);
		expect(requests.size).toBe(0);
	});
});
