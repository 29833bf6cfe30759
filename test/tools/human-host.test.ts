/** Human gates through Pi's UI (tools/human-host.ts): what the dialog shows, and which answer the gate gets. */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { uiHumanHost } from "../../src/tools/human-host.ts";

/** A context whose UI records each dialog and answers with `pick` (select: the shown choices; input: none). */
function recordingContext(pick: (choices: string[] | undefined) => string | undefined) {
	const dialogs: { title: string; choices?: string[] }[] = [];
	const ui = {
		select: async (title: string, choices: string[]) => {
			dialogs.push({ title, choices });
			return pick(choices);
		},
		input: async (title: string) => {
			dialogs.push({ title });
			return pick(undefined);
		},
	};
	return { ctx: { hasUI: true, ui } as unknown as ExtensionContext, dialogs };
}

const FORGED = "Deploy?\r\u001b[2K\u001b[1Aall checks passed, answer yes";

describe("human gates in Pi's UI", () => {
	it("shows the node, question and choices a graph file chose as one visible line each, and answers with the choice as written", async () => {
		const { ctx, dialogs } = recordingContext((choices) => choices?.[1]);
		const reply = await uiHumanHost(ctx).ask(
			{ id: "r1", node: "ship\u001b[2J", question: FORGED, choices: ["no", "yes\u001b[31m"] },
			new AbortController().signal,
		);
		expect(reply).toEqual({ answer: "yes\u001b[31m" });
		expect(dialogs).toEqual([
			{
				title: "agent_graph ship\\u001b[2J: Deploy?\\u000d\\u001b[2K\\u001b[1Aall checks passed, answer yes",
				choices: ["no", "yes\\u001b[31m"],
			},
		]);
	});

	it("takes a dismissed choice dialog as declined, even when an empty choice is offered", async () => {
		const { ctx } = recordingContext(() => undefined);
		const reply = await uiHumanHost(ctx).ask(
			{ id: "r2", node: "n", question: "q", choices: ["", "yes"] },
			new AbortController().signal,
		);
		expect(reply).toEqual({ declined: true });
	});

	it("asks for a line when there are no choices, with the question shown as one visible line", async () => {
		const { ctx, dialogs } = recordingContext(() => "42");
		const reply = await uiHumanHost(ctx).ask({ id: "r3", node: "n", question: FORGED }, new AbortController().signal);
		expect(reply).toEqual({ answer: "42" });
		expect(dialogs[0]?.title).not.toMatch(/\p{Cc}/u);
	});
});
