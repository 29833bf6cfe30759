/**
 * The last check before anything is spawned: every child's harness can honour its spec (docs/harness-support.md,
 * "a control a harness cannot enforce is rejected before launch"). Problems of all children are listed
 * together, each naming the child and the definition a refused setting came from.
 */
import type { HarnessAdapter } from "../core/harness-adapter.ts";
import type { Harness, LaunchSpec } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";

/**
 * Adds to `problems` a harness with no adapter, a tool both allowed and disallowed (`allowed_tools` and
 * `disallowed_tools`, an agent's `tools` and `disallowedTools`), and each option an adapter refuses, labelled
 * with the child and the definition the setting came from.
 * @param labels per spec, "" in single mode or "task N" / "step N".
 * @param checkInteractive adds what refuses an interactive spec (no tmux, a task a TUI cannot take);
 *   `undefined` when interactive runs are not available at all.
 * @returns true when every harness accepts its spec.
 */
export function checkHarnessesAccept(
	specs: readonly LaunchSpec[],
	labels: readonly string[],
	adapters: Partial<Record<Harness, HarnessAdapter>>,
	problems: Problems,
	checkInteractive?: (spec: LaunchSpec, problems: Problems) => void,
): boolean {
	const before = problems.size;
	specs.forEach((spec, i) => {
		const child = problems.at(labels[i]).at(origin(spec));
		const adapter = adapters[spec.harness];
		for (const tool of allowedAndDisallowed(spec)) {
			child.add(`tools: ${JSON.stringify(tool)} is both allowed and disallowed; keep it in one list`);
		}
		if (adapter) adapter.validate(spec, child);
		else child.add(`harness "${spec.harness}" is not available in this version`);
		if (spec.outputSchema && adapter && !adapter.structuredResult) {
			child.add(`output_schema: the ${spec.harness} harness has no structured result mechanism`);
		}
		// A TUI run has no final result to validate, nor a turn to repair it in (docs/structured-output.md).
		if (spec.outputSchema && spec.interactive) child.add("output_schema: cannot be combined with interactive: true");
		if (!spec.interactive) return;
		if (checkInteractive) checkInteractive(spec, child);
		else child.add("interactive: runs in tmux are not available here");
	});
	return problems.size === before;
}

/**
 * The allowed entries a disallowed one takes away: the same entry, or a rule of a tool (`Bash(git *)`, claude's
 * permission rules) whose tool a bare disallowed name (`Bash`) removes. A harness would start the child and
 * report the allowed tool missing (pi) or apply one list over the other; a disallowed rule (`Bash(rm *)`) of an
 * allowed tool only narrows it.
 */
function allowedAndDisallowed(spec: LaunchSpec): Set<string> {
	const tool = (entry: string) => entry.split("(", 1)[0].trim();
	// A bare name, or a rule matching every use (`Bash(*)`), takes the whole tool away.
	const whole = (entry: string) => !entry.includes("(") || /\(\s*\*\s*\)\s*$/.test(entry);
	const removed = (spec.disallowedTools ?? []).filter(whole).map(tool);
	return new Set(
		(spec.allowedTools ?? []).filter((entry) => spec.disallowedTools?.includes(entry) || removed.includes(tool(entry))),
	);
}

/** Names the definition a refused setting came from (e.g. an agent file's `tools:` on codex), or "". */
function origin(spec: LaunchSpec): string {
	const provenance = spec.provenance;
	switch (provenance.kind) {
		case "agent":
			return `agent "${provenance.agentName}" (${provenance.agentFile})`;
		case "roster_entry": {
			const source = provenance.rosterSource === "settings" ? "settings file" : provenance.rosterSource;
			return `roster entry "${provenance.rosterEntry}" (${source})`;
		}
		case "ad_hoc":
			return "";
	}
}
