/**
 * A graph's budgets (docs/graphs.md "Limits and budget"): `max_usd` and `max_tokens` over the usage its
 * nodes report live (tokens: input + output), `max_nodes_started` over admissions. A budget is spent once
 * the amount reaches the limit; then no further node starts, running ones finish, the rest are skipped.
 */
import type { BudgetStop } from "../core/graph-details.ts";
import type { Usage } from "../core/run-event.ts";
import { sumUsages } from "../ui/format.ts";
import type { GraphLimits } from "./definition.ts";
import type { GraphRunState } from "./run-state.ts";

/** Every node's usage so far, summed (tokens, USD). */
export function runUsage(state: GraphRunState): Usage {
	return sumUsages(Object.values(state.nodes).map((node) => node.usage));
}

/** The first spent usage budget (`max_usd`, then `max_tokens`), or `undefined`. */
export function spentUsageBudget(limits: GraphLimits | undefined, usage: Usage): BudgetStop | undefined {
	if (limits?.max_usd !== undefined && (usage.costUsd ?? 0) >= limits.max_usd) {
		return { budget: "max_usd", limit: limits.max_usd, spent: usage.costUsd ?? 0 };
	}
	const tokens = usage.inputTokens + usage.outputTokens;
	if (limits?.max_tokens !== undefined && tokens >= limits.max_tokens) {
		return { budget: "max_tokens", limit: limits.max_tokens, spent: tokens };
	}
	return undefined;
}

/** `max_usd 0.05 spent ($0.0612)` — a budget stop for the result. */
export function describeBudgetStop(stop: BudgetStop): string {
	if (stop.budget === "max_usd") return `budget max_usd ${stop.limit} spent ($${stop.spent.toFixed(4)})`;
	if (stop.budget === "max_tokens") return `budget max_tokens ${stop.limit} spent (${stop.spent} tokens)`;
	if (stop.budget === "max_nodes_started")
		return `limit max_nodes_started ${stop.limit} reached (${stop.spent} started)`;
	return `limit timeout_ms ${stop.limit} reached after ${stop.spent} ms`;
}
