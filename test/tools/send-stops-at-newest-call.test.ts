/**
 * `/subagent-send <child> <text>` with two foreground calls (docs/background-jobs.md §Talking to running children):
 * the lookup stops at the newest call that has a child by that reference. When that child cannot take the text
 * (still queued) or the reference names several of its children, the send is refused there; the text never goes to
 * a child of an older call. Only a call with no such child passes the lookup on.
 */
import { describe, expect, it } from "vitest";
import type { ChildInputChannel, SendReceipt } from "../../src/core/child-input.ts";
import type { ChildRun } from "../../src/core/child-run.ts";
import { LiveInputs } from "../../src/runs/live-inputs.ts";
import { sendFromCommand } from "../../src/tools/send-command.ts";
import { childRun } from "../support/child-run.ts";

const child = (index: number, taskName: string, phase: ChildRun["phase"]): ChildRun =>
	childRun(index, taskName, { phase });

function recordingChannel(sent: string[]): ChildInputChannel {
	return {
		harness: "pi",
		async send(text): Promise<SendReceipt> {
			sent.push(text);
			return { status: "queued", inputId: "i1", ack: "pi: steer queued" };
		},
		async stop() {
			return { status: "requested", ack: "ok" };
		},
	};
}

/**
 * Sends `args` while two foreground calls run: an older one whose one child `lint` runs and records what it is
 * sent, and a newer one with `newest` children.
 */
async function sendWithTwoCalls(newest: ChildRun[], args: string) {
	const sentToOld: string[] = [];
	const inputs = new LiveInputs();
	inputs.open("call-old", false, () => [child(0, "lint", "running")]).onInput(0, recordingChannel(sentToOld));
	inputs.open("call-new", false, () => newest);
	return { receipt: await sendFromCommand(inputs, args), sentToOld };
}

const refusedInNewest = (reason: string) => ({
	status: "refused",
	reason,
	message: expect.stringContaining("call call-new"),
});

describe("/subagent-send with two foreground calls", () => {
	it("refuses a child of the newest call that has not started instead of steering the older call's child", async () => {
		const sent = await sendWithTwoCalls([child(0, "lint", "pending")], "lint stop what you are doing");
		expect(sent).toEqual({ receipt: refusedInNewest("not_started"), sentToOld: [] });
	});

	it("refuses a name the newest call has twice instead of steering the older call's child", async () => {
		const sent = await sendWithTwoCalls([child(0, "lint", "running"), child(1, "lint", "running")], "lint stop");
		expect(sent).toEqual({ receipt: refusedInNewest("not_found"), sentToOld: [] });
	});

	it("refuses `-` when the newest call has several children instead of steering the older call's only child", async () => {
		const sent = await sendWithTwoCalls([child(0, "a", "running"), child(1, "b", "running")], "- stop");
		expect(sent).toEqual({ receipt: refusedInNewest("not_found"), sentToOld: [] });
	});

	it("passes on to the older call when the newest has no child by that name", async () => {
		const sent = await sendWithTwoCalls([child(0, "docs", "running")], "lint stop");
		expect(sent).toMatchObject({ receipt: { status: "queued" }, sentToOld: ["stop"] });
	});

	it("reaches the newest call's child named by digits (task_name \"2\") instead of the older call's child 2", async () => {
		const [sentToOld, sentToNew]: string[][] = [[], []];
		const inputs = new LiveInputs();
		const old = inputs.open("call-old", false, () => [0, 1, 2].map((i) => child(i, `old-${i}`, "running")));
		for (const i of [0, 1, 2]) old.onInput(i, recordingChannel(sentToOld));
		inputs.open("call-new", false, () => [child(0, "2", "running")]).onInput(0, recordingChannel(sentToNew));
		expect(await sendFromCommand(inputs, "2 stop and revert")).toMatchObject({ status: "queued" });
		expect([sentToOld, sentToNew]).toEqual([[], ["stop and revert"]]);
	});

	it("refuses digits that are one child's index and another child's task_name as naming two children", async () => {
		const sent = await sendWithTwoCalls([child(0, "docs", "running"), child(1, "0", "running")], "0 stop");
		expect(sent).toEqual({
			receipt: {
				...refusedInNewest("not_found"),
				message: expect.stringContaining('"0" names 2 children of call call-new'),
			},
			sentToOld: [],
		});
	});
});
