/**
 * A call that selects an agent definition (`agent`, optionally with `agent_type` to run it on another
 * harness): the definition's fields translated onto the harness (`agent-translation.ts`), the call's own
 * settings over them (docs/agent-libraries.md).
 */
import { isAbsolute, join, resolve } from "node:path";
import type { AgentDefinition } from "../config/agent-definition.ts";
import { findAgent } from "../config/agent-selection.ts";
import type { AgentDiscovery, DiscoverAgentsOptions } from "../config/agents.ts";
import { isInsideDirectory } from "../core/inside-dir.ts";
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
	const fields = agentSpecFields(agent, harness, call, adHoc.cwd, call.model !== undefined, problems);
	const forkSessionFile = fields?.forkParentSession ? context.parentSessionFile : undefined;
	if (fields?.forkParentSession && forkSessionFile === undefined) {
		problems.add(
			`${agent.filePath}: defaultContext: "fork" needs the parent's session file, and this session has none (it is not saved)`,
		);
	}
	if (!fields || problems.size > before) return undefined;
	const { noContextFiles, forkParentSession: _fork, readFirst, ...native } = fields;
	return {
		...adHoc,
		...native,
		task: appendReadFirst(adHoc.task, readFirst, adHoc.cwd),
		resources: noContextFiles ? withoutContextFiles(adHoc.resources) : adHoc.resources,
		forkSessionFile,
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

/**
 * A project agent's `output` file must be inside the child's cwd (symlinks resolved): the package writes it
 * whatever tools the child has, so a project file must not choose a path outside (docs/agent-libraries.md
 * §pi format). User and built-in agents are yours and may write anywhere.
 */
function checkOutputInside(agent: AgentDefinition, output: string | undefined, cwd: string, problems: Problems): void {
	if (agent.source !== "project" || output === undefined || isInsideDirectory(cwd, resolve(cwd, output))) return;
	problems.add(
		`${agent.filePath}: output: a project agent's output file must be inside the child's cwd (${cwd}); ${JSON.stringify(output)} is not`,
	);
}

/** What {@link agentSpecFields} gives a launch: spec fields, and the parts only a new launch applies. */
export type AgentSpecFields = Omit<AgentFields, "outputFile"> & Pick<LaunchSpec, "outputFile">;

/**
 * The spec fields `agent` gives a launch on `harness`, new or resumed (one home for both, so a resume runs
 * with the same translated settings as the launch it continues): the definition translated onto the
 * harness (`translateAgent`), the call's model, effort and tool lists over it, `output` resolved against
 * `cwd`, the empowering keys checked against the call's `auto_approve`.
 * @param modelFixed whether the launch has a model of its own (the call's, or the resumed session's), so
 *   the file's model is neither used nor checked.
 * @returns the fields, or `undefined` with every refusal added to `problems`.
 */
export function agentSpecFields(
	agent: AgentDefinition,
	harness: Harness,
	call: ChildSettings,
	cwd: string,
	modelFixed: boolean,
	problems: Problems,
): AgentSpecFields | undefined {
	const before = problems.size;
	const fields = translateAgent(agent, harness, modelFixed, problems);
	checkEmpowering(agent, fields, call.autoApprove === true, problems);
	checkOutputInside(agent, fields.outputFile, cwd, problems);
	if (problems.size > before) return undefined;
	return {
		...fields,
		model: call.model ?? fields.model,
		effort: call.effort ?? fields.effort,
		allowedTools: call.allowedTools ?? fields.allowedTools,
		disallowedTools: call.disallowedTools ?? fields.disallowedTools,
		outputFile: fields.outputFile === undefined ? undefined : resolve(cwd, fields.outputFile),
	};
}

/** `inheritProjectContext: false` as a resource selection (docs/rules.md §Resources). */
function withoutContextFiles(resources: Resources | undefined): Resources {
	return { ...(resources ?? DEFAULT_RESOURCES), include_instruction_files: false };
}

/** Claude Code permission modes that let no more run than the call's default mode (`-p` denies what would prompt). */
const ASKING_MODES = new Set(["default", "plan", "dontAsk"]);

/**
 * Keys of a file that would let the child act without asking need the caller's `auto_approve: true`
 * (SECURITY.md "Trust"): a Claude Code `permissionMode` other than `default`, `plan` or `dontAsk`
 * (`bypassPermissions`, `acceptEdits`, which lets edits run that `-p` would deny, `auto`, or a mode of a
 * later claude), codex `sandbox_mode = "danger-full-access"`.
 */
function checkEmpowering(agent: AgentDefinition, fields: AgentFields, autoApprove: boolean, problems: Problems): void {
	if (autoApprove) return;
	const mode = fields.claudeAgent?.definition.permissionMode;
	if (mode !== undefined && !ASKING_MODES.has(String(mode))) {
		problems.add(
			`${agent.filePath}: permissionMode: ${JSON.stringify(mode)} would let the child run tools without the permission checks of the call's default mode; pass auto_approve: true on the call to allow it`,
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
