/**
 * A send that names no existing job or child is refused as `not_found`, never as `exited` (whose advice,
 * "resume it instead", is wrong for a mistyped name): docs/background-jobs.md §Talking to running children.
 */
import { describe, expect, it } from "vitest";
import type { ChildRun } from "../../src/core/child-run.ts";
import { JobRegistry } from "../../src/runs/jobs.ts";
import { findChild, LiveInputs } from "../../src/runs/live-inputs.ts";
import { sendFromCommand } from "../../src/tools/send-command.ts";
import { childRun } from "../support/child-run.ts";

const child = (index: number, taskName: string): ChildRun => childRun(index, taskName);

describe("sending to a job or child that is not there", () => {
	it("refuses a mistyped, ambiguous or missing child reference as not_found, naming the children", () => {
		const inputs = new LiveInputs();
		inputs.open("call-1", false, () => [child(0, "docs"), child(1, "review")]);
		const call = inputs.get("call-1");
		if (!call) throw new Error("the call was not registered");
		expect(findChild(call, "doc")).toEqual({
			error: 'no child "doc" in call call-1; its children are 0 (docs), 1 (review)',
			reason: "not_found",
			noSuchChild: true,
		});
		expect(findChild(call, "scout")).toMatchObject({ reason: "not_found" });
		expect(findChild(call, undefined)).toMatchObject({ reason: "not_found" });
		expect(findChild(call, 7)).toMatchObject({ reason: "not_found" });
	});

	it("names the children and the reference as one visible line each, whatever an agent file or the caller chose", () => {
		const inputs = new LiveInputs();
		const evil = { ...child(0, ""), taskName: undefined, agent: "evil\u001b[2J\nFORGED LINE\u202eabc" };
		inputs.open("call-2", false, () => [evil]);
		const call = inputs.get("call-2");
		if (!call) throw new Error("the call was not registered");
		expect(findChild(call, "nope\r")).toEqual({
			error: 'no child "nope\\u000d" in call call-2; its children are 0 (evil\\u001b[2J\\u000aFORGED LINE\\u202eabc)',
			reason: "not_found",
			noSuchChild: true,
		});
	});

	it("finds a graph node's child by its node key as well as its task_name, and lists it by both", () => {
		const inputs = new LiveInputs();
		inputs.open("call-3", false, () => [{ ...child(0, "reviewer"), nodeKey: "work", phase: "pending" }]);
		const call = inputs.get("call-3");
		if (!call) throw new Error("the call was not registered");
		for (const ref of ["work", "reviewer"])
			expect(findChild(call, ref)).toEqual({
				error: "child 0 of call call-3 is queued (for a slot or an earlier step) and has not started; nothing was sent",
				reason: "not_started",
			});
		expect(findChild(call, "wrok")).toEqual({
			error: 'no child "wrok" in call call-3; its children are 0 (work or reviewer)',
			reason: "not_found",
			noSuchChild: true,
		});
	});

	it("refuses an unknown job id as not_found", async () => {
		const jobs = new JobRegistry({ error: () => {} });
		expect(await jobs.send("nosuch", undefined, "hi", "steer")).toEqual({
			status: "refused",
			reason: "not_found",
			message: "there is no job nosuch",
		});
	});

	it("refuses /subagent-send with no foreground call as not_found", async () => {
		expect(await sendFromCommand(new LiveInputs(), "0 hi")).toMatchObject({ status: "refused", reason: "not_found" });
	});
});
