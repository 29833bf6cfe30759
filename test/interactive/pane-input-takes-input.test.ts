/**
 * When a send is typed into an interactive child's pane: only once the TUI takes typed text into its turn
 * (pi: its records show its first prompt under way) and reads keystrokes. pi keeps text it gets before its
 * first prompt is under way as its next prompt, sent only after the turn the run ends at (and so never,
 * since the run kills the TUI then): a send typed that early was lost.
 */
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../src/core/run-result.ts";
import { PaneInputChannel } from "../../src/interactive/pane-input.ts";
import type { TmuxHost } from "../../src/interactive/tmux-host.ts";
import { waitUntil } from "../support/processes.ts";

/** A pane that is live and reads keystrokes from the start; counts the channel's looks, records what is typed. */
function livePane() {
	const typed: string[] = [];
	let looks = 0;
	const host = {
		pane: async () => {
			looks++;
			return { pid: 42, dead: false, reaped: false };
		},
		readsKeystrokes: async () => true,
		sendText: async (_name: string, text: string) => {
			typed.push(text);
		},
	} as unknown as TmuxHost;
	return { host, typed, looks: () => looks };
}

describe("a send to an interactive child", () => {
	it("is not typed into a TUI that reads keystrokes before it takes typed text into its turn, and is typed once it does", async () => {
		const { host, typed, looks } = livePane();
		const result = { inputs: [] } as unknown as RunResult;
		const channel = new PaneInputChannel("pi", host, "starting", result, () => {});
		channel.paneStarted();
		const receipt = channel.send("typed while pi started", "steer");
		// The channel looked at the pane again and again, and typed nothing.
		await waitUntil(() => looks() >= 3, "the channel to look at the pane three times");
		expect(typed).toEqual([]);
		channel.takesInput();
		expect(await receipt).toMatchObject({ status: "queued" });
		expect(typed).toEqual(["typed while pi started"]);
	});

	it("waiting for its TUI to take input, is refused once the run ended", async () => {
		const { host, typed, looks } = livePane();
		const channel = new PaneInputChannel("pi", host, "ended", { inputs: [] } as unknown as RunResult, () => {});
		channel.paneStarted();
		const receipt = channel.send("never typed", "steer");
		await waitUntil(() => looks() >= 1, "the channel to look at the pane");
		channel.end();
		expect(await receipt).toMatchObject({ status: "refused", reason: "exited" });
		expect(typed).toEqual([]);
	});
});
