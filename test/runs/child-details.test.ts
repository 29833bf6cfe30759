import { describe, expect, it } from "vitest";
import type { ChildRun } from "../../src/core/child-run.ts";
import { childDetails, clip, DETAILS_TOOLS, MAX_CHILD_DETAILS_BYTES } from "../../src/runs/child-details.ts";
import { runResult } from "../support/run-result.ts";

/** `count` characters of a 3-byte UTF-8 character: the worst case for bytes per character. */
const wide = (count: number) => "中".repeat(count);

describe("bounded details", () => {
	it("keeps one child under MAX_CHILD_DETAILS_BYTES whatever the child printed, and counts what it left out", () => {
		const answer = wide(1_000_000);
		const run = runResult({
			finalAnswer: answer,
			task: wide(200_000),
			error: wide(100_000),
			finalAnswerWarning: wide(10_000),
			stderrTail: wide(16_000),
			diagnostics: Array.from({ length: 50 }, () => wide(1_000)),
			transcript: Array.from({ length: 200 }, (_, i) => ({ kind: "text" as const, text: `${i} ${wide(20_000)}` })),
			tools: Array.from({ length: 200 }, (_, i) => ({
				toolCallId: `t${i}`,
				toolName: "write",
				args: { content: wide(2_000) },
				output: wide(4_000),
				pending: false,
			})),
			toolsDropped: 7,
			permissionDenials: Array.from({ length: 100 }, () => ({ toolName: "Bash", input: { command: wide(5_000) } })),
			inputs: Array.from({ length: 40 }, (_, i) => ({
				id: `in${i}`,
				mode: "follow_up" as const,
				text: wide(2_000),
				status: "delivered" as const,
				ack: "pi: follow-up queued",
				answerBefore: wide(100_000),
			})),
			artifactPath: "/tmp/a.md",
		});
		const child: ChildRun = {
			index: 0,
			harness: "pi",
			task: wide(200_000),
			phase: "failed",
			result: run,
			error: wide(50_000),
		};
		const details = childDetails(child);
		expect(Buffer.byteLength(JSON.stringify(details))).toBeLessThan(MAX_CHILD_DETAILS_BYTES);
		expect(details.result?.finalAnswerBytes).toBe(3_000_000);
		expect(details.result?.artifactPath).toBe("/tmp/a.md");
		expect(details.result?.tools).toHaveLength(DETAILS_TOOLS);
		expect(details.result?.tools.at(-1)?.toolCallId).toBe("t199");
		expect(details.result?.toolsDropped).toBe(7 + 200 - DETAILS_TOOLS);
		// The live run is untouched: details are a copy.
		expect(run.finalAnswer).toBe(answer);
		expect(run.tools).toHaveLength(200);
	});

	it("passes a small child through unchanged", () => {
		const child: ChildRun = {
			index: 1,
			harness: "codex",
			task: "t",
			phase: "completed",
			result: runResult({ finalAnswer: "short answer" }),
		};
		expect(childDetails(child)).toEqual(child);
	});

	it("never splits a surrogate pair when cutting", () => {
		const cut = clip(`a${"😀".repeat(10)}`, 4);
		expect(cut).toBe("a😀… [18 more characters]");
	});
});
