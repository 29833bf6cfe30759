/**
 * The live rows of each node kind (docs/graphs.md "Live view"): a fan-out's items (`3/5 ✓`) with its
 * running and failed items as rows, a feedback loop's round, a command and its exit code, a question that
 * waits for its answer.
 */
import type { Theme } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { GraphDetails } from "../../src/core/graph-details.ts";
import { emptyUsage } from "../../src/core/run-result.ts";
import { renderGraphResult } from "../../src/ui/graph-render.ts";

const theme = {
	fg: (_color: string, text: string) => text,
	bold: (text: string) => text,
} as unknown as Theme;

const part = (name: string, status: "completed" | "running" | "failed", reason?: string) => ({
	name,
	status,
	attempts: 1,
	harness: "pi" as const,
	agent: "scout",
	usage: emptyUsage(),
	reason,
});

describe("the agent_graph live view", () => {
	it("shows items 3/5 ✓ with running and failed items as rows, a round, a command's exit code and a waiting question", () => {
		const details: GraphDetails = {
			graph: "kinds",
			nodes: [
				{
					key: "fix",
					status: "running",
					kind: "fanout",
					progress: "3/5 ✓ · 1 ✗",
					parts: [
						part("item 0", "completed"),
						part("item 1", "completed"),
						part("item 2", "completed"),
						part("item 3", "failed", "scripted failure"),
						part("item 4", "running"),
					],
				},
				{
					key: "loop",
					status: "running",
					kind: "feedback",
					progress: "round 2/5",
					parts: [part("round 2 worker", "running")],
				},
				{ key: "verify", status: "failed", kind: "command", progress: "$ npm test", reason: "npm test: exit code 1" },
				{ key: "ask", status: "running", kind: "human", progress: "question waiting: Ship it?" },
			],
		};
		const text = renderGraphResult({ content: [], details }, { expanded: false, isPartial: true }, theme)
			.render(200)
			.join("\n");
		expect(text).toContain("⏳ fix running 3/5 ✓ · 1 ✗");
		expect(text).toContain("  ✗ item 3 pi scout failed: scripted failure");
		expect(text).toContain("  ⏳ item 4 pi scout running");
		expect(text).not.toContain("item 0");
		expect(text).toContain("⏳ loop running round 2/5");
		expect(text).toContain("  ⏳ round 2 worker pi scout running");
		expect(text).toContain("✗ verify failed: npm test: exit code 1 $ npm test");
		expect(text).toContain("⏳ ask running question waiting: Ship it?");
	});
});
