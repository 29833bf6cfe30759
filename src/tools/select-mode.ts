/**
 * Exactly one mode per call (issue 3 item 3): single, `tasks` or `chain`; and exactly one kind per child
 * (`agent`, `roster_entry` or `agent_type`). Shape checks only; the launch layer resolves names and paths.
 */

import type { CallMode } from "../core/child-run.ts";
import type { Problems } from "../core/problems.ts";
import type { ChildCall, ChildSettings } from "../launch/child-call.ts";
import { PREVIOUS_PLACEHOLDER } from "../runs/scheduler.ts";
import { checkOutputSchema } from "../runs/structured-output.ts";
import type { ChildArgs, SubagentArgs } from "./subagent-schema.ts";

export interface SelectedCall {
	mode: CallMode;
	calls: ChildCall[];
	/** Per child, for messages: "" in single mode, "task N" / "step N" otherwise. */
	labels: string[];
}

export interface CallLimits {
	/** Most tasks in one `tasks` call (setting `limits.max_parallel_tasks`). */
	maxParallelTasks: number;
	/** Most steps in one `chain` call. */
	maxChainSteps: number;
}

const CHILD_KEYS = ["agent", "roster_entry", "agent_type"] as const;
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Arguments of the whole call rather than of a child: allowed at the top level in every mode. */
const CALL_KEYS = new Set(["tasks", "chain", "agentScope", "background"]);
const SINGLE_KEYS = [...CHILD_KEYS, "task", "resume_session_id"] as const;

/**
 * @returns the selected call, or `undefined` with every problem added to `problems`: no mode or several
 *   modes (naming the fields given), a child with no kind or several, missing task text, `prompt`
 *   conflicting with `task`, too many children.
 */
export function selectMode(args: SubagentArgs, limits: CallLimits, problems: Problems): SelectedCall | undefined {
	const singleFields = SINGLE_KEYS.filter((key) => args[key] !== undefined);
	const modes: string[] = [];
	if (singleFields.length > 0) modes.push(`single (${singleFields.join(", ")})`);
	if (args.tasks !== undefined) modes.push("tasks");
	if (args.chain !== undefined) modes.push("chain");
	if (modes.length !== 1) {
		const given = Object.keys(args).filter((key) => (args as Record<string, unknown>)[key] !== undefined);
		problems.add(
			`give exactly one mode: single ({ agent | roster_entry | agent_type | resume_session_id, task }), parallel ({ tasks: [...] }) or chain ({ chain: [...] }); ${
				modes.length === 0
					? `none was given${given.length > 0 ? ` (fields given: ${given.join(", ")})` : ""}`
					: `got ${modes.join(" and ")}`
			}`,
		);
		return undefined;
	}
	const before = problems.size;
	let mode: CallMode;
	let items: ChildArgs[];
	let prefix: string;
	if (singleFields.length > 0) {
		mode = "single";
		items = [args];
		prefix = "";
	} else if (args.tasks !== undefined) {
		mode = "parallel";
		items = args.tasks;
		prefix = "task";
		if (items.length === 0) problems.add("tasks: give at least one task");
		if (items.length > limits.maxParallelTasks) {
			problems.add(
				`tasks: ${items.length} tasks given, at most ${limits.maxParallelTasks} are allowed per call (setting limits.max_parallel_tasks)`,
			);
		}
	} else {
		mode = "chain";
		items = args.chain ?? [];
		prefix = "step";
		if (items.length === 0) problems.add("chain: give at least one step");
		if (items.length > limits.maxChainSteps) {
			problems.add(`chain: ${items.length} steps given, at most ${limits.maxChainSteps} are allowed`);
		}
	}
	if (mode !== "single") {
		const topLevel = Object.keys(args).filter(
			(key) => !CALL_KEYS.has(key) && (args as Record<string, unknown>)[key] !== undefined,
		);
		if (topLevel.length > 0)
			problems.add(`${topLevel.join(", ")}: in ${mode} mode these go inside each item, not at the top level`);
	}
	const labels = items.map((_, i) => (prefix ? `${prefix} ${i + 1}` : ""));
	const calls = items.map((item, i) => toChildCall(item, problems.at(labels[i])));
	if (mode === "chain" && items[0]?.task?.includes(PREVIOUS_PLACEHOLDER)) {
		problems.add(`step 1: task uses ${PREVIOUS_PLACEHOLDER}, but there is no previous step`);
	}
	if (problems.size > before) return undefined;
	// Each call that added no problem is there.
	return { mode, calls: calls.filter((call): call is ChildCall => call !== undefined), labels };
}

function toChildCall(item: ChildArgs, problems: Problems): ChildCall | undefined {
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
