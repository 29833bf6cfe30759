/**
 * Background jobs' usage in the session's totals (docs/background-jobs.md §Background jobs).
 *
 * Pi gives an extension no way to attach usage to the follow-up message that delivers a job (a custom
 * message has no `usage` field, and the session manager extensions see is read-only, without
 * `appendUsage`). It does let a `tool_result` handler replace any tool result's `usage`, and Pi counts a
 * tool result's usage in the footer, `/session` and RPC totals. So a finished job's usage waits here and is
 * added, once, to the next tool result of the session, whichever tool it is. If no tool runs after the job
 * ends, it is reported in the follow-up text only.
 */
import type { Usage as PiUsage } from "@earendil-works/pi-ai";

/** Usage of finished background jobs not yet counted in the session's totals (tokens; cost in USD). */
export class PendingJobUsage {
	#pending: PiUsage | undefined;

	/** Adds a finished job's usage; zero usage is ignored. */
	add(usage: PiUsage): void {
		if (usage.totalTokens === 0 && usage.cost.total === 0) return;
		this.#pending = this.#pending ? sum(this.#pending, usage) : usage;
	}

	/**
	 * For a `tool_result` handler: `current` plus everything pending, which is then forgotten; `undefined`
	 * (leave the result alone) when nothing is pending.
	 */
	takeInto(current: PiUsage | undefined): PiUsage | undefined {
		const pending = this.#pending;
		if (!pending) return undefined;
		this.#pending = undefined;
		return current ? sum(current, pending) : pending;
	}
}

function sum(a: PiUsage, b: PiUsage): PiUsage {
	return {
		input: a.input + b.input,
		output: a.output + b.output,
		cacheRead: a.cacheRead + b.cacheRead,
		cacheWrite: a.cacheWrite + b.cacheWrite,
		totalTokens: a.totalTokens + b.totalTokens,
		cost: {
			input: a.cost.input + b.cost.input,
			output: a.cost.output + b.cost.output,
			cacheRead: a.cost.cacheRead + b.cost.cacheRead,
			cacheWrite: a.cost.cacheWrite + b.cost.cacheWrite,
			total: a.cost.total + b.cost.total,
		},
	};
}
