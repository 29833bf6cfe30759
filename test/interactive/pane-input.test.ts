/**
 * Follow-up input to an interactive child: text sent while its TUI is still starting is typed once the TUI
 * reads keystrokes and reaches the model; a pane whose process has exited gets nothing and the send is
 * refused (docs/interactive.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChildInputChannel, SendReceipt } from "../../src/core/child-input.ts";
import type { RunResult } from "../../src/core/run-result.ts";
import { InteractiveRuns } from "../../src/interactive/interactive-runs.ts";
import { PaneInputChannel } from "../../src/interactive/pane-input.ts";
import { nativeLaunchSpec } from "../support/launch-spec.ts";
import { startTuiEnv, type TuiEnv } from "./tui-support.ts";

let tui: TuiEnv;
beforeAll(async () => {
	tui = await startTuiEnv();
});
afterAll(async () => {
	await tui?.close();
});

describe("follow-up input to an interactive child", () => {
	it("a send while the pi TUI is still starting is typed once it reads keystrokes and reaches the model", async () => {
		const marker = "PANE-INPUT-first";
		const followUp = "PANE-INPUT-follow-up please also say hi";
		// The follow-up, typed during the first turn, joins the request after the first turn's tool call.
		tui.server.route((request) =>
			request.userTexts.some((text) => text.includes(followUp)) ? { text: "answered the follow-up" } : undefined,
		);
		const { release, spec } = heldPiTurn(marker);
		const runs = new InteractiveRuns();
		let readyAtSend: boolean | undefined;
		let receipt: Promise<SendReceipt> | undefined;
		const run = runs.run(spec, tui.adapters.pi, {
			env: tui.env,
			onInput(channel: ChildInputChannel) {
				receipt = (async () => {
					const socketHost = (runs as unknown as { host: PaneHost }).host;
					const session = (await socketHost.sessions())[0];
					readyAtSend = await socketHost.readsKeystrokes(session);
					return channel.send(followUp, "steer");
				})();
			},
		});
		try {
			await expect.poll(() => receipt, { timeout: 30_000 }).toBeDefined();
			const answer = await receipt;
			expect(readyAtSend, "the TUI was still starting when the text was sent").toBe(false);
			expect(answer).toMatchObject({ status: "queued" });
			release();
			const result: RunResult = await run;
			expect(result.status, result.error).toBe("completed");
			expect(result.finalAnswer).toBe("answered the follow-up");
			const reached = tui.server.requests.filter((r) => r.userTexts.some((text) => text.includes(followUp)));
			expect(reached.length).toBeGreaterThan(0);
			// Typed once: the follow-up is one user message of the conversation.
			expect(reached[0].userTexts.filter((text) => text.includes(followUp))).toHaveLength(1);
			expect(result.inputs?.map((input) => input.text)).toEqual([followUp]);
		} finally {
			release();
			await run.catch(() => undefined);
			await runs.close();
		}
	}, 90_000);

	it("a sent text with the bracketed-paste end sequence and a carriage return never leaves the paste: the pi TUI's model gets one submission", async () => {
		const marker = "PANE-PASTE-first";
		const before = "PANE-PASTE-before the end marker";
		const after = "PANE-PASTE-after it, typed raw if the paste ended";
		tui.server.route((request) =>
			request.userTexts.some((text) => text.includes(before) || text.includes(after))
				? { text: "one answer" }
				: undefined,
		);
		const { release, spec } = heldPiTurn(marker);
		const runs = new InteractiveRuns();
		let receipt: Promise<SendReceipt> | undefined;
		const run = runs.run(spec, tui.adapters.pi, {
			env: tui.env,
			onInput(channel: ChildInputChannel) {
				receipt ??= channel.send(`${before}\u001b[201~\r${after}`, "steer");
			},
		});
		try {
			await expect.poll(() => receipt, { timeout: 30_000 }).toBeDefined();
			expect(await receipt).toMatchObject({ status: "queued" });
			release();
			const result: RunResult = await run;
			expect(result.status, result.error).toBe("completed");
			const texts = tui.server.requests.flatMap((r) => r.userTexts);
			const submissions = [...new Set(texts.filter((text) => text.includes(before) || text.includes(after)))];
			// One user message holding both parts: the carriage return stayed inside the paste.
			expect(submissions).toHaveLength(1);
			expect(submissions[0]).toContain(before);
			expect(submissions[0]).toContain(after);
			expect(submissions[0]).not.toContain("\u001b");
		} finally {
			release();
			await run.catch(() => undefined);
			await runs.close();
		}
	}, 90_000);

	it("a text of nothing but paste markers is refused as empty, not typed", async () => {
		const result = { inputs: [] } as unknown as RunResult;
		const channel = new PaneInputChannel("pi", tui.host, "no-such-session", result, () => {});
		expect(await channel.send(" \u001b[200~\u001b[201~ ", "steer")).toMatchObject({
			status: "refused",
			reason: "empty_text",
		});
		expect(result.inputs).toEqual([]);
	});

	it("a send to a pane whose process has exited is refused and types nothing", async () => {
		await tui.host.newSession({
			name: "exited-input",
			cwd: "/",
			command: ["/bin/sh", "-c", "exit 3"],
			width: 80,
			height: 24,
		});
		await expect.poll(async () => (await tui.host.pane("exited-input"))?.dead, { timeout: 5000 }).toBe(true);
		const result = { inputs: [] } as unknown as RunResult;
		const channel = new PaneInputChannel("pi", tui.host, "exited-input", result, () => {});
		const receipt = await channel.send("never typed", "follow_up");
		expect(receipt).toMatchObject({ status: "refused", reason: "exited" });
		expect(receipt.status === "refused" && receipt.message).toMatch(
			/tmux session exited-input has exited; nothing was sent/,
		);
		expect(await tui.host.capture("exited-input")).not.toContain("never typed");
		expect(result.inputs).toEqual([]);
		await tui.host.killSession("exited-input", 500);
	});
});

/**
 * A pi launch whose first turn (its task mentions `marker`) is held until `release`, then calls a tool,
 * so text sent meanwhile joins the request after that tool call.
 */
function heldPiTurn(marker: string) {
	let release: () => void = () => {};
	const firstTurnHeld = new Promise<void>((resolve) => {
		release = resolve;
	});
	tui.server.route((request) =>
		request.lastUserText.includes(marker)
			? firstTurnHeld.then(() => ({ toolCalls: [{ name: "bash", arguments: { command: "true" } }] }))
			: undefined,
	);
	const spec = nativeLaunchSpec({
		harness: "pi",
		cwd: tui.workDir,
		task: `${marker} run a command`,
		interactive: { stayOpen: false, inactivityTimeoutMs: null },
	});
	return { release, spec };
}

type PaneHost = { sessions(): Promise<string[]>; readsKeystrokes(name: string): Promise<boolean> };
