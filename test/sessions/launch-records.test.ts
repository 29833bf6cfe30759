import { describe, expect, it } from "vitest";
import { Problems } from "../../src/core/problems.ts";
import { LAUNCH_RECORD_TYPE, type LaunchRecord, recordFor } from "../../src/sessions/launch-record.ts";
import { LaunchRecords } from "../../src/sessions/launch-records.ts";
import { launchSpec, resources } from "../support/launch-spec.ts";

const record = (id: string, model: string): LaunchRecord =>
	recordFor(launchSpec({ harness: "pi", cwd: "/w", model }), id);
const entry = (data: unknown) => ({ type: "custom", customType: LAUNCH_RECORD_TYPE, data });

describe("launch records", () => {
	it("rebuilds from the branch, later entries winning, and ignores malformed or foreign entries", () => {
		const records = new LaunchRecords();
		records.rebuild([
			entry(record("a", "m1")),
			{ type: "custom", customType: "other", data: record("b", "m") },
			entry({ version: 2, nativeSessionId: "c" }),
			entry({ ...record("d", "m"), version: 3 }),
			entry(record("a", "m2")),
		]);
		expect(records.get("a")?.model).toBe("m2");
		expect(records.get("b")).toBeUndefined();
		expect(records.get("c")).toBeUndefined();
		expect(records.get("d")).toBeUndefined();
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
		);
		records.rebuild([entry(selected)]);
		records.addFrom([entry(record("s", "m"))]);
		expect(records.get("s")?.kind).toBe("selected");
		expect(records.get("s")?.resources?.mcp_servers).toEqual([]);
		const roster = { ...selected, kind: "roster", provenance: { rosterEntry: "e", rosterSource: "/r.json" } };
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

	it("refuses, where it claims them, a session that is running now and one resumed twice in a call, keeping nothing claimed", () => {
		const records = new LaunchRecords();
		records.claim("live");
		const problems = new Problems();
		expect(records.claimResumes(["free", "live", "twice", "twice"], problems)).toBeUndefined();
		expect(problems.list).toEqual([
			'resume_session_id "live": that session is running now (or is resumed twice in this call); resume it after it has finished',
			'resume_session_id "twice": that session is running now (or is resumed twice in this call); resume it after it has finished',
		]);
		expect(records.isActive("free")).toBe(false);
		expect(records.isActive("twice")).toBe(false);
		expect(records.claimResumes(["free", "twice"], new Problems())).toEqual(["free", "twice"]);
		expect(records.isActive("free")).toBe(true);
	});

	it("records what a launch locks: roster entries, selections, or nothing but harness and cwd", () => {
		const base = { harness: "pi" as const, cwd: "/w" };
		expect(recordFor(launchSpec(base), "p").kind).toBe("plain");
		expect(recordFor(launchSpec({ ...base, rosterFile: "/r.json" }), "s").kind).toBe("selected");
		expect(
			recordFor(
				launchSpec({ ...base, provenance: { kind: "roster_entry", rosterEntry: "x", rosterSource: "/r" } }),
				"r",
			).kind,
		).toBe("roster");
		const withControls = recordFor(launchSpec({ ...base, autoApprove: true, allowedTools: ["read"] }), "c");
		expect(withControls.previousControls).toEqual({ autoApprove: true, allowedTools: ["read"] });
	});

	it("embeds the launch's provenance in the record as the spec carried it, without unset fields", () => {
		const provenance = {
			kind: "roster_entry" as const,
			rosterEntry: "x",
			rosterSource: "/r.json",
			definitionDigest: "d1",
			agentDefinitionFile: undefined,
		};
		const stored = recordFor(launchSpec({ harness: "pi", cwd: "/w", provenance }), "r");
		expect(stored.version).toBe(2);
		expect(stored.provenance).toEqual({
			kind: "roster_entry",
			rosterEntry: "x",
			rosterSource: "/r.json",
			definitionDigest: "d1",
		});
		expect(Object.keys(stored.provenance)).not.toContain("agentDefinitionFile");
		expect(Object.keys(stored)).not.toContain("model");
	});

	it("reads a version 1 record, whose provenance fields stand at the top level, as version 2", () => {
		const records = new LaunchRecords();
		const version1 = {
			version: 1,
			kind: "roster",
			nativeSessionId: "old",
			harness: "codex",
			cwd: "/w",
			model: "gpt-5.5",
			rosterSource: "/r.json",
			rosterEntry: "reviewer",
			definitionDigest: "abc",
			childRosterDigest: "def",
			previousControls: { autoApprove: false },
			recordedAt: 5,
		};
		records.rebuild([entry(version1)]);
		const { rosterSource, rosterEntry, definitionDigest, childRosterDigest, recordedAt: _unread, ...launch } = version1;
		expect(records.get("old")).toEqual({
			...launch,
			version: 2,
			provenance: { kind: "roster_entry", rosterSource, rosterEntry, definitionDigest, childRosterDigest },
		});
	});

	it("reads a stored provenance's kind from what it names, so records written without one read alike", () => {
		const records = new LaunchRecords();
		const plain = { ...record("p", "m"), provenance: { childRosterDigest: "c" } };
		const agent = { ...record("a", "m"), provenance: { agentName: "scout", agentFile: "/a/scout.md" } };
		records.rebuild([entry(plain), entry(agent)]);
		expect(records.get("p")?.provenance).toEqual({ kind: "ad_hoc", childRosterDigest: "c" });
		expect(records.get("a")?.provenance).toEqual({
			kind: "agent",
			agentName: "scout",
			agentFile: "/a/scout.md",
			agentSource: "user",
		});
	});
});
