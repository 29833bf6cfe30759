/**
 * Structured results (docs/structured-output.md) through the `subagent` tool in a real Pi session, with the
 * real pi, codex and claude binaries against the fake model server: each harness's own mechanism, the
 * parent's ajv validation, exactly one repair turn, and refusals that start nothing.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { Harness } from "../../src/core/launch-spec.ts";
import { REPAIR_PREFIX } from "../../src/runs/structured-result.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import type { StepData } from "../support/fake-model/index.ts";
import { expectRefused } from "../support/refusals.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({ nativeHomes: true });
});
afterAll(async () => env?.close());

const schema = {
	type: "object",
	properties: { verdict: { type: "string", enum: ["pass", "fail"] }, count: { type: "integer" } },
	required: ["verdict", "count"],
	additionalProperties: false,
};
const valid = { verdict: "pass", count: 2 };

/** How the scripted model submits `value` on each harness: a tool call, or (codex) the JSON as its answer. */
const submit: Record<Harness, (value: unknown) => StepData> = {
	pi: (value) => ({ toolCalls: [{ name: "submit_result", arguments: value as Record<string, unknown> }] }),
	claude_code: (value) => ({ toolCalls: [{ name: "StructuredOutput", arguments: value as Record<string, unknown> }] }),
	codex: (value) => ({ text: JSON.stringify(value) }),
};

const requestsFor = (marker: string) => env.server.requests.filter((r) => r.userTexts.some((t) => t.includes(marker)));
const repairRequests = (marker: string) => requestsFor(marker).filter((r) => r.lastUserText.startsWith(REPAIR_PREFIX));

async function call(harness: Harness, task: string, extra: Record<string, unknown> = {}) {
	const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
		agent_type: harness,
		task,
		output_schema: schema,
		...extra,
	});
	return { result, isError, run: runOf(result.details) };
}

describe.each(["pi", "codex", "claude_code"] as const)("a structured result from a real %s child", (harness) => {
	it("returns the validated JSON to the model and structuredOutput in details", async () => {
		const marker = `${harness} structured valid`;
		env.server.scriptFor(marker, submit[harness](valid));
		const { result, isError, run } = await call(harness, marker);
		expect(isError, textOf(result)).toBe(false);
		expect(run.status).toBe("completed");
		expect(run.structuredOutput).toEqual(valid);
		expect(run.finalAnswer).toBe(JSON.stringify(valid));
		expect(textOf(result)).toBe(
			`${JSON.stringify(valid)}\n\nsession: ${run.nativeSessionId} (resume with resume_session_id)`,
		);
		// One model request: submitting the result ends the run (pi: submit_result's `terminate`).
		expect(requestsFor(marker)).toHaveLength(1);
		const [first] = requestsFor(marker);
		if (harness === "codex") {
			expect((first.body as { text?: { format?: unknown } }).text?.format).toMatchObject({
				type: "json_schema",
				schema,
			});
		} else {
			expect(first.toolNames).toContain(harness === "pi" ? "submit_result" : "StructuredOutput");
		}
	});

	it("repairs a missing or invalid result after exactly one repair request", async () => {
		const marker = `${harness} structured repaired`;
		const wrong: StepData =
			harness === "codex" ? { text: '{"verdict":"maybe","count":1}' } : { text: "prose, no result" };
		// claude nudges the model once itself ("You MUST call the StructuredOutput tool") before its turn ends.
		const claudeNudge: StepData[] = harness === "claude_code" ? [{ text: "still prose" }] : [];
		env.server.scriptFor(marker, wrong, ...claudeNudge, submit[harness](valid), { text: "done" });
		const { result, isError, run } = await call(harness, marker);
		expect(isError, textOf(result)).toBe(false);
		expect(run.structuredOutput).toEqual(valid);
		const repairs = repairRequests(marker);
		expect(repairs).toHaveLength(1);
		expect(repairs[0].lastUserText).toContain(
			harness === "codex"
				? "result/verdict must be equal to one of the allowed values"
				: "no structured result was given",
		);
		// The repair turn continues the same conversation (codex: `exec resume` with the schema again).
		expect(repairs[0].userTexts.some((text) => text.includes(marker))).toBe(true);
		if (harness === "codex") {
			expect((repairs[0].body as { text?: { format?: unknown } }).text?.format).toMatchObject({ schema });
		}
		expect(run.usage.turns).toBeGreaterThanOrEqual(2);
	});

	it("fails after the one repair turn with the validator's errors and keeps the raw text", async () => {
		const marker = `${harness} structured invalid twice`;
		const answer = harness === "codex" ? '{"verdict":"maybe","count":1}' : "prose, no result";
		// Every request of this task gets the same wrong answer (claude's own nudges included).
		const unroute = env.server.route((request) =>
			request.userTexts.some((t) => t.includes(marker)) ? { text: answer } : undefined,
		);
		try {
			const { result, isError, run } = await call(harness, marker);
			expect(isError).toBe(true);
			expect(run.status).toBe("failed");
			const errors =
				harness === "codex"
					? "result/verdict must be equal to one of the allowed values"
					: "no structured result was given";
			expect(run.error).toBe(`output_schema: the result does not satisfy the schema after one repair turn: ${errors}`);
			expect(run.finalAnswer).toBe(answer);
			expect(run.structuredOutput).toBeUndefined();
			expect(textOf(result)).toContain(errors);
			expect(repairRequests(marker)).toHaveLength(1);
		} finally {
			unroute();
		}
	});
});

