/**
 * A call that selects an agent definition (`agent`, optionally with `agent_type` to run it on another
 * harness): the definition's fields translated onto the harness (`agent-translation.ts`), the call's own
 * settings over them (docs/agent-libraries.md).
 */
import { isAbsolute, join, resolve } from "node:path";
import type { AgentDefinition } from "../config/agent-definition.ts";
import { findAgent } from "../config/agent-selection.ts";
import type { AgentDiscovery, DiscoverAgentsOptions } from "../config/agents.ts";
import type { Harness, LaunchSpec, Resources } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import { type AgentFields, translateAgent } from "./agent-translation.ts";
import type { ChildSettings } from "./child-call.ts";
import type { LaunchContext } from "./launch-context.ts";
import { resolveAdHocCall } from "./resolve-helpers.ts";
import { DEFAULT_RESOURCES } from "./resolve-resources.ts";

/** The first line of the `defaultReads` block appended to the task. */
const READ_FIRST_HEADING = "Read these files first (the agent definition lists them):";

/**
 * @param name the agent the call selects (`agent`, or the resume's `agent` for an unrecorded session).
 * @returns the complete spec, or `undefined` with every problem added (unknown agent with suggestions,
 *   refused keys, a fork without a parent session file, an empowering key without `auto_approve`).
 */
export function resolveAgentCall(
	call: ChildSettings & { agentType?: Harness },
	name: string,
	discovery: AgentDiscovery,
	options: DiscoverAgentsOptions,
	context: LaunchContext,
	problems: Problems,
): LaunchSpec | undefined {
	const agent = findAgent(discovery, name, options, problems);
	const harness = call.agentType ?? agent?.harness ?? "pi";
	const adHoc = resolveAdHocCall(call, harness, context, problems);
	if (!agent || !adHoc) return undefined;
	const before = problems.size;
	const fields = translateAgent(agent, harness, call.model !== undefined, problems);
	checkEmpowering(agent, fields, call.autoApprove === true, problems);
	const forkSessionFile = fields.forkParentSession ? context.parentSessionFile : undefined;
	if (fields.forkParentSession && forkSessionFile === undefined) {
		problems.add(
			`${agent.filePath}: defaultContext: "fork" needs the parent's session file, and this session has none (it is not saved)`,
		);
	}
	if (problems.size > before) return undefined;
	const { noContextFiles, forkParentSession: _fork, readFirst, outputFile, ...native } = fields;
	return {
		...adHoc,
		...native,
		task: appendReadFirst(adHoc.task, readFirst, adHoc.cwd),
		model: call.model ?? fields.model,
		effort: call.effort ?? fields.effort,
		allowedTools: call.allowedTools ?? fields.allowedTools,
		disallowedTools: call.disallowedTools ?? fields.disallowedTools,
		resources: noContextFiles ? withoutContextFiles(adHoc.resources) : adHoc.resources,
		forkSessionFile,
		outputFile: outputFile === undefined ? undefined : resolve(adHoc.cwd, outputFile),
		provenance: {
			kind: "agent",
			childRosterDigest: adHoc.provenance.childRosterDigest,
			agentName: agent.name,
			agentFile: agent.filePath,
			agentSource: agent.source,
			agentFormat: agent.format,
			definitionDigest: agent.digest,
			agentDigest: agent.digest,
		},
	};
}

/** `inheritProjectContext: false` as a resource selection (docs/rules.md §Resources). */
function withoutContextFiles(resources: Resources | undefined): Resources {
	return { ...(resources ?? DEFAULT_RESOURCES), include_instruction_files: false };
}

/**
 * Keys of a file that would let the child act without asking need the caller's `auto_approve: true`
 * (SECURITY.md "Trust"): Claude Code `permissionMode: bypassPermissions`, codex
 * `sandbox_mode = "danger-full-access"`.
 */
function checkEmpowering(agent: AgentDefinition, fields: AgentFields, autoApprove: boolean, problems: Problems): void {
	if (autoApprove) return;
	const mode = fields.claudeAgent?.definition.permissionMode;
	if (mode === "bypassPermissions") {
		problems.add(
			`${agent.filePath}: permissionMode: "bypassPermissions" would run the child without permission checks; pass auto_approve: true on the call to allow it`,
		);
	}
	if (fields.codexAgent?.sandboxMode === "danger-full-access") {
		problems.add(
			`${agent.filePath}: sandbox_mode: "danger-full-access" would run the child without a sandbox; pass auto_approve: true on the call to allow it`,
		);
	}
}

/**
 * Appends the `defaultReads` block to `task`: one `- "<absolute path>"` line per file, relative paths
 * against the child's cwd. No file bodies are embedded.
 */
export function appendReadFirst(task: string, files: readonly string[] | undefined, cwd: string): string {
	if (!files || files.length === 0) return task;
	const lines = files.map((file) => `- ${JSON.stringify(isAbsolute(file) ? file : join(cwd, file))}`);
	return `${task}\n\n${READ_FIRST_HEADING}\n${lines.join("\n")}`;
}
