/**
 * What Pi needs to list and render this package's tools before any of them runs: names, descriptions,
 * parameter schemas, argument preparation and renderers. It imports only TypeBox, Pi's own modules and
 * `ui/`, so the extension can register its tools at load and import what a call runs when the first call
 * comes (docs/design-notes.md §Start-up cost).
 */
import type { ToolDefinition } from "@earendil-works/pi-coding-agent";
import { type Static, type TSchema, Type } from "typebox";

export { JOB_MESSAGE_TYPE } from "../core/details.ts";

import { renderGraphCall, renderGraphResult } from "../ui/graph-render.ts";
import { renderJobsResult } from "../ui/job-render.ts";
import { renderSubagentCall, renderSubagentResult } from "../ui/render.ts";
import { prepareSubagentArguments, subagentSchema } from "./subagent-schema.ts";

export const subagentToolInfo = {
	name: "subagent",
	label: "Subagent",
	description: [
		"Delegate work to sub-agents that run as separate native processes (pi, codex or claude), each with its own context.",
		"Modes (give exactly one): single { agent | roster_entry | agent_type, task }; parallel { tasks: [...] }; chain { chain: [...] } where {previous} in a step's task is replaced by the prior step's final answer.",
		"agent names a Markdown agent definition; roster_entry a roster entry (see subagent_roster); agent_type runs a harness ad hoc.",
		"Each child's result ends with a line `session: <id>`: to continue that child's conversation, call subagent again with resume_session_id set to that id and a new task (it runs in the session's own directory).",
	].join(" "),
	promptSnippet: "Delegate tasks to sub-agents running as separate pi/codex/claude processes (single, parallel, chain)",
	parameters: subagentSchema,
	prepareArguments: prepareSubagentArguments,
	renderCall: renderSubagentCall,
	renderResult: renderSubagentResult,
};

/** `agent_graph`'s actions (docs/graphs.md §Controls). */
export const GRAPH_ACTIONS = ["run", "list", "status", "cancel", "skip", "retry", "pause", "resume"] as const;
export type GraphAction = (typeof GRAPH_ACTIONS)[number];
/**
 * A JSON object whose shape is checked after Pi's schema validation (plain `type: object`: some providers
 * refuse `patternProperties`, which `Type.Record` emits).
 */
function looseObject(description: string) {
	return Type.Unsafe<Record<string, unknown>>({ type: "object", description });
}

/** The `agent_graph` arguments (the graph's own shape is checked by graph/definition.ts, docs/graphs.md). */
export const graphSchema = Type.Object(
	{
		action: Type.Optional(
			Type.Unsafe<GraphAction>({
				type: "string",
				enum: [...GRAPH_ACTIONS],
				description:
					'"run" (default) runs graph or name; "list" shows this session\'s runs; "status" one run_id\'s nodes; "cancel" ends run_id; "skip" / "retry" a node of run_id; "pause" holds admissions; "resume" continues a paused run, or restores an unfinished one after a restart. Each control answers accepted or refused with the reason.',
			}),
		),
		run_id: Type.Optional(Type.String({ description: "The run a control acts on (from a run's result or list)." })),
		node: Type.Optional(Type.String({ description: "skip, retry: the node's key." })),
		graph: Type.Optional(
			looseObject(
				"Inline graph: { nodes: { <key>: { agent | roster_entry | agent_type, task, depends_on?, output_schema?, when? } }, inputs?, outputs?, limits?, fail_fast? }.",
			),
		),
		name: Type.Optional(Type.String({ description: "A saved graph (<agent dir>/graphs, .pi/graphs)." })),
		inputs: Type.Optional(looseObject("Checked against the graph's inputs schema.")),
		background: Type.Optional(Type.Boolean({ description: "Run (or resume) as a job (subagent_jobs)." })),
		agentScope: Type.Optional(
			Type.Unsafe<"user" | "project" | "both">({
				type: "string",
				enum: ["user", "project", "both"],
				description: "As for subagent; also where saved graphs are looked up.",
			}),
		),
	},
	{ additionalProperties: false },
);

export type GraphArgs = Static<typeof graphSchema>;
/**
 * Models sometimes send an object argument as JSON text: `graph` and `inputs` given as a string holding a
 * JSON object are parsed (Pi runs `prepareArguments` before schema validation); anything else is left for
 * the schema to refuse.
 */
export function prepareGraphArguments(raw: unknown): GraphArgs {
	if (!raw || typeof raw !== "object") return raw as GraphArgs;
	const args = { ...(raw as Record<string, unknown>) };
	for (const key of ["graph", "inputs"]) {
		const value = args[key];
		if (typeof value !== "string") continue;
		try {
			const parsed: unknown = JSON.parse(value);
			if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) args[key] = parsed;
		} catch {
			// Not JSON: the schema says what is wrong.
		}
	}
	return args as GraphArgs;
}

export const graphToolInfo = {
	name: "agent_graph",
	label: "Agent graph",
	description:
		// biome-ignore lint/suspicious/noTemplateCurlyInString: the graph's own placeholder syntax
		"Run a typed graph of sub-agents (pi, codex, claude nodes). Tasks wire ${inputs.<path>} and ${nodes.<key>.output.<path>} (a dependency's output_schema result). Everything is validated before anything runs; the result gives outputs, one line per node and the run_id. Runs are durable: action list | status | cancel | skip | retry | pause | resume with run_id (and node) controls a run, also after a restart. See docs/graphs.md.",
	promptSnippet: "Run a validated graph of sub-agents wired by structured outputs",
	parameters: graphSchema,
	prepareArguments: prepareGraphArguments,
	renderCall: renderGraphCall,
	renderResult: renderGraphResult,
};

