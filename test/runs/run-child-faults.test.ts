/**
 * A child's faults end in the right RunResult (docs/rules.md §Child processes): the real run layer and pi adapter, with
 * a scripted stand-in for the pi binary (test/support/fault-cli/pi-script.mjs) for faults the real binary cannot
 * produce on demand.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { LaunchSpec } from "../../src/core/launch-spec.ts";
import type { LiveRun } from "../../src/core/run-result.ts";
import { createPiAdapter } from "../../src/harness/pi/adapter.ts";
import { runChild } from "../../src/runs/run-child.ts";
import { launchSpec, SCRIPTED_LIMITS } from "../support/launch-spec.ts";
import { answer, delta, PI_SCRIPT, session, settled } from "../support/pi-script.ts";
import { groupMembers, isAlive, waitUntil } from "../support/processes.ts";
import { releaseDirectories } from "../support/teardown.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const scratch = makeTempDir("run-faults-");
afterAll(() => releaseDirectories([scratch]));

const spec = (limits: Partial<LaunchSpec["limits"]> = {}): LaunchSpec =>
	launchSpec({
		harness: "pi",
		task: "do the thing",
		cwd: scratch,
		projectTrusted: true,
		limits: { ...SCRIPTED_LIMITS, ...limits },
	});

function run(
	actions: unknown[],
	options: {
		limits?: Partial<LaunchSpec["limits"]>;
		signal?: AbortSignal;
		onUpdate?: (partial: LiveRun) => void;
	} = {},
) {
	const adapter = createPiAdapter({
		invocation: () => ({ file: process.execPath, args: [PI_SCRIPT, JSON.stringify(actions)] }),
		sessionDir: join(scratch, "sessions"),
		agentDir: scratch,
	});
	return runChild(spec(options.limits), adapter, {
		env: { ...(process.env as Record<string, string>) },
		signal: options.signal,
		onUpdate: options.onUpdate,
	});
}

describe("run results of faulty children", () => {
	it("completes a child that never exits after its terminal event, after the grace period", async () => {
		const result = await run([session, answer("all done"), settled, { hang: true }]);
		expect(result.status).toBe("completed");
		expect(result.finalAnswer).toBe("all done");
		expect(result.signal).toBe("SIGTERM");
		await waitUntil(() => !isAlive(result.pid as number), "the child to be gone");
	});

	it("kills a child that ignores SIGTERM on abort", async () => {
		const controller = new AbortController();
		// The tool call is reported after the SIGTERM handler is installed: abort on it, not after a delay.
		const toolStart = { emit: { type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: {} } };
		const result = await run([session, { ignoreSigterm: true }, delta("partial"), toolStart, { hang: true }], {
			signal: controller.signal,
			onUpdate: (partial) => {
				if (partial.tools.length > 0) controller.abort();
			},
		});
		expect(result.status).toBe("aborted");
		expect(result.signal).toBe("SIGKILL");
		expect(result.stderrTail).toContain("ignoring SIGTERM");
		expect(isAlive(result.pid as number)).toBe(false);
		expect(result.finalAnswer).toBe("partial");
		expect(result.finalAnswerWarning).toContain("did not finish");
	});

	it("finishes although a grandchild keeps stdout open", async () => {
		const result = await run([session, { grandchild: true }, answer("finished"), settled]);
		expect(result.status).toBe("completed");
		expect(result.finalAnswer).toBe("finished");
		expect(groupMembers(result.pid as number)).toEqual([]);
	});

	it("keeps non-JSON stdout lines as diagnostics", async () => {
		const result = await run([
			session,
			{ raw: "Debugger listening on ws://x\n" },
			{ raw: "{not json\n" },
			answer("ok"),
			settled,
		]);
		expect(result.status).toBe("completed");
		expect(result.diagnostics).toEqual(["Debugger listening on ws://x", "{not json"]);
	});

	it("keeps U+2028 inside a string and a character split across chunks intact", async () => {
		const text = "line\u2028sep\u2029para €😀€";
		const record = `${JSON.stringify(answer(text).emit)}\n`;
		const at = Buffer.from(record).indexOf(Buffer.from("😀")) + 2;
		const result = await run([session, { splitBytes: record, at, delayMs: 100 }, settled]);
		expect(result.finalAnswer).toBe(text);
		expect(result.diagnostics).toEqual([]);
	});

	it("fails with a protocol reason when the child exits 0 without a terminal event", async () => {
		const result = await run([session, delta("half an answer")]);
		expect(result.exitCode).toBe(0);
		expect(result.status).toBe("failed");
		expect(result.error).toContain("protocol: the child exited with code 0 without a terminal event");
		expect(result.finalAnswer).toBe("half an answer");
	});

	it("names the stdout lines that are not JSON when a child ends without a terminal event", async () => {
		// What a wrong PI_NATIVE_SUBAGENTS_PI_COMMAND prints: its own text instead of Pi's JSON records.
		const lines = Array.from({ length: 30 }, (_, i) => ({ raw: `usage line ${i + 1}\n` }));
		const clean = await run([...lines]);
		expect(clean.status).toBe("failed");
		expect(clean.error).toBe(
			'protocol: the child exited with code 0 without a terminal event; its stdout had 30 lines that are not JSON, the last: "usage line 30"',
		);
		const crashed = await run([{ raw: "Unknown option --mode\n" }, { exit: 2 }]);
		expect(crashed.error).toBe(
			'the child exited with code 2; its stdout had 1 line that is not JSON, the last: "Unknown option --mode"',
		);
	});

	it("fails a child that reported success but exited with a non-zero code", async () => {
		const result = await run([session, answer("looks done"), settled, { exit: 3 }]);
		expect(result.status).toBe("failed");
		expect(result.error).toBe("the child reported success but exited with code 3");
		expect(result.finalAnswer).toBe("looks done");
	});

	it("reports an over-long line as a protocol fault and keeps reading", async () => {
		const result = await run([session, { longDelta: 2 * 1024 * 1024 }, answer("after the long line"), settled]);
		expect(result.status).toBe("completed");
		expect(result.finalAnswer).toBe("after the long line");
		expect(
			result.diagnostics.some((d) => d.startsWith("protocol fault: record of") && d.includes("exceeds maxLineBytes")),
		).toBe(true);
	});

	it("fails a run whose answer record was over the line limit, keeping the partial text and naming the record", async () => {
		const result = await run([session, delta("the start of it"), { longAnswer: 2 * 1024 * 1024 }, settled]);
		expect(result.status).toBe("failed");
		expect(result.error).toMatch(
			/^protocol: a record after the child's last answer was lost \(record of \d+ bytes exceeds maxLineBytes 1048576\); the answer text before it is kept$/,
		);
		expect(result.finalAnswer).toBe("the start of it");
	});

	it("reports output cut off mid-record as a protocol failure", async () => {
		const result = await run([session, { raw: '{"type":"message_end","message":{"role":"assis' }]);
		expect(result.status).toBe("failed");
		expect(result.error).toContain("output ended mid-record");
	});

	it("times out a hanging child and kills its group", async () => {
		const result = await run([session, { grandchild: true }, { hang: true }], { limits: { timeoutMs: 500 } });
		expect(result.status).toBe("timed_out");
		expect(result.error).toMatch(
			/^timed out after \d+ ms \(the limit is 500 ms, setting limits\.timeout_ms\); the child's process group was killed$/,
		);
		await waitUntil(() => groupMembers(result.pid as number).length === 0, "the group to be gone");
	});

	it("names the last error the child reported when it is ended before its terminal event", async () => {
		// What codex prints while it retries a connection it cannot make: an error, then nothing that ends.
		const failedTurn = {
			emit: {
				type: "message_end",
				message: { role: "assistant", content: [], stopReason: "error", errorMessage: "Connection failed: retrying" },
			},
		};
		// Ended at the tool call after the error (timeout and abort share the wording; abort needs no clock).
		const toolStart = { emit: { type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: {} } };
		const controller = new AbortController();
		const result = await run([session, failedTurn, toolStart, { hang: true }], {
			signal: controller.signal,
			onUpdate: (partial) => {
				if (partial.tools.length > 0) controller.abort();
			},
		});
		expect(result.status).toBe("aborted");
		expect(result.error).toBe(
			"aborted by the caller; the child's process group was killed; the last error it reported: Connection failed: retrying",
		);
	});

	it("fails naming the harness, command, cwd and override variable when the binary is missing", async () => {
		const adapter = createPiAdapter({
			invocation: () => ({ file: "/no/such/pi", args: [] }),
			sessionDir: scratch,
			agentDir: scratch,
		});
		const result = await runChild(spec(), adapter, { env: {} });
		expect(result.status).toBe("failed");
		expect(result.error).toBe(
			`the pi harness could not start /no/such/pi in ${scratch}: spawn /no/such/pi ENOENT (no such executable) (set PI_NATIVE_SUBAGENTS_PI_COMMAND to choose its command)`,
		);
	});
});
