/**
 * Spawn the real pi CLI in json mode for these tests (test/support/pi-cli.ts). Deliberately minimal: the
 * project's own process layer lives in `src/process/`.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type PiCliRun, runPiCli as runPiCommand } from "../support/pi-cli.ts";
import type { PiHome } from "../support/pi-home.ts";

/** One parsed JSONL record of pi's `--mode json` stream (see docs/json.md). */
export type PiEvent = { type: string } & Record<string, unknown>;

/** How a pi run ended and what it printed. */
export interface PiRun {
	code: number | null;
	signal: NodeJS.Signals | null;
	events: PiEvent[];
	stderr: string;
}

/** A pi assistant message as found in `message_end.message` (only the fields these tests read). */
export interface AssistantMessage {
	role: "assistant";
	content: Array<{ type: string; text?: string }>;
	stopReason: string;
	errorMessage?: string;
	thinkingLevel?: string;
	usage: {
		input: number;
		output: number;
		cacheRead: number;
		reasoning: number;
		totalTokens: number;
		cost: { input: number; output: number; total: number };
	};
}

/**
 * Run the pi CLI with exactly `args`, `home.env` over the current environment, cwd `<home.dir>/work`, stdin
 * ignored. Resolves on exit; never rejects for a non-zero exit.
 */
export function runPiCli(home: PiHome, args: string[]): Promise<PiCliRun> {
	const cwd = join(home.dir, "work");
	mkdirSync(cwd, { recursive: true });
	return runPiCommand(args, { cwd, env: { ...process.env, ...home.env } });
}

/** Run `pi --mode json -p --no-session <args>` as `runPiCli` does, with its JSONL events parsed. */
export async function runPi(home: PiHome, args: string[]): Promise<PiRun> {
	const { code, signal, stdout, stderr } = await runPiCli(home, ["--mode", "json", "-p", "--no-session", ...args]);
	const events = stdout
		.split("\n")
		.filter((line) => line.trim().length > 0)
		.map((line) => JSON.parse(line) as PiEvent);
	return { code, signal, events, stderr };
}

/** The last assistant `message_end` message of a run (pi's authoritative final answer). */
export function finalAssistant(run: PiRun): AssistantMessage {
	const ends = run.events.filter(
		(event) => event.type === "message_end" && (event.message as { role?: string }).role === "assistant",
	);
	const last = ends.at(-1);
	if (last === undefined) throw new Error(`no assistant message_end; stderr: ${run.stderr}`);
	return last.message as AssistantMessage;
}

/** Concatenated text parts of an assistant message. */
export function textOf(message: AssistantMessage): string {
	return message.content
		.filter((part) => part.type === "text")
		.map((part) => part.text ?? "")
		.join("");
}
