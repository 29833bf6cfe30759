/**
 * The label of a call in job listings, the jobs line and the fleet view (docs/background-jobs.md
 * §Background jobs): its children by name — `scout "find auth"`, or for an unnamed child its agent and a
 * preview of its task — so two jobs of one agent can be told apart.
 */
import { definitionName, type LaunchSpec } from "../core/launch-spec.ts";
import { printable } from "../core/printable.ts";
import type { Plan } from "../runs/run-plan.ts";
import { oneLine } from "../ui/format.ts";

/** Children named in a label; the rest are counted. */
const NAMED = 3;

/** `scout "find auth"`, `scout: find where the…` (a task preview of at most `max` characters). */
export function specTitle(spec: LaunchSpec, max: number): string {
	const who = printable(definitionName(spec.provenance) ?? spec.harness);
	return spec.taskName ? `${who} "${printable(spec.taskName)}"` : `${who}: ${oneLine(spec.task, max)}`;
}

/** `scout "a"`, `parallel: scout "a", worker: fix the…`, `chain: scout: find… → planner "plan"`, `… +2 more`. */
export function describePlan(plan: Plan): string {
	if (plan.mode === "single") return specTitle(plan.specs[0], 40);
	const named = plan.specs.slice(0, NAMED).map((spec) => specTitle(spec, 20));
	const more = plan.specs.length > NAMED ? ` +${plan.specs.length - NAMED} more` : "";
	return `${plan.mode}: ${named.join(plan.mode === "chain" ? " → " : ", ")}${more}`;
}
