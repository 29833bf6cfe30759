/**
 * The text the model receives for a graph (docs/graphs.md §Results): a failed node's session has no launch
 * record (docs/rules.md §Resumption: only completed runs get one), so its line says to name its harness.
 */
import { describe, expect, it } from "vitest";
import type { GraphDetails } from "../../src/core/graph-details.ts";
import { graphResultText } from "../../src/graph/result.ts";

describe("graph result text", () => {
	it("offers a completed node's session for resume, and a failed node's with its agent_type", () => {
		const details: GraphDetails = {
			graph: "g",
			nodes: [
				{ key: "plan", status: "completed", harness: "pi", nativeSessionId: "done-id" },
				{ key: "fix", status: "failed", harness: "codex", reason: "429", nativeSessionId: "failed-id" },
			],
			outputs: {},
		};
		const text = graphResultText(details, "{}", [], { nodes: {} });
		expect(text).toContain("- plan: completed · pi · session: done-id (resume with resume_session_id)");
		expect(text).toContain(
			'- fix: failed · codex · session: failed-id (not recorded, as the run did not complete: resume with resume_session_id and agent_type: "codex"): 429',
		);
	});
});