export const rosterToolInfo = {
	name: "subagent_roster",
	label: "Subagent roster",
	description:
		"List the roster entries subagent({ roster_entry }) can run, with harness, model, effort, cwd, child roster and resolved resource paths, and the user's Markdown agents subagent({ agent }) can run (with the keys of other tools' formats they ignore).",
	promptSnippet: "List the roster entries available to the subagent tool",
	parameters: Type.Object({}, { additionalProperties: false }),
};

/** `wait`'s default timeout, ms (60 s). */
export const DEFAULT_WAIT_MS = 60_000;
/** `wait`'s longest timeout, ms (30 min, the default child timeout). */
export const MAX_WAIT_MS = 30 * 60_000;

type JobsAction = "list" | "cancel" | "send" | "stop" | "wait" | "result";

const jobsSchema = Type.Object(
	{
		action: Type.Optional(
			Type.Unsafe<JobsAction>({
				type: "string",
				enum: ["list", "cancel", "send", "stop", "wait", "result"],
				description:
					'"list" (default) shows the jobs; "cancel" kills job_id\'s children at once; "send" gives a running child of job_id a message (text, mode); "stop" asks job_id\'s children to end their turns, keeping partial answers, and kills them only after a grace period; "wait" waits (up to timeout_ms) until job_id has ended and its processes are gone, without cancelling it; "result" gives a finished job_id\'s result text again.',
			}),
		),
		job_id: Type.Optional(Type.String({ description: "The job to cancel, send to, stop, wait for or read." })),
		child: Type.Optional(
			Type.Union([Type.String(), Type.Number()], {
				description: "send: the child's 0-based index or task_name (needed when the job has several children).",
			}),
		),
		text: Type.Optional(Type.String({ description: "send: the message." })),
		mode: Type.Optional(
			Type.Unsafe<"steer" | "follow_up">({
				type: "string",
				enum: ["steer", "follow_up"],
				description:
					'send: "steer" (default) reaches the child during its current run; "follow_up" starts a new turn once the current one ends, and the job\'s result then includes both answers.',
			}),
		),
		timeout_ms: Type.Optional(
			Type.Integer({
				minimum: 1,
				maximum: MAX_WAIT_MS,
				description: `wait: give up after this many ms (default ${DEFAULT_WAIT_MS}); the job keeps running.`,
			}),
		),
	},
	{ additionalProperties: false },
);

export const jobsToolInfo = {
	name: "subagent_jobs",
	label: "Subagent jobs",
	description:
		'List background sub-agent jobs started with subagent({ background: true }); cancel one (action "cancel", job_id); send a running child a message (action "send", job_id, child?, text, mode: steer | follow_up; the receipt says whether the child took it); stop one gracefully (action "stop", job_id); wait for one to end without cancelling it (action "wait", job_id, timeout_ms); or read a finished job\'s result again (action "result", job_id).',
	promptSnippet: "List, message, stop, wait for, read or cancel background sub-agent jobs",
	parameters: jobsSchema,
	renderResult: renderJobsResult,
};

/** `/agentshell-roster`'s description. */
export const ROSTER_COMMAND = {
	name: "agentshell-roster",
	description:
		"Enable or disable the sub-agent roster (persisted to agentshell.json unless PI_AGENTSHELL_ROSTER_FILE is set)",
};

/** `/subagent-agents`'s name and description (docs/agent-libraries.md §Catalogue). */
export const AGENTS_COMMAND = {
	name: "subagent-agents",
	description:
		"List every selectable sub-agent (built-in, user, project; pi, Claude Code, codex) and the files that failed to load",
};

/** `/subagent-attach`'s name and description (docs/interactive.md). */
export const ATTACH_COMMAND = {
	name: "subagent-attach",
	description: "Attach to an interactive sub-agent's tmux session (default: the newest); detach with C-b d to return",
};

/** `/subagent-send`'s name and description (docs/background-jobs.md §Talking to running children). */
export const SEND_COMMAND = {
	name: "subagent-send",
	description: "Steer a child of the running subagent call: /subagent-send <child index | task_name | -> <text>",
};

/** `/graph`'s name and description (docs/graphs.md §Controls). */
export const GRAPH_COMMAND = {
	name: "graph",
	description:
		"Control agent_graph runs: /graph list | status | cancel | skip | retry | pause | resume <run_id> [node]",
};

/** `/subagents`'s name and description (docs/background-jobs.md §The fleet view). */
export const FLEET_COMMAND = {
	name: "subagents",
	description:
		"Every sub-agent of this session: transcript (enter), steer (s), stop or cancel (x), attach (a), result (r)",
};

/** `/subagent-jobs`'s name and description (docs/background-jobs.md §The fleet view). */
export const JOBS_COMMAND = {
	name: "subagent-jobs",
	description: "List background sub-agent jobs; /subagent-jobs cancel <id> kills one, stop <id> ends it gracefully",
};

/** A tool to register at load whose `execute` is `pick(runtime)`'s, the runtime loaded on the first call. */
export function deferredTool<R, P extends TSchema, D>(
	info: Omit<ToolDefinition<P, D>, "execute">,
	runtime: () => Promise<R>,
	pick: (loaded: R) => ToolDefinition<P, D>,
): ToolDefinition<P, D> {
	return {
		...info,
		execute: async (toolCallId, params, signal, onUpdate, ctx) =>
			pick(await runtime()).execute(toolCallId, params, signal, onUpdate, ctx),
	};
}
