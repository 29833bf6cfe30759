/**
 * End-to-end setup for interactive (tmux) runs through the extension: the e2e env with codex and claude
 * homes, seeded so each TUI starts straight into the prompt (docs/harness-support.md "Interactive runs"),
 * and a way to ask the run's own tmux server about its sessions.
 */
import { execa } from "execa";
import { seedClaudeTui } from "./claude-home.ts";
import { seedCodexTui } from "./codex-home.ts";
import { type E2eEnv, startE2eEnv } from "./e2e-env.ts";
import type { FakeModelServer } from "./fake-model/index.ts";
import type { StepData } from "./fake-model/types.ts";

export async function startInteractiveE2eEnv(): Promise<E2eEnv> {
	// A host that stays open (RPC): background interactive jobs can report there.
	const env = await startE2eEnv({ nativeHomes: true, mode: "rpc" });
	const native = env.native as NonNullable<E2eEnv["native"]>;
	seedClaudeTui(native.claude, [env.workDir]);
	seedCodexTui(native.codex);
	// `close()` shuts the session down first, which removes its tmux server, before the homes go.
	return env;
}

/** Runs `tmux -S <socket> <args…>`; true when it succeeds (e.g. `has-session -t =<name>`). */
export async function tmuxSucceeds(socket: string, ...args: string[]): Promise<boolean> {
	return (await execa("tmux", ["-S", socket, ...args], { reject: false })).exitCode === 0;
}

/**
 * Answers every request whose last user text mentions `marker` with `step` (a route, never used up): the
 * claude and codex TUIs also ask the model for a title of their first prompt, before or after the turn
 * itself, and both get this answer whatever their order; a later turn of the same session, whose history
 * still mentions the marker, is left to its own script.
 */
export function scriptTui(server: FakeModelServer, marker: string, step: StepData): void {
	server.route((request) => (request.lastUserText.includes(marker) ? step : undefined));
}
