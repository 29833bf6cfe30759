/**
 * The last check before anything is spawned: every child's harness can honour its spec (docs/harness-support.md,
 * "a control a harness cannot enforce is rejected before launch"). Problems of all children are listed
 * together, each naming the child and the definition a refused setting came from.
 */
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import type { Harness, LaunchSpec } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";

/**
 * Adds to `problems` a harness with no adapter and each option an adapter refuses, labelled with the child
 * and the definition the setting came from.
 * @param labels per spec, "" in single mode or "task N" / "step N".
 * @returns true when every harness accepts its spec.
 */
export function checkHarnessesAccept(
	specs: readonly LaunchSpec[],
	labels: readonly string[],
	adapters: Partial<Record<Harness, HarnessAdapter>>,
	problems: Problems,
): boolean {
	const before = problems.size;
	specs.forEach((spec, i) => {
		const child = problems.at(labels[i]).at(origin(spec));
		const adapter = adapters[spec.harness];
		if (adapter) adapter.validate(spec, child);
		else child.add(`harness "${spec.harness}" is not available in this version`);
	});
	return problems.size === before;
}

/** Names the definition a refused setting came from (e.g. an agent file's `tools:` on codex), or "". */
function origin(spec: LaunchSpec): string {
	const { agentName, agentFile, rosterEntry, rosterSource } = spec.provenance;
	if (agentFile) return `agent "${agentName}" (${agentFile})`;
	if (rosterEntry)
		return `roster entry "${rosterEntry}" (${rosterSource === "settings" ? "settings file" : rosterSource})`;
	return "";
}
