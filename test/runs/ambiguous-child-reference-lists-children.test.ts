/**
 * docs/background-jobs.md §Talking to running children: a child reference that matches several children (an agent
 * two children run, a graph node key that is also another node's task_name), and a send that names no child of a
 * call with several, are refused as `not_found` with the call's children listed as the "no child" refusal lists
 * them: each by its index and names.
 */
import { describe, expect, it } from "vitest";
import type { ChildRun } from "../../src/core/child-run.ts";
import { findChild, LiveInputs } from "../../src/runs/live-inputs.ts";
import { childRun } from "../support/child-run.ts";

function lookUp(children: ChildRun[], ref: string | undefined) {
	const inputs = new LiveInputs();
	inputs.open("call-1", true, () => children);
	const call = inputs.get("call-1");
	if (!call) throw new Error("not registered");
	return findChild(call, ref);
}

describe("a send that does not name one child lists the children there are", () => {
	it("an agent name two children run", () => {
		expect(lookUp([childRun(0, "docs"), childRun(1, "review")], "scout")).toEqual({
			error: '"scout" names 2 children of call call-1; use an index; its children are 0 (docs), 1 (review)',
			reason: "not_found",
		});
	});

	it("for a graph: a node key that is another node's task_name, each child listed by node key and task_name", () => {
		const children = [childRun(0, "lint", { nodeKey: "lint" }), childRun(1, "lint", { nodeKey: "check" })];
		expect(lookUp(children, "lint")).toEqual({
			error: '"lint" names 2 children of call call-1; use an index; its children are 0 (lint), 1 (check or lint)',
			reason: "not_found",
		});
	});

	it("no reference, for a call with several children", () => {
		expect(lookUp([childRun(0, "docs"), childRun(1, "review")], undefined)).toEqual({
			error: "call call-1 has 2 children; name one (index or task_name); its children are 0 (docs), 1 (review)",
			reason: "not_found",
		});
	});
});
