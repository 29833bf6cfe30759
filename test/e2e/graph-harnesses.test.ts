/**
 * One `agent_graph` across the three harnesses, through the real claude, codex and pi binaries against
 * the fake model: each node's structured result (its harness's own mechanism) wired into the next node's
 * task through ValueRefs, and a node whose structured result stays invalid.
 */
/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: graph templates are written with ${…} placeholders. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GraphDetails } from "../../src/core/graph-details.ts";
import { REPAIR_PREFIX } from "../../src/runs/structured-result.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { objectSchema } from "../support/graphs.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({
		nativeHomes: true,
		agents: {
			planner: { description: "Plans with claude", body: "You plan.", fields: { harness: "claude_code" } },
			coder: { description: "Codes with codex", body: "You code.", fields: { harness: "codex" } },
			reviewer: { description: "Reviews with pi", body: "You review." },
		},
	});
});
afterAll(async () => env?.close());

const object = objectSchema;
const strings = { type: "array", items: { type: "string" } };

const firstRequest = (marker: string) => env.server.requests.find((r) => r.userTexts.some((t) => t.startsWith(marker)));

describe("agent_graph across harnesses", () => {
	it("wires a claude, a codex and a pi node through ValueRefs to exact final outputs", async () => {
		const plan = { goal: "rename $& keep ${x}", files: ["src/a.ts", "src/b.ts"] };
		const code = { changed: ["src/a.ts"], summary: "renamed in one file" };
		env.server.scriptFor("graph3 plan", { toolCalls: [{ name: "StructuredOutput", arguments: plan }] });
		env.server.scriptFor("graph3 code", { text: JSON.stringify(code) });
		env.server.scriptFor("graph3 review", {
			toolCalls: [{ name: "submit_result", arguments: { verdict: "approve", notes: "fine" } }],
		});
		const { result, isError } = await env.session.callTool<GraphDetails>("agent_graph", {
			graph: {
				name: "three",
				nodes: {
					plan: {
						agent: "planner",
						task: "graph3 plan the work",
						output_schema: object({ goal: { type: "string" }, files: strings }),
					},
					code: {
						agent: "coder",
						depends_on: ["plan"],
						task: "graph3 code: ${nodes.plan.output.goal} in ${nodes.plan.output.files[0]}; all: ${nodes.plan.output.files}",
						output_schema: object({ changed: strings, summary: { type: "string" } }),
					},
					review: {
						agent: "reviewer",
						depends_on: ["code"],
						task: "graph3 review: ${nodes.code.output.summary} for ${nodes.plan.output.goal}",
						output_schema: object({ verdict: { enum: ["approve", "revise"] }, notes: { type: "string" } }),
					},
				},
				outputs: {
					verdict: "${nodes.review.output.verdict}",
					changed: "${nodes.code.output.changed}",
					line: "${nodes.review.output.verdict}: ${nodes.code.output.summary}",
				},
			},
		});
		const text = textOf(result);
		expect(isError, text).toBe(false);
		expect(result.details.outputs).toEqual({
			verdict: "approve",
			changed: ["src/a.ts"],
			line: "approve: renamed in one file",
		});
		expect(text).toContain(
			'outputs: {"verdict":"approve","changed":["src/a.ts"],"line":"approve: renamed in one file"}',
		);
		expect(result.details.nodes.map((node) => [node.key, node.status, node.harness])).toEqual([
			["plan", "completed", "claude_code"],
			["code", "completed", "codex"],
			["review", "completed", "pi"],
		]);
		for (const node of result.details.nodes) expect(node.nativeSessionId).toBeDefined();
		// Substituted literally: `$&` and `${x}` inside a value survive; arrays go in as JSON.
		expect(firstRequest("graph3 code")?.userTexts.find((t) => t.startsWith("graph3 code"))).toContain(
			'graph3 code: rename $& keep ${x} in src/a.ts; all: ["src/a.ts","src/b.ts"]',
		);
		expect(firstRequest("graph3 review")?.lastUserText).toBe(
			"graph3 review: renamed in one file for rename $& keep ${x}",
		);
		expect(firstRequest("graph3 plan")?.protocol).toBe("anthropic-messages");
		expect(firstRequest("graph3 code")?.protocol).toBe("openai-responses");
		expect(firstRequest("graph3 review")?.protocol).toBe("openai-chat");
	});

	it("fails a node whose structured result stays invalid after one repair turn; dependents skip, an independent branch completes", async () => {
		const unroute = env.server.route((request) =>
			request.userTexts.some((t) => t.startsWith("graph invalid: bad")) ? { text: "prose, no result" } : undefined,
		);
		env.server.scriptFor("graph invalid: fine", { toolCalls: [{ name: "submit_result", arguments: { ok: true } }] });
		try {
			const { result, isError } = await env.session.callTool<GraphDetails>("agent_graph", {
				graph: {
					nodes: {
						bad: { agent: "reviewer", task: "graph invalid: bad", output_schema: object({ ok: { type: "boolean" } }) },
						after: { agent: "reviewer", task: "graph invalid: after ${nodes.bad.output.ok}", depends_on: ["bad"] },
						fine: {
							agent: "reviewer",
							task: "graph invalid: fine",
							output_schema: object({ ok: { type: "boolean" } }),
						},
					},
					outputs: { fine: "${nodes.fine.output.ok}" },
				},
			});
			expect(isError).toBe(true);
			const byKey = Object.fromEntries(result.details.nodes.map((node) => [node.key, node]));
			expect(byKey.bad.status).toBe("failed");
			expect(byKey.bad.reason).toBe(
				"output_schema: the result does not satisfy the schema after one repair turn: no structured result was given",
			);
			expect(byKey.after).toMatchObject({ status: "skipped", reason: "dependency bad failed" });
			expect(byKey.fine.status).toBe("completed");
			expect(result.details.outputs).toEqual({ fine: true });
			const repairs = env.server.requests.filter(
				(r) => r.userTexts.some((t) => t.startsWith("graph invalid: bad")) && r.lastUserText.startsWith(REPAIR_PREFIX),
			);
			expect(repairs).toHaveLength(1);
			expect(env.server.requests.some((r) => r.lastUserText.startsWith("graph invalid: after"))).toBe(false);
		} finally {
			unroute();
		}
	});
});
