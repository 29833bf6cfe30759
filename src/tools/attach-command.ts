/**
 * `/subagent-attach [name | session id]` (docs/interactive.md): hands the terminal to an
 * interactive child's tmux session and gives it back to Pi's TUI when the user detaches (`C-b d`), as
 * Pi does for its external editor: the TUI stops, tmux attaches on the same terminal, the TUI restarts.
 */
import { spawn } from "node:child_process";
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import { Problems } from "../core/problems.ts";
import type { InteractiveRuns } from "../interactive/interactive-runs.ts";
import { ATTACH_COMMAND } from "./tool-info.ts";

/** Runs `/subagent-attach` with `args` (a tmux session name, a native session id, or nothing). */
export async function handleAttachCommand(
	interactive: InteractiveRuns,
	args: string,
	ctx: ExtensionCommandContext,
): Promise<void> {
	if (ctx.mode !== "tui") {
		ctx.ui.notify(`/${ATTACH_COMMAND.name} needs Pi's TUI; use the attach command in the result instead`, "error");
		return;
	}
	const problems = new Problems(`/${ATTACH_COMMAND.name}`);
	const target = await interactive.attachTarget(args.trim(), problems);
	if (!target) {
		// The command's boundary: its problems become the one notice the user sees.
		ctx.ui.notify(problems.list.join("\n"), "error");
		return;
	}
	await attachTerminal(target, ctx);
}

/** The line shown before the terminal goes to a child's tmux session (docs/interactive.md). */
export const DETACH_HINT = "detach with C-b d to come back to Pi";

/**
 * Hands the terminal to `argv` (a tmux attach command) and gives it back to Pi's TUI when it exits, as Pi
 * does for its external editor: the TUI stops, tmux attaches on the same terminal, the TUI restarts.
 */
export async function attachTerminal(argv: string[], ctx: ExtensionCommandContext): Promise<void> {
	ctx.ui.notify(`pi-native-subagents: ${DETACH_HINT}`, "info");
	await ctx.ui.custom<void>((tui, _theme, _keybindings, done) => {
		tui.stop();
		const [file, ...rest] = argv;
		const child = spawn(file, rest, { stdio: "inherit", env: { ...process.env, TMUX: undefined } });
		let finished = false;
		const finish = () => {
			if (finished) return;
			finished = true;
			tui.start();
			tui.requestRender(true);
			done(undefined);
		};
		child.on("error", finish);
		child.on("close", finish);
		return { render: () => [], invalidate: () => {} };
	});
}
