/**
 * One child's arguments as a tool gives them (snake_case, docs/rules.md §Calling the tool) and their shape
 * checks, shared by the `subagent` tool's items and `agent_graph` nodes: a ChildCall is made only here.
 */
import { overLimit } from "../core/bounds.ts";
import type { Harness } from "../core/launch-spec.ts";
import type { Problems } from "../core/problems.ts";
import { checkOutputSchema } from "../runs/structured-output.ts";
import type { ChildCall, ChildSettings } from "./child-call.ts";

export type { ChildCall } from "./child-call.ts";

/** The fields of one child's arguments (the `subagent` schema's child item; graph nodes use a subset). */
export interface ChildArgs {
	agent?: string;
	roster_entry?: string;
	agent_type?: Harness;
	task?: string;
	prompt?: string;
	task_name?: string;
	cwd?: string;
	model?: string;
	effort?: string;
	resources?: unknown;
	roster_file?: string | null;
	allowed_tools?: string[];
	disallowed_tools?: string[];
	auto_approve?: boolean;
	interactive?: boolean;
	stay_open?: boolean;
	inactivity_timeout_ms?: number | null;
	resume_session_id?: string;
	/** A JSON Schema object (docs/structured-output.md); checked here with `checkOutputSchema`. */
	output_schema?: Record<string, unknown>;
}

/** The fields that name a child's kind; exactly one is given. */
export const CHILD_KEYS = ["agent", "roster_entry", "agent_type"] as const;
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Checks one child's arguments (shape only: one kind, a task, no empty names, plain tool names, interactive-only
 * fields) and maps them onto a ChildCall. The `subagent` tool's items and graph nodes both come through here.
 * @returns the call, or `undefined` with every problem added to `problems`.
 */
export function toChildCall(item: ChildArgs, problems: Problems): ChildCall | undefined {
	// First: the checks below quote values, and nothing over its bound may reach a message.
	if (addBoundProblems(item, problems)) return undefined;
	// With roster_entry, agent_type may be repeated (it must then agree with the entry's harness); with
	// agent, it runs the agent on that harness (docs/agent-libraries.md §Running a file on another harness).
	const kinds = CHILD_KEYS.filter(
		(key) =>
			item[key] !== undefined &&
			!(key === "agent_type" && (item.roster_entry !== undefined || item.agent !== undefined)),
	);
	const before = problems.size;
	// A resume may name its kind (it must then agree with the saved launch) or leave it to the record.
	if (kinds.length > 1 || (kinds.length === 0 && item.resume_session_id === undefined)) {
		problems.add(
			`give exactly one of agent, roster_entry or agent_type (or resume_session_id alone); ${kinds.length === 0 ? "none was given" : `got ${kinds.join(" and ")}`}`,
		);
	}
	if (item.prompt !== undefined) problems.add(`give task or prompt, not both with different text`);
	if (typeof item.task !== "string") problems.add(`task (or prompt) is required`);
	else if (item.task.trim() === "") problems.add(`task is empty`);
	for (const field of ["agent", "roster_entry", "model", "effort", "task_name", "cwd", "resume_session_id"] as const) {
		const value = item[field];
		if (value !== undefined && value.trim() === "") problems.add(`${field} is empty; omit it instead`);
	}
	// Native session ids are plain tokens (pi: [A-Za-z0-9._-]; codex/claude: UUIDs). Anything else, above
	// all a leading "-", would reach a harness command line as an option (codex: `resume --last`).
	if (item.resume_session_id?.trim() && !SESSION_ID.test(item.resume_session_id)) {
		problems.add(
			`resume_session_id ${JSON.stringify(item.resume_session_id)} is not a native session id (letters, digits, ".", "_" and "-", starting with a letter or digit)`,
		);
	}
	for (const field of ["allowed_tools", "disallowed_tools"] as const) {
		for (const tool of item[field] ?? []) {
			// A rule's own arguments may hold anything (claude: `Bash(git *)`); outside them, one name only.
			if (tool.trim() === "" || /[\s,]/.test(tool.replace(/\([^)]*\)/g, ""))) {
				problems.add(`${field}: ${JSON.stringify(tool)} is not a tool name; give one name per list item`);
			}
		}
	}
	// A resume may take them from its saved launch; resolution checks that it ran interactively.
	if (item.interactive !== true && (item.interactive === false || item.resume_session_id === undefined)) {
		for (const field of ["stay_open", "inactivity_timeout_ms"] as const) {
			if (item[field] !== undefined) problems.add(`${field} applies only with interactive: true`);
		}
	}
	if (item.output_schema !== undefined) checkOutputSchema(item.output_schema, problems);
	if (problems.size > before || typeof item.task !== "string") return undefined;
	return childOfKind(item, {
		task: item.task,
		taskName: item.task_name,
		cwd: item.cwd,
		model: item.model,
		effort: item.effort,
		resources: item.resources,
		rosterFile: item.roster_file,
		allowedTools: item.allowed_tools,
		disallowedTools: item.disallowed_tools,
		autoApprove: item.auto_approve,
		interactive: item.interactive,
		stayOpen: item.stay_open,
		inactivityTimeoutMs: item.inactivity_timeout_ms,
		outputSchema: item.output_schema,
	});
}