describe("output_schema beside other child settings", () => {
	it("offers a pi child submit_result even when allowed_tools restricts its other tools", async () => {
		const marker = "pi structured allowed tools";
		env.server.scriptFor(marker, submit.pi(valid));
		const { result, isError, run } = await call("pi", marker, { allowed_tools: ["read"] });
		expect(isError, textOf(result)).toBe(false);
		expect(run.structuredOutput).toEqual(valid);
		expect(requestsFor(marker)[0].toolNames.sort()).toEqual(["read", "submit_result"]);
	});

	it("accepts output_schema on tasks and chain items; the chain's next step gets the JSON as {previous}", async () => {
		const marker = "structured chain step";
		env.server.scriptFor(`${marker} 1`, submit.pi(valid));
		env.server.scriptFor(`${marker} 2`, (request) => ({ text: `got ${request.lastUserText}` }));
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			chain: [
				{ agent_type: "pi", task: `${marker} 1`, output_schema: schema },
				{ agent_type: "pi", task: `${marker} 2: {previous}` },
			],
		});
		expect(isError, textOf(result)).toBe(false);
		expect(runOf(result.details, 0).structuredOutput).toEqual(valid);
		expect(runOf(result.details, 1).finalAnswer).toBe(`got ${marker} 2: ${JSON.stringify(valid)}`);
	});

	it("keeps a large structured result out of details and in the artifact file", async () => {
		const marker = "codex structured large";
		const large = { verdict: "fail", count: 1, notes: "n".repeat(5_000) };
		const largeSchema = { ...schema, properties: { ...schema.properties, notes: { type: "string" } } };
		env.server.scriptFor(marker, { text: JSON.stringify(large), chunkChars: 2_000 });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "codex",
			task: marker,
			output_schema: { ...largeSchema, required: ["verdict", "count", "notes"] },
		});
		expect(isError, textOf(result)).toBe(false);
		const run = runOf(result.details);
		expect(run.structuredOutput).toBeUndefined();
		expect(run.artifactPath).toBeDefined();
		expect(JSON.parse(readFileSync(run.artifactPath as string, "utf8"))).toEqual(large);
	});
});

describe("output_schema refusals start nothing", () => {
	const refused = (args: unknown, ...messages: string[]) => expectRefused(env, args, ...messages);

	it("refuses a schema ajv rejects, in single mode and in tasks and chain items, naming the field", async () => {
		const bad = { type: "object", propertes: {} };
		await refused(
			{ agent_type: "pi", task: "x", output_schema: bad },
			'output_schema: not a valid JSON Schema: strict mode: unknown keyword: "propertes"',
		);
		await refused(
			{
				tasks: [
					{ agent_type: "codex", task: "x", output_schema: schema },
					{ agent_type: "pi", task: "y", output_schema: { type: "nope" } },
				],
			},
			"task 2: output_schema: not a valid JSON Schema",
		);
		await refused(
			{ chain: [{ agent_type: "claude_code", task: "x", output_schema: bad }] },
			"step 1: output_schema: not a valid JSON Schema",
		);
	});

	it("refuses a schema over 64 KiB of JSON", async () => {
		const huge = { type: "object", description: "d".repeat(70_000) };
		await refused(
			{ agent_type: "codex", task: "x", output_schema: huge },
			"output_schema: is 70034 bytes of JSON; at most 65536 are accepted",
		);
	});

	it("refuses output_schema with interactive: true", async () => {
		await refused(
			{ agent_type: "claude_code", task: "x", output_schema: schema, interactive: true },
			"output_schema: cannot be combined with interactive: true",
		);
	});
});
