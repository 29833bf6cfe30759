import { describe, expect, it } from "vitest";
import { LAUNCH_RECORD_TYPE, type LaunchRecord, recordFor } from "../../src/sessions/launch-record.ts";
import { LaunchRecords } from "../../src/sessions/launch-records.ts";
import { launchSpec, resources } from "../support/launch-spec.ts";

const record = (id: string, model: string): LaunchRecord =>
	recordFor(launchSpec({ harness: "pi", cwd: "/w", model }), id, 1);
const entry = (data: unknown) => ({ type: "custom", customType: LAUNCH_RECORD_TYPE, data });

describe("launch records", () => {
	it("rebuilds from the branch, later entries winning, and ignores malformed or foreign entries", () => {
		const records = new LaunchRecords();
		records.rebuild([
			entry(record("a", "m1")),
			{ type: "custom", customType: "other", data: record("b", "m") },
			entry({ version: 2, nativeSessionId: "c" }),
			entry(record("a", "m2")),
		]);
		expect(records.get("a")?.model).toBe("m2");
		expect(records.get("b")).toBeUndefined();
		expect(records.get("c")).toBeUndefined();
	});

	it("keeps known records when tree navigation adds another branch, and forgets them on rebuild", () => {
		const records = new LaunchRecords();
		records.rebuild([entry(record("a", "m"))]);
		records.addFrom([entry(record("b", "m"))]);
		expect(records.get("a")).toBeDefined();
		expect(records.get("b")).toBeDefined();
		records.rebuild([]);
		expect(records.get("a")).toBeUndefined();
	});

	it("never replaces a known record with a less restrictive one when another branch is visited", () => {
		const records = new LaunchRecords();
		const selected = recordFor(
			launchSpec({ harness: "pi", cwd: "/w", resources: resources({ mcp_servers: [] }) }),
			"s",
			1,
		);
		records.rebuild([entry(selected)]);
		records.addFrom([entry(record("s", "m"))]);
		expect(records.get("s")?.kind).toBe("selected");
		expect(records.get("s")?.resources?.mcp_servers).toEqual([]);
		const roster = { ...selected, kind: "roster", rosterEntry: "e", rosterSource: "/r.json" };
		records.addFrom([entry(roster)]);
		expect(records.get("s")?.kind).toBe("roster");
	});

	it("counts claims of a running session until each is released", () => {
		const records = new LaunchRecords();
		records.claim("s");
		records.claim("s");
		records.release("s");
		expect(records.isActive("s")).toBe(true);
		records.release("s");
		expect(records.isActive("s")).toBe(false);
	});

	it("records what a launch locks: roster entries, selections, or nothing but harness and cwd", () => {
		const base = { harness: "pi" as const, cwd: "/w" };
		expect(recordFor(launchSpec(base), "p", 1).kind).toBe("plain");
		expect(recordFor(launchSpec({ ...base, rosterFile: "/r.json" }), "s", 1).kind).toBe("selected");
		expect(recordFor(launchSpec({ ...base, provenance: { rosterEntry: "x", rosterSource: "/r" } }), "r", 1).kind).toBe(
			"roster",
		);
		const withControls = recordFor(launchSpec({ ...base, autoApprove: true, allowedTools: ["read"] }), "c", 1);
		expect(withControls.previousControls).toEqual({ autoApprove: true, allowedTools: ["read"] });
	});
});
