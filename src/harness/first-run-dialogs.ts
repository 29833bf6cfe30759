/**
 * The first-run dialogs a harness's TUI can stop on before it reads its first prompt
 * (docs/harness-support.md "Interactive runs"), recognised on the pane's screen, so an interactive run
 * can say what its child waits on instead of hanging silently. Texts read from the pinned binaries.
 */
import type { Harness } from "../core/launch-spec.ts";

interface DialogPattern {
	/** What the dialog asks, in words. */
	what: string;
	/** Text on the screen that shows this dialog. */
	shown: RegExp;
	/** The line to report: its first line (a title), or the question when the title says nothing. */
	headline: RegExp;
}

const DIALOGS: Record<Harness, readonly DialogPattern[]> = {
	pi: [],
	claude_code: [
		{
			what: "folder trust",
			shown: /Is this a project you created or one you trust\?|Do you trust the files in this folder\?/,
			headline: /Is this a project you created or one you trust\?|Do you trust the files in this folder\?/,
		},
		{
			what: "API key approval",
			shown: /Detected a custom API key in your environment/,
			headline: /Detected a custom API key in your environment/,
		},
	],
	codex: [
		{ what: "folder trust", shown: /Trust this folder\?/, headline: /Trust this folder\?/ },
		{ what: "model notice", shown: /Use existing model/, headline: /\S/ },
		{ what: "hooks review", shown: /Hooks need review/, headline: /Hooks need review/ },
	],
};

/** A dialog found on a screen: what it asks and its line (trimmed, at most 200 characters). */
export interface ShownDialog {
	what: string;
	line: string;
}

/** The first-run dialog `screen` (a pane's plain text) shows for `harness`, or `undefined`. */
export function shownDialog(harness: Harness, screen: string): ShownDialog | undefined {
	for (const dialog of DIALOGS[harness]) {
		if (!dialog.shown.test(screen)) continue;
		const line = screen.split("\n").find((text) => dialog.headline.test(text)) ?? "";
		const trimmed = line.trim().replace(/\s+/g, " ");
		return { what: dialog.what, line: trimmed.length > 200 ? `${trimmed.slice(0, 199)}…` : trimmed };
	}
	return undefined;
}
