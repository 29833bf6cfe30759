/**
 * Stage 1, spawn: start the command as the leader of its own process group, with exactly the given
 * environment plus the run marker (SECURITY.md, "Processes").
 */
import type { Readable, Writable } from "node:stream";
import { execa, type Result } from "execa";
import type { ChildCommand } from "./types.ts";

/** A started child, or the reason it could not start. */
export type Spawned =
	| { pid: number; stdout: Readable; stderr: Readable; stdin: Writable | undefined; onExit: ExitListener }
	| { pid: undefined; spawnError: Promise<string> };

/** Registers the callback for the leader's real exit (code, or the signal that ended it). */
export type ExitListener = (listener: (code: number | null, signal: NodeJS.Signals | null) => void) => void;

/**
 * Spawns `command` without a shell, `detached` (the child leads its own process group), with
 * `command.env` plus `marker` as its complete environment. stdin: a pipe left open (`command.openStdin`;
 * `command.stdin` is then ignored); `command.stdin` written and closed; or /dev/null. Never throws.
 */
export function spawnChild(command: ChildCommand, marker: { name: string; value: string }): Spawned {
	const subprocess = execa(command.file, command.args, {
		cwd: command.cwd,
		env: { ...command.env, [marker.name]: marker.value },
		extendEnv: false,
		detached: true,
		buffer: false,
		reject: false,
		encoding: "buffer",
		...stdinOption(command),
		stdout: "pipe",
		stderr: "pipe",
		// Termination is ours (group-wide); execa's would signal the leader only.
		forceKillAfterDelay: false,
	});
	// With `reject: false` the promise resolves even on failure; it is awaited only for spawn errors.
	const settled = subprocess.then(
		(result) => result,
		(error: unknown) => error as Result,
	);
	const pid = subprocess.pid;
	if (pid === undefined) return { pid, spawnError: settled.then((result) => describeSpawnError(command, result)) };
	const child = subprocess.nodeChildProcess;
	const stdin = command.openStdin ? (child.stdin ?? undefined) : undefined;
	return {
		pid,
		stdout: child.stdout as Readable,
		stderr: child.stderr as Readable,
		stdin,
		onExit: (listener) => child.once("exit", listener),
	};
}

function stdinOption(command: ChildCommand) {
	if (command.openStdin) return { stdin: "pipe" as const };
	return command.stdin === undefined ? { stdin: "ignore" as const } : { input: command.stdin };
}

/** "could not start <file> in <cwd>: <reason>", with execa's multi-line reason on one line. */
function describeSpawnError(command: ChildCommand, result: Result): string {
	const reason = (result.originalMessage || result.shortMessage || String(result.cause ?? "unknown error"))
		.split("\n")
		.filter((line) => line.trim() !== "")
		.join("; ");
	const notFound = command.file.includes("/") ? " (no such executable)" : " (executable not found on the child's PATH)";
	const hint = result.code === "ENOENT" && !reason.includes('"cwd"') ? notFound : "";
	return `could not start ${command.file} in ${command.cwd}: ${reason}${hint}`;
}
