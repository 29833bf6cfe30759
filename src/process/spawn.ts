/**
 * Stage 1, spawn: start the command as the leader of its own process group, with exactly the given
 * environment plus the run marker (SECURITY.md, "Processes"). Node's own `spawn` does all of it; execa
 * would add about 50 ms and 2 MB to the first delegation of a Pi process and nothing this stage uses
 * (docs/design-notes.md §Dependencies not used).
 */
import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import type { ChildCommand } from "./types.ts";

/** A started child, or the reason it could not start. */
export type Spawned =
	| { pid: number; stdout: Readable; stderr: Readable; stdin: Writable | undefined; onExit: ExitListener }
	| { pid: undefined; spawnError: Promise<string>; refused?: true };

/** Registers the callback for the leader's real exit (code, or the signal that ended it). */
export type ExitListener = (listener: (code: number | null, signal: NodeJS.Signals | null) => void) => void;

/**
 * Spawns `command` without a shell, `detached` (the child leads its own process group), with
 * `command.env` plus `marker` as its complete environment. stdin: a pipe left open (`command.openStdin`;
 * `command.stdin` is then ignored); `command.stdin` written and closed; or /dev/null. A marker with a
 * `refusal` starts nothing: the spawn fails with that text. Never throws.
 */
export function spawnChild(command: ChildCommand, marker: { name: string; value: string; refusal?: string }): Spawned {
	// No watchdog may be started any more: a child would not die with Pi (lifeline.ts).
	if (marker.refusal) return { pid: undefined, spawnError: Promise.resolve(marker.refusal), refused: true };
	const withStdin = command.openStdin || command.stdin !== undefined;
	const child = spawn(command.file, command.args, {
		cwd: command.cwd,
		env: { ...command.env, [marker.name]: marker.value },
		detached: true,
		stdio: [withStdin ? "pipe" : "ignore", "pipe", "pipe"],
	});
	// A child that exits before reading its stdin closes the pipe (EPIPE): its exit is what reports the run.
	child.stdin?.on("error", () => {});
	const pid = child.pid;
	if (pid === undefined) {
		const failed = new Promise<Error>((resolve) => child.once("error", resolve));
		return { pid, spawnError: failed.then((error) => describeSpawnError(command, error)) };
	}
	if (!command.openStdin && command.stdin !== undefined) child.stdin?.end(command.stdin);
	return {
		pid,
		stdout: child.stdout as Readable,
		stderr: child.stderr as Readable,
		stdin: command.openStdin ? (child.stdin ?? undefined) : undefined,
		onExit: (listener) => child.once("exit", listener),
	};
}

/**
 * "could not start <file> in <cwd>: <reason>". Node reports a missing cwd as the command's ENOENT, so the cwd is
 * looked at first: `the "cwd" option is invalid: <cwd>` when it is not a directory.
 */
function describeSpawnError(command: ChildCommand, error: Error & { code?: string }): string {
	const reason =
		cwdProblem(command.cwd) ??
		error.message
			.split("\n")
			.filter((line) => line.trim() !== "")
			.join("; ");
	const notFound = command.file.includes("/") ? " (no such executable)" : " (executable not found on the child's PATH)";
	const hint = error.code === "ENOENT" && cwdProblem(command.cwd) === undefined ? notFound : "";
	return `could not start ${command.file} in ${command.cwd}: ${reason}${hint}`;
}

function cwdProblem(cwd: string): string | undefined {
	try {
		if (statSync(cwd).isDirectory()) return undefined;
	} catch {
		// Missing or unreadable: reported below.
	}
	return `the "cwd" option is invalid: ${cwd} is not a directory`;
}
