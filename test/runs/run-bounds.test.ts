/**
 * Every per-run buffer stays under its cap however much a child streams, while the final answer is kept in
 * full: the real run layer and pi adapter with the scripted stand-in for the pi binary
 * (test/support/fault-cli/pi-script.mjs). Sizes are asserted, not timings.
 */
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPORTED_LIMITS } from "../../src/core/bounds.ts";
import type { ChildRun } from "../../src/core/child-run.ts";
import type { LiveRun, RunReport, RunResult } from "../../src/core/run-result.ts";
import { createPiAdapter } from "../../src/harness/pi/adapter.ts";
import { childDetails, MAX_CHILD_DETAILS_BYTES } from "../../src/runs/child-details.ts";
import { runChild } from "../../src/runs/run-child.ts";
import {
	MAX_DIAGNOSTICS,
	MAX_PARTIAL_TEXT_CHARS,
	MAX_TOOL_OUTPUT_CHARS,
	MAX_TOOLS,
	MAX_TRANSCRIPT_ITEMS,
	MAX_TRANSCRIPT_TEXT_CHARS,
} from "../../src/runs/run-state.ts";
import { buildResultText } from "../../src/tools/result-text.ts";
import { launchSpec, SCRIPTED_LIMITS } from "../support/launch-spec.ts";
import { releaseDirectories } from "../support/teardown.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const FIXTURE = resolve(import.meta.dirname, "../support/fault-cli/pi-script.mjs");
const scratch = makeTempDir("run-bounds-");
afterAll(() => releaseDirectories([scratch]));
const session = { emit: { type: "session", id: "bounded" } };
const settled = { emit: { type: "agent_settled", aborted: false } };
/** Room for the "… [N more characters]" note after a cut. */
const NOTE = 40;

function run(actions: unknown[], onUpdate?: (partial: LiveRun) => void): Promise<RunResult> {
	const adapter = createPiAdapter({
		invocation: () => ({ file: process.execPath, args: [FIXTURE, JSON.stringify(actions)] }),
		sessionDir: join(scratch, "sessions"),
		agentDir: scratch,
	});
	const spec = launchSpec({
		harness: "pi",
		task: "stream a lot",
		cwd: scratch,
		projectTrusted: true,
		limits: { ...SCRIPTED_LIMITS, maxLineBytes: 16 * 1024 * 1024 },
	});
	return runChild(spec, adapter, { env: { ...(process.env as Record<string, string>) }, onUpdate });
}

/** Characters held by the retained buffers of a live result. */
function retained(result: RunReport) {
	return {
		transcriptItems: result.transcript.length,
		longestTranscriptText: Math.max(
			0,
			...result.transcript.map((item) => (item.kind === "text" ? item.text.length : 0)),
		),
		tools: result.tools.length,
		longestToolOutput: Math.max(0, ...result.tools.map((tool) => tool.output?.length ?? 0)),
		diagnostics: result.diagnostics.length,
	};
}

describe("bounded run buffers", () => {
	it("keeps transcript, tool outputs, diagnostics and stderr under their caps while 300 messages stream", {
		timeout: 60_000,
	}, async () => {
		let worst = retained({ transcript: [], tools: [], diagnostics: [] } as unknown as RunReport);
		const result = await run(
			[
				session,
				{
					repeat: 300,
					actions: [
						{ repeat: 20, actions: [{ longDelta: 2_000 }] },
						{ longAnswer: 40_000 },
						{ longToolOutput: 50_000 },
						{ raw: "not json %i\n" },
						{ stderr: 10_000 },
					],
				},
				{ longAnswer: 3_000_000 },
				settled,
			],
			(partial) => {
				const now = retained(partial);
				worst = Object.fromEntries(
					Object.entries(now).map(([key, value]) => [key, Math.max(value, worst[key as keyof typeof worst])]),
				) as typeof worst;
			},
		);
		expect(result.status).toBe("completed");
		// The final answer is kept in full.
		expect(result.finalAnswer.length).toBe(3_000_000);
		expect(Math.max(worst.longestTranscriptText, retained(result).longestTranscriptText)).toBeLessThanOrEqual(
			MAX_TRANSCRIPT_TEXT_CHARS + NOTE,
		);
		expect(worst.transcriptItems).toBeLessThanOrEqual(MAX_TRANSCRIPT_ITEMS);
		expect(worst.tools).toBeLessThanOrEqual(MAX_TOOLS);
		expect(worst.longestToolOutput).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS + NOTE);
		expect(result.diagnostics.length).toBeLessThanOrEqual(MAX_DIAGNOSTICS);
		expect(Buffer.byteLength(result.stderrTail)).toBeLessThanOrEqual(SCRIPTED_LIMITS.stderrTailBytes);
	});

	it("keeps at most MAX_PARTIAL_TEXT_CHARS of a message that never ends, and says so", {
		timeout: 60_000,
	}, async () => {
		const result = await run([session, { repeat: 100, actions: [{ longDelta: 50_000 }] }, settled]);
		expect(result.finalAnswer.length).toBeGreaterThanOrEqual(MAX_PARTIAL_TEXT_CHARS);
		expect(result.finalAnswer.length).toBeLessThanOrEqual(MAX_PARTIAL_TEXT_CHARS + NOTE);
		expect(result.finalAnswer.endsWith(`… [${5_000_000 - MAX_PARTIAL_TEXT_CHARS} more characters]`)).toBe(true);
		expect(result.finalAnswerWarning).toContain(`first ${MAX_PARTIAL_TEXT_CHARS} characters`);
	});

	it("bounds every string a hostile child prints (model, session id, tool names and ids) in details and the result text", {
		timeout: 60_000,
	}, async () => {
		const result = await run([{ longFields: 100_000 }, settled]);
		expect(result.status).toBe("completed");
		expect(result.finalAnswer).toBe("long fields done");
		// A cut id would name another session: it is dropped, and the diagnostic says so.
		expect(result.nativeSessionId).toBeUndefined();
		expect(result.diagnostics.join("\n")).toContain("native session id of 100000 characters");
		expect(result.model?.length).toBeLessThanOrEqual(REPORTED_LIMITS.model + NOTE);
		for (const tool of result.tools) {
			expect(tool.toolName.length).toBeLessThanOrEqual(REPORTED_LIMITS.toolName + NOTE);
			expect(tool.toolCallId.length).toBeLessThanOrEqual(REPORTED_LIMITS.toolCallId + NOTE);
			expect(tool.pending).toBe(false);
		}
		const child: ChildRun = { index: 0, harness: "pi", task: "t", phase: "completed", result };
		expect(Buffer.byteLength(JSON.stringify(childDetails(child)))).toBeLessThanOrEqual(MAX_CHILD_DETAILS_BYTES);
		const text = buildResultText("single", [child], { maxBytes: 50 * 1024, maxLines: 2000 }, scratch, "bounds");
		expect(text).toBe("long fields done");
	});
});
