/**
 * `/subagent-attach` as a person uses it: the real pi TUI runs in a pseudo-terminal (node-pty) with this
 * extension; its model starts an interactive child that stays open; the command hands the terminal to the
 * child's tmux session (saying how to come back), where a follow-up is typed, and detaching gives the
 * terminal back to Pi's TUI.
 */
import { mkdirSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { type IPty, spawn } from "node-pty";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolvePiInvocation } from "../../src/harness/pi/invocation.ts";
import { EXTENSION_PATH } from "../support/extension-session.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";
import { waitUntil } from "../support/processes.ts";
import { removeTree } from "../support/teardown.ts";
import { makeTempDir } from "../support/temp-dir.ts";

let server: FakeModelServer;
let home: PiHome;
let tmp: string;
let terminal: IPty | undefined;
let output = "";

beforeAll(async () => {
	server = await startFakeModelServer();
	home = createPiHome(server);
	tmp = makeTempDir("attach-test-");
});

afterAll(async () => {
	terminal?.kill("SIGKILL");
	// The parent's shutdown removes its tmux server; after a hard kill this does it instead.
	for (const dir of readdirSync(tmp).filter((name) => name.startsWith("pi-subagents-tmux-"))) {
		await execa("tmux", ["-S", join(tmp, dir, "sock"), "kill-server"], { reject: false });
	}
	// The killed Pi's lifeline ends its children; its compile cache may still be written meanwhile.
	await home.cleanup();
	await server.close();
	await removeTree(tmp);
});

/** Output written since `from` (an index into the whole output). */
const since = (from: number) => output.slice(from);

describe("/subagent-attach", () => {
	it("attaches Pi's terminal to the child's pane, carries a typed follow-up to the child, and returns to Pi on detach", async () => {
		server.scriptFor(
			"launch the child",
			{
				toolCalls: [
					{
						name: "subagent",
						arguments: { agent_type: "pi", task: "child work", interactive: true, stay_open: true },
					},
				],
			},
			{ text: "parent done" },
		);
		server.scriptFor("child work", { text: "child says hi" }, { text: "child got the follow-up" });
		const work = join(realpathSync(home.dir), "work");
		mkdirSync(work);
		const pi = resolvePiInvocation();
		terminal = spawn(
			pi.file,
			[
				...pi.args,
				"-e",
				EXTENSION_PATH,
				"--no-approve",
				"--session-dir",
				join(home.dir, "parent-sessions"),
				"launch the child",
			],
			{
				name: "xterm-256color",
				cols: 120,
				rows: 40,
				cwd: work,
				env: { ...process.env, ...home.env, TMPDIR: tmp, TMUX: "" },
			},
		);
		terminal.onData((data) => {
			output += data;
		});
		await waitUntil(() => output.includes("parent done"), "the parent's answer", 60_000);

		const beforeAttach = output.length;
		terminal.write("/subagent-attach");
		// Enter only once Pi's editor shows the typed command (keys typed before it reads them are not lost, but
		// an Enter taken before the text would submit an empty line).
		await waitUntil(() => since(beforeAttach).includes("/subagent-attach"), "Pi's editor to show the command");
		terminal.write("\r");
		// tmux's status line names the child's session (cut to 10 columns): the terminal shows the child's pane.
		await waitUntil(() => /\[pi-[0-9a-f]{6}/.test(since(beforeAttach)), "the child's tmux session", 20_000);
		expect(since(beforeAttach)).toContain("child says hi");

		const beforeTyping = output.length;
		terminal.write("follow-up from the user");
		await waitUntil(
			() => since(beforeTyping).includes("follow-up from the user"),
			"the child's editor to show the text",
		);
		terminal.write("\r");
		await server.waitFor((requests) => requests.some((r) => r.lastUserText === "follow-up from the user"), 20_000);
		await waitUntil(() => since(beforeAttach).includes("child got the follow-up"), "the child's second answer", 20_000);

		const beforeDetach = output.length;
		terminal.write("\x02d");
		await waitUntil(() => since(beforeDetach).includes("[detached"), "tmux to detach");
		// Pi's TUI redraws in full: the parent's conversation is on the screen again.
		await waitUntil(() => since(beforeDetach).includes("parent done"), "Pi's TUI to come back");
		// The one-line hint given as the terminal changed hands is in Pi's transcript.
		await waitUntil(() => since(beforeDetach).includes("detach with C-b d to come back to Pi"), "the hint");
	}, 120_000);
});
