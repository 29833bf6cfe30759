/**
 * Test helpers for the process layer: build a ChildCommand for a fault-injection fixture, run it with
 * SCRIPTED_LIMITS while collecting records, and wait for events (a record, a pid's disappearance) instead
 * of sleeping.
 */
import { fileURLToPath } from "node:url";
import type { Lifeline } from "../../src/process/lifeline.ts";
import { startProcess } from "../../src/process/start-process.ts";
import type { ChildCommand, ProcessOptions, ProcessOutcome, RunningProcess } from "../../src/process/types.ts";
import { SCRIPTED_LIMITS } from "../support/launch-spec.ts";
import { isAlive, WAIT_LIMIT_MS, waitUntil } from "../support/processes.ts";

export { isAlive };

export const FAULT_CLI_DIR = fileURLToPath(new URL("../support/fault-cli/", import.meta.url));

/** `node <fixture>.mjs ...args` with a minimal complete environment. */
export function fixture(name: string, args: string[] = [], overrides: Partial<ChildCommand> = {}): ChildCommand {
	return {
		file: process.execPath,
		args: [`${FAULT_CLI_DIR}${name}.mjs`, ...args],
		cwd: FAULT_CLI_DIR,
		env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
		...overrides,
	};
}

export interface FixtureRun {
	running: RunningProcess;
	records: Record<string, unknown>[];
	diagnostics: string[];
	done: Promise<ProcessOutcome>;
	/** Resolves with the first record (already seen or future) matching `predicate`. */
	waitForRecord(predicate: (record: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

export function run(
	command: ChildCommand,
	options: {
		limits?: Partial<ProcessOptions["limits"]>;
		signal?: AbortSignal;
		onRecord?: (record: unknown) => void;
		lifeline?: Lifeline;
	} = {},
): FixtureRun {
	const records: Record<string, unknown>[] = [];
	const diagnostics: string[] = [];
	const waiters: {
		predicate: (record: Record<string, unknown>) => boolean;
		resolve: (r: Record<string, unknown>) => void;
	}[] = [];
	const running = startProcess(command, {
		limits: { ...SCRIPTED_LIMITS, ...options.limits },
		signal: options.signal,
		...(options.lifeline ? { lifeline: options.lifeline } : {}),
		onRecord(value) {
			const record = value as Record<string, unknown>;
			records.push(record);
			for (const waiter of [...waiters]) {
				if (waiter.predicate(record)) {
					waiters.splice(waiters.indexOf(waiter), 1);
					waiter.resolve(record);
				}
			}
			options.onRecord?.(value);
		},
		onDiagnostic: (line) => diagnostics.push(line),
	});
	return {
		running,
		records,
		diagnostics,
		done: running.done,
		waitForRecord(predicate) {
			const seen = records.find(predicate);
			if (seen) return Promise.resolve(seen);
			return new Promise((resolve, reject) => {
				waiters.push({ predicate, resolve });
				void running.done.then(() => reject(new Error("the run ended before the awaited record")));
			});
		},
	};
}

export const ofType =
	(type: string) =>
	(record: Record<string, unknown>): boolean =>
		record.type === type;

/**
 * Resolves once `pid` is gone; rejects after `timeoutMs`. A SIGKILLed process disappears asynchronously
 * (the kernel tears it down, then its new parent reaps it) and no event announces that, so this polls.
 */
export function waitUntilGone(pid: number, timeoutMs = WAIT_LIMIT_MS): Promise<void> {
	return waitUntil(() => !isAlive(pid), `process ${pid} to be gone`, timeoutMs);
}
