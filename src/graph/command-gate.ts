/**
 * The `command` gate (docs/graphs.md §Command gates): one process from an argv list (never a shell
 * string), in the node's `cwd` resolved as a child's cwd (against the session's cwd), with a child's
 * environment, in its own process group registered with the lifeline, so it is killed like a child on
 * cancel, on `timeout_ms` and when Pi dies (process/start-process.ts). Exit 0 passes; the output is
 * `{ exit_code, stdout_tail, stderr_tail }`, each tail the last `COMMAND_TAIL_BYTES` bytes of what it
 * wrote (UTF-8, cut at a character); a failure's reason quotes the last lines on one line. It changes no
 * files itself and creates no branches, commits or copies.
 */
import { resolveAdHocCwd } from "../config/paths.ts";
import { printable } from "../core/printable.ts";
import { Problems } from "../core/problems.ts";
import { noteChildStart } from "../process/start-count.ts";
import { startProcess } from "../process/start-process.ts";
import type { CommandNode } from "./definition.ts";
import type { NodeExecution, NodeOutcome } from "./execution.ts";
import { fillTemplate } from "./value-refs.ts";

/** Bytes of stdout and of stderr kept in a command gate's output: the last ones, as written. */
export const COMMAND_TAIL_BYTES = 4096;

/**
 * `npm test` — an argv as the live view and the result lines show it: an argument with other characters
 * than `[\w@%+=:,./-]` is quoted as JSON, and every control or format character escaped (`printable`), so
 * a filled-in value from a node's output stays one visible line.
 */
export function argvText(argv: readonly string[]): string {
	return printable(argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg))).join(" "));
}

export async function runCommandNode(execution: NodeExecution): Promise<NodeOutcome> {
	const node = execution.compiled.node as CommandNode;
	const host = execution.gates.command;
	if (!host) return { status: "failed", error: "command gates cannot run here (no command host)" };
	const argv: string[] = [];
	for (let i = 0; i < node.run.length; i++) {
		const filled = fillTemplate(execution.compiled.templates[`run[${i}]`] ?? [node.run[i]], execution.scope);
		if ("missing" in filled) return { status: "failed", error: `run[${i}]: no value for ${filled.missing.join(", ")}` };
		argv.push(filled.text);
	}
	const { cwd: base, env, limits } = host.context();
	const problems = new Problems();
	const cwd = node.cwd === undefined ? base : resolveAdHocCwd(base, node.cwd, problems);
	if (cwd === undefined) return { status: "failed", error: `refused at dispatch: ${problems.list.join("; ")}` };
	if (execution.noMoreStarts.aborted) return { status: "not_started" };
	execution.onStart({ command: argv });
	// It may write what a harness would load: a child planned before it ends is checked again as it starts.
	const gone = noteChildStart();
	const running = startProcess(
		{ file: argv[0], args: argv.slice(1), cwd, env },
		{
			limits: { ...limits, timeoutMs: node.timeout_ms ?? limits.timeoutMs, stderrTailBytes: COMMAND_TAIL_BYTES },
			signal: execution.signal,
			// Bytes, not records: the tail is what the command wrote, its last line kept without a newline.
			stdoutTailBytes: COMMAND_TAIL_BYTES,
		},
	);
	const outcome = await running.done.finally(gone);
	const output = {
		exit_code: outcome.exitCode ?? -1,
		stdout_tail: outcome.stdoutTail ?? "",
		stderr_tail: outcome.stderrTail,
	};
	const what = argvText(argv);
	if (outcome.end === "aborted") return { status: "cancelled" };
	if (outcome.end === "spawn_failed") return { status: "failed", error: `${what}: ${outcome.spawnError}` };
	if (outcome.end === "timed_out") {
		return { status: "failed", error: `${what}: timed out after ${node.timeout_ms ?? limits.timeoutMs} ms` };
	}
	if (outcome.exitCode === 0) return { status: "completed", output };
	const ended = outcome.exitCode === null ? `ended by ${outcome.signal}` : `exit code ${outcome.exitCode}`;
	// One line: the reason goes into the node's line, where a line of the command's would pass for another node's.
	const lines = (output.stderr_tail || output.stdout_tail).split(/\r?\n/).filter((line) => line.trim() !== "");
	const lastLines = lines.slice(-5).join(" ⏎ ");
	return { status: "failed", error: `${what}: ${ended}${lastLines ? `; output tail: ${lastLines}` : ""}` };
}
