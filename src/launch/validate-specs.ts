/**
 * The last check before anything is spawned: every child's harness can honour its spec (docs/harness-support.md,
 * "a control a harness cannot enforce is rejected before launch"). Problems of all children are listed
 * together, each naming the child and the definition a refused setting came from.
 */
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import { LaunchError } from "../core/launch-error.ts";
import type { Harness, LaunchSpec } from "../core/launch-spec.ts";

/**
 * @param labels per spec, "" in single mode or "task N" / "step N".
 * @param interactiveProblems what refuses an interactive spec (no tmux, a task a TUI cannot take);
 *   `undefined` when interactive runs are not available at all.
 * @throws LaunchError listing every problem: a harness with no adapter, and each option an adapter refuses.
 */
export function assertHarnessesAccept(
	specs: readonly LaunchSpec[],
	labels: readonly string[],
	adapters: Partial<Record<Harness, HarnessAdapter>>,
	interactiveProblems?: (spec: LaunchSpec) => string[],
): void {
	const problems: string[] = [];
	specs.forEach((spec, i) => {
		const label = (labels[i] ? `${labels[i]}: ` : "") + origin(spec);
		const adapter = adapters[spec.harness];
		if (!adapter) {
			problems.push(`${label}harness "${spec.harness}" is not available in this version`);
			return;
		}
		try {
			adapter.validate(spec);
		} catch (error) {
			if (!(error instanceof LaunchError)) throw error;
			problems.push(...error.problems.map((problem) => `${label}${problem}`));
		}
		if (spec.interactive) {
			const refused = interactiveProblems?.(spec) ?? ["interactive: runs in tmux are not available here"];
			problems.push(...refused.map((problem) => `${label}${problem}`));
		}
	});
	if (problems.length > 0) throw new LaunchError(problems);
}

/** Names the definition a refused setting came from (e.g. an agent file's `tools:` on codex). */
function origin(spec: LaunchSpec): string {
	const { agentName, agentFile, rosterEntry, rosterSource } = spec.provenance;
	if (agentFile) return `agent "${agentName}" (${agentFile}): `;
	if (rosterEntry)
		return `roster entry "${rosterEntry}" (${rosterSource === "settings" ? "settings file" : rosterSource}): `;
	return "";
}
