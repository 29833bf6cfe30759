import { describe, expect, it } from "vitest";
import { fixture, ofType, run } from "./run-fixture.ts";

describe("startProcess: stdout", () => {
	it("keeps non-JSON lines as diagnostics", async () => {
		const { records, diagnostics, done } = run(fixture("noise"));
		const outcome = await done;
		expect(records).toEqual([
			{ type: "session", id: "noise" },
			{ type: "message_update", delta: "crlf" },
			{ type: "agent_settled", aborted: false },
		]);
		expect(diagnostics).toEqual(["Debugger listening on ws://127.0.0.1:9229", "warning: something odd {not json}"]);
		expect(outcome.protocolFaults).toEqual([]);
	});

	it("keeps U+2028 inside a record and a character split across writes", async () => {
		const { records, diagnostics, done } = run(fixture("split-utf8", ["50"]));
		await done;
		expect(records.filter(ofType("message_update")).map((record) => record.delta)).toEqual([
			"line\u2028separator\u2029paragraph",
			"€😀€",
		]);
		expect(diagnostics).toEqual([]);
	});

	it("reports an over-long record and keeps reading stdout", async () => {
		const { records, done } = run(fixture("long-line", [String(4 * 1024 * 1024)]), {
			limits: { maxLineBytes: 64 * 1024 },
		});
		const outcome = await done;
		expect(outcome.end).toBe("exited");
		expect(outcome.protocolFaults).toHaveLength(1);
		expect(outcome.protocolFaults[0]).toMatch(/^record of 41943\d\d bytes exceeds maxLineBytes 65536$/);
		expect(records.map((record) => record.type)).toEqual(["session", "message_update", "agent_settled"]);
		expect(records[1].delta).toBe("after");
	});

	it("delivers a 20 MB single-line record intact", async () => {
		const size = 20 * 1024 * 1024;
		const { records, done } = run(fixture("long-line", [String(size)]), {
			limits: { maxLineBytes: 64 * 1024 * 1024, timeoutMs: 60_000 },
		});
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "exited", exitCode: 0, protocolFaults: [] });
		expect(records.map((record) => record.type)).toEqual([
			"session",
			"message_update",
			"message_update",
			"agent_settled",
		]);
		const delta = records[1].delta as string;
		expect(delta.length).toBe(size);
		expect(/^x+$/.test(delta)).toBe(true);
		expect(records[2].delta).toBe("after");
	});

	it("reports output cut off mid-record", async () => {
		const { records, done } = run(fixture("cut-off"));
		const outcome = await done;
		expect(outcome).toMatchObject({ end: "exited", exitCode: 0 });
		expect(records).toEqual([{ type: "session", id: "cut-off" }]);
		expect(outcome.protocolFaults).toEqual(["output ended mid-record (44 bytes without a final LF)"]);
	});

	it("delivers everything a flooding child printed before it exited", async () => {
		// A short drain must not cut off output that is merely still in the pipe when the child exits.
		let updates = 0;
		const { records, done } = run(fixture("flood", ["16"]), {
			limits: { drainMs: 50 },
			onRecord: (record) => {
				if ((record as { type?: string }).type === "message_update") updates++;
			},
		});
		const outcome = await done;
		expect(outcome.end).toBe("exited");
		const settled = records.find(ofType("agent_settled"));
		expect(settled?.records).toBe(updates);
		expect(outcome.protocolFaults).toEqual([]);
	});
});
