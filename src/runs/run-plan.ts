/**
 * Runs a resolved call (its LaunchSpecs) to its children, with the bookkeeping around the scheduler:
 * the native sessions it runs stay claimed until it ends, so nothing resumes them meanwhile, and completed
 * children are recorded for resume (docs/rules.md §Resumption).
 */
import type { LimitFunction } from "p-limit";
import type { ChildInputChannel } from "../core/child-input.ts";
import type { CallMode, ChildRun } from "../core/child-run.ts";
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import type { Harness, LaunchSpec } from "../core/launch-spec.ts";
import { type LaunchRecord, recordFor } from "../sessions/launch-record.ts";
import type { LaunchRecords } from "../sessions/launch-records.ts";
import { buildChildEnv } from "./child-env.ts";
import { type ChildRunner, runCall } from "./scheduler.ts";
import type { WarmPool } from "./warm-children.ts";

/** A call resolved into one LaunchSpec per child. */
export interface Plan {
	mode: CallMode;
	specs: LaunchSpec[];
}

export interface RunPlanOptions {
	adapters: Record<Harness, HarnessAdapter>;
	/** The parent's environment; each child's is built from it (`buildChildEnv`). */
	baseEnv: NodeJS.ProcessEnv;
	/** The maximum depth in force, passed on to every child. */
	maxDepth: number;
	/** Children of this call running at once. */
	concurrency: number;
	/** Shared by every call of the parent session. */
	globalLimit: LimitFunction;
	sessions: LaunchRecords;
	/** Persists a record on the parent's branch; it is also added to `sessions`. */
	persistRecord(record: LaunchRecord): void;
	/** Sessions the caller already claimed for this call (resumes); released at the end. */
	resumed: readonly string[];
	signal?: AbortSignal;
	/** Aborting keeps children that have not started from starting; running ones go on (a graceful stop). */
	noMoreStarts?: AbortSignal;
	/** Runs interactive children (see `ScheduleOptions.runInteractive`). */
	runInteractive?: ChildRunner;
	/** Live children whenever one changes (not throttled; copy what you keep). */
	onChildren(children: ChildRun[]): void;
	/** A child's input channel once it has started. */
	onInput?: (index: number, channel: ChildInputChannel) => void;
	/** Warm children, when the setting is on (see `RunChildOptions.warm`). */
	warm?: WarmPool;
}

/** Resolves with one ChildRun per spec, in call order; never rejects for child failures. */
export async function runPlan(plan: Plan, options: RunPlanOptions): Promise<ChildRun[]> {
	const claimed = new Set<string>(options.resumed);
	const claim = (id: string) => {
		if (claimed.has(id)) return;
		claimed.add(id);
		options.sessions.claim(id);
	};
	let children: ChildRun[] | undefined;
	try {
		children = await runCall(plan.mode, plan.specs, {
			adapters: options.adapters,
			envFor: (spec) =>
				buildChildEnv(options.baseEnv, { depth: spec.depth, maxDepth: options.maxDepth, rosterFile: spec.rosterFile }),
			concurrency: options.concurrency,
			globalLimit: options.globalLimit,
			signal: options.signal,
			noMoreStarts: options.noMoreStarts,
			onInput: options.onInput,
			runInteractive: options.runInteractive,
			warm: options.warm,
			onUpdate(current) {
				for (const child of current) if (child.result?.nativeSessionId) claim(child.result.nativeSessionId);
				options.onChildren(current);
			},
		});
		return children;
	} finally {
		settleSessions(plan.specs, children ?? [], claimed, options);
	}
}

/**
 * The end of a call's session bookkeeping: records each completed child's session for resume (in
 * `options.sessions`, and on the branch through `persistRecord`), then releases the call's claims. In that
 * order, every session the call ran stays among `sessions.ids()` throughout, so the retention's hold
 * (docs/rules.md §Child sessions) never lapses between the claim's release and the record (a resumed
 * session older than a day is protected by the hold alone), and the hold is not rewritten twice.
 * @param children the call's children, indexed like `specs` by `child.index` (none when the call threw).
 * @param claimed every session id the call claimed (its resumes included); all are released, even when
 *   recording throws.
 */
export function settleSessions(
	specs: readonly LaunchSpec[],
	children: readonly ChildRun[],
	claimed: Iterable<string>,
	options: Pick<RunPlanOptions, "sessions" | "persistRecord">,
): void {
	try {
		for (const child of children) {
			const id = child.result?.nativeSessionId;
			if (child.phase !== "completed" || !id) continue;
			const record = recordFor(specs[child.index], id);
			options.sessions.add(record);
			options.persistRecord(record);
		}
	} finally {
		for (const id of claimed) options.sessions.release(id);
	}
}
