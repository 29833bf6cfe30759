/**
 * The scheduler (runs/scheduler.ts) with the real pi adapter driving a scripted stand-in for the pi binary
 * (test/support/fault-cli/pi-script.mjs): chain substitution and stops, call order, the per-call and shared
 * limits, and aborts of running and queued children. Limits are proven with children that hold until
 * released (they hang until the abort), never with timing.
 */
import { join } from "node:path";
import pLimit from "p-limit";
import { afterAll, describe, expect, it } from "vitest";
import type { ChildPhase, ChildRun } from "../../src/core/child-run.ts";
import type { HarnessAdapter } from "../../src/core/harness-adapter.ts";
import type { LaunchSpec } from "../../src/core/launch-spec.ts";
import { createPiAdapter } from "../../src/harness/pi/adapter.ts";
import { runCall, type ScheduleOptions } from "../../src/runs/scheduler.ts";
import { launchSpec, SCRIPTED_LIMITS } from "../support/launch-spec.ts";
import { answer, PI_SCRIPT, session, settled } from "../support/pi-script.ts";
import { releaseDirectories } from "../support/teardown.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const scratch = makeTempDir("scheduler-");
afterAll(() => releaseDirectories([scratch]));

/**
 * A pi adapter whose every child plays the script `actionsFor(task)`; the task reaches the script as its
 * second argument, so one adapter serves children that behave differently.
 */
function scriptedAdapter(actionsFor: (task: string) => unknown[]): Record<"pi", HarnessAdapter> {
	const pi = createPiAdapter({
		invocation: () => ({ file: process.execPath, args: [PI_SCRIPT] }),
		sessionDir: join(scratch, "sessions"),
		agentDir: scratch,
	});
	return {
		pi: {
			...pi,
			buildCommand(spec, runDir) {
				const command = pi.buildCommand(spec, runDir);
				return { ...command, args: [PI_SCRIPT, JSON.stringify(actionsFor(spec.task))] };
			},
		},
	};
}

const spec = (task: string): LaunchSpec =>
	launchSpec({ harness: "pi", task, cwd: scratch, projectTrusted: true, limits: SCRIPTED_LIMITS });

/** Options with an unbounded shared limit; `overrides` replace any of them. */
function options(adapters: Record<"pi", HarnessAdapter>, overrides: Partial<ScheduleOptions> = {}): ScheduleOptions {
	return {
		adapters: adapters as ScheduleOptions["adapters"],
		envFor: () => ({ ...(process.env as Record<string, string>) }),
		concurrency: 8,
		globalLimit: pLimit(64),
		...overrides,
	};
}

const phases = (children: ChildRun[]): ChildPhase[] => children.map((child) => child.phase);
const running = (children: ChildRun[]) => children.filter((child) => child.phase === "running").length;

/** Resolves once `predicate` holds for the children of an update. */
function updateWhere(predicate: (children: ChildRun[]) => boolean) {
	let release: () => void = () => {};
	const reached = new Promise<void>((resolve) => {
		release = resolve;
	});
	return { reached, onUpdate: (children: ChildRun[]) => predicate(children) && release() };
}

describe("runCall", () => {
	it("returns parallel children in call order, whatever order they finish in", async () => {
		const adapters = scriptedAdapter((task) => [
			session,
			{ sleep: task === "slow" ? 300 : 0 },
			answer(`${task} done`),
			settled,
		]);
		const children = await runCall("parallel", [spec("slow"), spec("fast")], options(adapters));
		expect(children.map((child) => child.result?.finalAnswer)).toEqual(["slow done", "fast done"]);
		expect(phases(children)).toEqual(["completed", "completed"]);
	});

	it("hands each chain step the previous answer literally, `$&` and `$1` included", async () => {
		const adapters = scriptedAdapter((task) => [
			session,
			answer(task.startsWith("first") ? "cost $& and $1" : `got: ${task}`),
			settled,
		]);
		const children = await runCall("chain", [spec("first"), spec("second sees {previous}")], options(adapters));
		expect(children[1].result?.task).toBe("second sees cost $& and $1");
		expect(children[1].result?.finalAnswer).toBe("got: second sees cost $& and $1");
		expect(children[1].task).toBe("second sees {previous}");
	});

	it("stops a chain at a failed step and never starts the steps after it", async () => {
		const started: string[] = [];
		const adapters = scriptedAdapter((task) => {
			started.push(task);
			return task === "breaks" ? [session, { exit: 3 }] : [session, answer("ok"), settled];
		});
		const children = await runCall("chain", [spec("fine"), spec("breaks"), spec("never")], options(adapters));
		expect(phases(children)).toEqual(["completed", "failed", "skipped"]);
		expect(started).toEqual(["fine", "breaks"]);
	});

	it("fails a chain step whose task is empty after substitution, saying which step gave no answer", async () => {
		const adapters = scriptedAdapter(() => [session, settled]);
		const children = await runCall("chain", [spec("silent"), spec("{previous}"), spec("after")], options(adapters));
		expect(phases(children)).toEqual(["completed", "failed", "skipped"]);
		expect(children[1].error).toBe("the task is empty after substituting {previous}: step 1 gave no text answer");
	});

	it("reports a child whose command cannot be built as failed, with the reason, and runs the others", async () => {
		const adapters = scriptedAdapter(() => [session, answer("ok"), settled]);
		const refusing = {
			pi: {
				...adapters.pi,
				buildCommand: (launch: LaunchSpec, runDir: string) => {
					if (launch.task === "refused") throw new Error("no command for this one");
					return adapters.pi.buildCommand(launch, runDir);
				},
			},
		};
		const children = await runCall("parallel", [spec("refused"), spec("fine")], options(refusing));
		expect(phases(children)).toEqual(["failed", "completed"]);
		expect(children[0].error).toBe("no command for this one");
	});

	it("runs at most `concurrency` children of a call at once, and an abort kills those and skips the queued", async () => {
		const adapters = scriptedAdapter(() => [session, { hang: true }]);
		const controller = new AbortController();
		let peak = 0;
		const full = updateWhere((children) => running(children) === 2);
		const call = runCall(
			"parallel",
			[1, 2, 3, 4, 5].map((n) => spec(`hold ${n}`)),
			options(adapters, {
				concurrency: 2,
				signal: controller.signal,
				onUpdate(children) {
					peak = Math.max(peak, running(children));
					full.onUpdate(children);
				},
			}),
		);
		await full.reached;
		controller.abort();
		const children = await call;
		expect(peak).toBeLessThanOrEqual(2);
		expect(phases(children)).toEqual(["aborted", "aborted", "skipped", "skipped", "skipped"]);
	});

	it("shares the global limit between calls, and an abort ends a queued child's wait at once", async () => {
		const adapters = scriptedAdapter(() => [session, { hang: true }]);
		const globalLimit = pLimit(1);
		const holder = new AbortController();
		const held = updateWhere((children) => running(children) === 1);
		let peak = 0;
		const first = runCall(
			"single",
			[spec("holds the slot")],
			options(adapters, { globalLimit, signal: holder.signal, onUpdate: held.onUpdate }),
		);
		await held.reached;
		const queued = new AbortController();
		const second = runCall(
			"parallel",
			[spec("waits a"), spec("waits b")],
			options(adapters, {
				globalLimit,
				signal: queued.signal,
				onUpdate: (children) => {
					peak = Math.max(peak, running(children));
				},
			}),
		);
		queued.abort();
		expect(phases(await second)).toEqual(["skipped", "skipped"]);
		expect(peak).toBe(0);
		holder.abort();
		expect(phases(await first)).toEqual(["aborted"]);
	});
});
