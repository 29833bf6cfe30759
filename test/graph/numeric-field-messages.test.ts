/**
 * docs/graphs.md §Validation: a graph's fields are refused naming node and field with what was expected. A count
 * or a time that is 0, negative or fractional says so in the words the settings file's limits use
 * (`timeout_ms: must be at least 1 (ms)`), never zod's raw "Too small: expected number to be >0".
 */
import { describe, expect, it } from "vitest";
import { parseGraphDefinition } from "../../src/graph/parse-graph.ts";
import { problemsFound } from "../support/problems.ts";

const problemsOf = (raw: unknown) => problemsFound((problems) => parseGraphDefinition(raw, problems));

describe("a graph's numeric fields", () => {
	it("refuse a command gate's or the graph's timeout_ms of 0 saying it must be at least 1 ms", () => {
		expect(
			problemsOf({ nodes: { b: { kind: "command", run: ["true"], timeout_ms: 0 } }, limits: { timeout_ms: 0 } }),
		).toEqual(['node "b": timeout_ms: must be at least 1 (ms)', "limits.timeout_ms: must be at least 1 (ms)"]);
	});

	it("say the unit of every count and what was given that is not a whole number", () => {
		const problems = problemsOf({
			nodes: {
				a: { agent_type: "pi", task: "t", max_attempts: 1.5 },
				f: { kind: "fanout", over: "x", node: { agent_type: "pi", task: "t" }, max_items: 0, concurrency: "2" },
				l: {
					kind: "feedback",
					worker: { agent_type: "pi", task: "w" },
					evaluator: { agent_type: "pi", task: "e" },
					max_iterations: 0,
				},
			},
			limits: { concurrency: -1, max_nodes_started: 0, max_tokens: 0, max_usd: 0 },
		});
		expect(problems.join("\n")).not.toMatch(/Too small|Invalid input/);
		expect(problems).toEqual(
			expect.arrayContaining([
				'node "a": max_attempts: expected an integer (admissions), got 1.5',
				'node "f": max_items: must be at least 1 (items)',
				'node "f": concurrency: expected an integer (children), got string',
				'node "l": max_iterations: must be at least 1 (rounds)',
				"limits.concurrency: must be at least 1 (nodes)",
				"limits.max_nodes_started: must be at least 1 (nodes)",
				"limits.max_tokens: must be at least 1 (tokens)",
				"limits.max_usd: must be more than 0 (USD)",
			]),
		);
	});

	it("refuse a whole number too large to hold exactly, and an infinity, as such rather than as not an integer", () => {
		const problems = problemsOf({
			nodes: { b: { kind: "command", run: ["true"], timeout_ms: 1e16 } },
			limits: { max_tokens: 1e21, max_usd: Number.POSITIVE_INFINITY, timeout_ms: Number.POSITIVE_INFINITY },
		});
		expect(problems).toEqual([
			'node "b": timeout_ms: must be at most 9007199254740991 (ms)',
			"limits.max_usd: expected a finite number (USD), got Infinity",
			"limits.max_tokens: must be at most 9007199254740991 (tokens)",
			"limits.timeout_ms: expected a finite number (ms), got Infinity",
		]);
	});
});