/**
 * The kind of child `item` asks for, with its `settings`. Its fields were checked (exactly one kind, or a
 * resume that may name one); `undefined` only for an item that check refused.
 */
function childOfKind(item: ChildArgs, settings: ChildSettings): ChildCall | undefined {
	const { agent, roster_entry: rosterEntry, agent_type: agentType, resume_session_id: resumeSessionId } = item;
	if (resumeSessionId !== undefined)
		return { kind: "resume", resumeSessionId, agent, rosterEntry, agentType, ...settings };
	if (agent !== undefined) return { kind: "agent", agent, agentType, ...settings };
	if (rosterEntry !== undefined) return { kind: "roster_entry", rosterEntry, agentType, ...settings };
	if (agentType !== undefined) return { kind: "ad_hoc", agentType, ...settings };
	return undefined;
}

const BOUNDED_FIELDS = ["agent", "roster_entry", "task_name", "model", "effort", "resume_session_id", "cwd"] as const;
const RESOURCE_LISTS = ["skills", "plugins", "extensions", "packages", "mcp_servers"] as const;

/**
 * Adds a problem for each string of `item` over its limit in ARGUMENT_LIMITS (core/bounds.ts), named
 * by its field (`allowed_tools[3]`, `resources.skills[0]`). @returns true when it added any.
 */
function addBoundProblems(item: ChildArgs, problems: Problems): boolean {
	const found: Array<string | undefined> = [];
	for (const field of BOUNDED_FIELDS) {
		const value = item[field];
		if (typeof value === "string") found.push(overLimit(field, value));
	}
	for (const field of ["task", "prompt"] as const) {
		const value = item[field];
		if (typeof value === "string") found.push(overLimit("task", value, field));
	}
	if (typeof item.roster_file === "string") found.push(overLimit("roster_file", item.roster_file));
	for (const field of ["allowed_tools", "disallowed_tools"] as const) {
		for (const [i, tool] of (item[field] ?? []).entries()) found.push(overLimit("tool", tool, `${field}[${i}]`));
	}
	// Resources are checked in full by the launch layer; here only the strings a message may quote.
	const resources = (item.resources ?? {}) as Partial<Record<(typeof RESOURCE_LISTS)[number], unknown>>;
	for (const list of RESOURCE_LISTS) {
		const paths = resources[list];
		for (const [i, path] of (Array.isArray(paths) ? paths : []).entries()) {
			if (typeof path === "string") found.push(overLimit("resource", path, `resources.${list}[${i}]`));
		}
	}
	const problemsFound = found.filter((problem): problem is string => problem !== undefined);
	for (const problem of problemsFound) problems.add(problem);
	return problemsFound.length > 0;
}
