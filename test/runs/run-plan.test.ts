/**
 * The end of a call's session bookkeeping (src/runs/run-plan.ts `settleSessions`): what the retention's hold
 * (docs/rules.md §Child sessions) sees while a call records its children and releases its claims.
 */
import { describe, expect, it } from "vitest";
import type { ChildRun } from "../../src/core/child-run.ts";
import { settleSessions } from "../../src/runs/run-plan.ts";
import type { LaunchRecord } from "../../src/sessions/launch-record.ts";
import { LaunchRecords } from "../../src/sessions/launch-records.ts";
import { launchSpec } from "../support/launch-spec.ts";
import { runResult } from "../support/run-result.ts";

const specs = [launchSpec({ harness: "pi", cwd: "/w" }), launchSpec({ harness: "pi", cwd: "/w" })];
const child = (index: number, phase: ChildRun["phase"], nativeSessionId: string): ChildRun => ({
	index,
	harness: "pi",
	task: "t",
	phase,
	result: runResult({ nativeSessionId }),
});

/** LaunchRecords whose every change is kept as the sorted ids the hold would be written with. */
function watchedRecords() {
	const held: string[][] = [];
	const records: LaunchRecords = new LaunchRecords(() => held.push(records.ids().sort()));
	return { records, held };
}

describe("settleSessions", () => {
	it("keeps a completed child's session held from its claim through its record: the hold never drops it", () => {
		const { records, held } = watchedRecords();
		records.claim("resumed-old");
		records.claim("new");
		held.length = 0;
		const persisted: LaunchRecord[] = [];
		settleSessions(
			specs,
			[child(0, "completed", "resumed-old"), child(1, "completed", "new")],
			["resumed-old", "new"],
			{
				sessions: records,
				persistRecord: (record) => persisted.push(record),
			},
		);
		expect(held.length).toBeGreaterThan(0);
		for (const ids of held) expect(ids).toEqual(["new", "resumed-old"]);
		expect(persisted.map((record) => record.nativeSessionId)).toEqual(["resumed-old", "new"]);
		expect(records.isActive("new") || records.isActive("resumed-old")).toBe(false);
	});

	it("records no session of a child that did not complete, and releases its claim", () => {
		const { records, held } = watchedRecords();
		records.claim("failed");
		settleSessions(specs, [child(0, "failed", "failed")], ["failed"], { sessions: records, persistRecord: () => {} });
		expect(records.get("failed")).toBeUndefined();
		expect(records.isActive("failed")).toBe(false);
		expect(held.at(-1)).toEqual([]);
	});

	it("releases every claim even when persisting a record throws", () => {
		const { records } = watchedRecords();
		records.claim("a");
		records.claim("b");
		expect(() =>
			settleSessions(specs, [child(0, "completed", "a"), child(1, "completed", "b")], ["a", "b"], {
				sessions: records,
				persistRecord: () => {
					throw new Error("the branch is gone");
				},
			}),
		).toThrow("the branch is gone");
		expect(records.isActive("a")).toBe(false);
		expect(records.isActive("b")).toBe(false);
	});
});
