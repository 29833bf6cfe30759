/**
 * Tool names a child can be restricted to (SECURITY.md "Tool restrictions"). A name in `allowed_tools` or
 * `disallowed_tools` that names no tool of the child is refused before launch when the harness's tool set
 * is known up front, and otherwise fails the run as soon as the child reports the tools it offers.
 */

import type { LaunchSpec } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import type { RunEvent } from "../core/run-event.ts";

/** Pi 1.6's built-in tools (`allToolNames` of @earendil-works/pi-coding-agent). */
export const PI_BUILTIN_TOOLS = ["read", "bash", "powershell", "edit", "write", "grep", "find", "ls"] as const;

/** The tool a pi child with an `output_schema` submits its result with (`pi/submit-result-extension.ts`). */
export const SUBMIT_RESULT_TOOL = "submit_result";

/**
 * The tool name of a claude permission rule: `Bash(git *)` → `Bash`, `Read` → `Read`.
 * `mcp__server__tool` names are kept whole.
 */
export function ruleToolName(rule: string): string {
	const open = rule.indexOf("(");
	return (open === -1 ? rule : rule.slice(0, open)).trim();
}

/**
 * Whether a pi child can gain tools beyond the built-in ones: extensions selected explicitly, or inherited
 * (personal and project discovery are on unless both inheritance flags are false).
 */
export function piMayLoadExtensions(spec: LaunchSpec): boolean {
	const resources = spec.resources;
	if (!resources) return true;
	return resources.extensions.length > 0 || resources.inherit_personal_resources || resources.inherit_project_resources;
}

/**
 * Pre-launch check for pi: with no extension that could add tools, every name in the allow and deny lists
 * must be a built-in tool; each list naming others adds one problem to `problems`.
 */
export function addPiToolNameProblems(spec: LaunchSpec, problems: Problems): void {
	if (piMayLoadExtensions(spec)) return;
	// With an output_schema the child also has submit_result (docs/structured-output.md).
	const known: readonly string[] = [...PI_BUILTIN_TOOLS, ...(spec.outputSchema ? [SUBMIT_RESULT_TOOL] : [])];
	addUnknownNames(
		spec,
		(name) => known.includes(name),
		known,
		`pi's built-in tools${spec.outputSchema ? ` and ${SUBMIT_RESULT_TOOL}` : ""} (this child loads no extensions)`,
		problems,
	);
}

function addUnknownNames(
	spec: LaunchSpec,
	exists: (name: string) => boolean,
	known: readonly string[],
	where: string,
	problems: Problems,
): void {
	for (const [field, names] of [
		["allowed_tools", spec.allowedTools],
		["disallowed_tools", spec.disallowedTools],
	] as const) {
		const unknown = (names ?? []).filter((name) => !exists(name));
		if (unknown.length > 0) {
			problems.add(
				`${field}: ${unknown.map((n) => JSON.stringify(n)).join(", ")} ${unknown.length === 1 ? "is not a tool" : "are not tools"} of this child; the tools that exist are ${where}: ${known.join(", ")}`,
			);
		}
	}
}

/**
 * The check made when a child reports the tools it offers (pi's first system message, claude's `init`
 * record): every allowlisted tool must be among them. Returns a failing terminal event naming the missing
 * tools and the ones the child has, or `undefined` when all are there.
 * @param toolName maps an allowlist entry to the tool it names (claude rules carry patterns).
 */
export function missingAllowedTools(
	harness: string,
	allowed: readonly string[] | undefined,
	offered: readonly string[],
	toolName: (entry: string) => string = (entry) => entry,
): RunEvent | undefined {
	if (!allowed) return undefined;
	const missing = [...new Set(allowed.map(toolName))].filter((name) => !offered.includes(name));
	if (missing.length === 0) return undefined;
	return {
		type: "done",
		status: "failed",
		error: `allowed_tools: ${missing.map((n) => JSON.stringify(n)).join(", ")} ${missing.length === 1 ? "is not a tool" : "are not tools"} of this ${harness} child, which offers: ${offered.length > 0 ? offered.join(", ") : "no tools"}; the run was stopped before it could work with fewer tools than asked`,
	};
}
