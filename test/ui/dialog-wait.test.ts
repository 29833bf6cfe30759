/**
 * A running interactive child whose harness shows a first-run dialog: the running card and the progress text
 * say what it waits on and how to attach (docs/interactive.md "First-run dialogs").
 */
import type { Theme } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { ChildRun } from "../../src/core/child-run.ts";
import type { SubagentDetails } from "../../src/core/details.ts";
import { throttledProgress } from "../../src/tools/progress.ts";
import { renderSubagentResult } from "../../src/ui/render.ts";
import { runResult } from "../support/run-result.ts";

const waitingOn =
	'its claude_code folder trust dialog: "Quick safety check: Is this a project you created or one you trust?"';
const attachCommand = "/usr/bin/tmux -S /tmp/pi-subagents-tmux-1-AbC123/sock attach -t claude-code-1a2b3c4d";
const child: ChildRun = {
	index: 0,
	harness: "claude_code",
	task: "t",
	phase: "running",
	startedAt: Date.now(),
	result: runResult({
		harness: "claude_code",
		interactive: { socket: "/tmp/s", session: "claude-code-1a2b3c4d", attachCommand, keptOpen: false, waitingOn },
	}),
};
const plain = { fg: (_color: string, text: string) => text, bold: (text: string) => text } as unknown as Theme;

describe("a child waiting on its harness's first-run dialog", () => {
	it("the running card and the progress text name the dialog's line and the attach command", () => {
		const card = renderSubagentResult(
			{ content: [], details: { mode: "single", children: [child] } as SubagentDetails },
			{ expanded: false, isPartial: true },
			plain,
		)
			.render(400)
			.join("\n");
		expect(card).toContain(`waits on ${waitingOn}; attach with \`${attachCommand}\``);

		let text = "";
		const progress = throttledProgress("single", 0, (partial) => {
			text = partial.content.map((part) => (part.type === "text" ? part.text : "")).join("");
		});
		progress.report([child]);
		expect(text).toContain(`child 0 waits on ${waitingOn}; attach with \`${attachCommand}\``);
	});
});
