/**
 * What Pi needs to list and render this package's tools before any of them runs: names, descriptions,
 * parameter schemas, argument preparation and renderers. It imports only TypeBox, Pi's own modules and
 * `ui/`, so the extension can register its tools at load and import what a call runs when the first call
 * comes (docs/design-notes.md §Start-up cost).
 */
import type { ToolDefinition } from "@earendil-works/pi-coding-agent";
import type { Static, TSchema } from "typebox";

export { JOB_MESSAGE_TYPE } from "../core/details.ts";

import { renderGraphCall, renderGraphResult } from "../ui/graph-render.ts";
import { renderJobsResult } from "../ui/job-render.ts";
import { renderSubagentCall, renderSubagentResult } from "../ui/render.ts";
import {
	type GraphArgs,
	graphParameters,
	jobsParameters,
	rosterParameters,
	subagentParameters,
} from "./model-parameters.ts";
import { prepareSubagentArguments } from "./subagent-arguments.ts";

export const subagentToolInfo = {
	name: "subagent",
	label: "Subagent",
	description: [
		"Delegate work to sub-agents running as separate native processes (pi, codex, claude), each with its own context.",
		"Give exactly one mode: single { agent | roster_entry | agent_type, task }, parallel { tasks: [...] } or chain { chain: [...] }.",
		"A result ends with `session: <id>`; resume_session_id with that id and a new task continues that child.",
		"Errors name every bad field.",
	].join(" "),
	promptSnippet: "Delegate tasks to sub-agents running as separate pi/codex/claude processes (single, parallel, chain)",
	parameters: subagentParameters,
	// Pi checks the prepared arguments against `parameters` next; the tool then checks the complete schema.
	prepareArguments: prepareSubagentArguments as (raw: unknown) => Static<typeof subagentParameters>,
	renderCall: renderSubagentCall,
	renderResult: renderSubagentResult,
};

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
		"Run a typed graph of sub-agents (pi, codex, claude nodes). Tasks wire ${inputs.<path>} and ${nodes.<key>.output.<path>} (a dependency's output_schema result). All is validated before anything runs; the result gives outputs, a line per node and the run_id. Runs are durable; errors name every bad field.",
	promptSnippet: "Run a validated graph of sub-agents wired by structured outputs",
	parameters: graphParameters,
	prepareArguments: prepareGraphArguments,
	renderCall: renderGraphCall,
	renderResult: renderGraphResult,
};

export const rosterToolInfo = {
	name: "subagent_roster",
	label: "Subagent roster",
	description: "List the roster entries (harness, model, effort, cwd, resources) and Markdown agents subagent can run.",
	promptSnippet: "List the roster entries available to the subagent tool",
	parameters: rosterParameters,
};

export const jobsToolInfo = {
	name: "subagent_jobs",
	label: "Subagent jobs",
	description:
		"Background jobs of subagent({ background: true }): list them; for job_id, cancel (kill now), stop (end turns, keep partial answers), wait (until ended, not cancelling), result (again) or send text to a running child.",
	promptSnippet: "List, message, stop, wait for, read or cancel background sub-agent jobs",
	parameters: jobsParameters,
	renderResult: renderJobsResult,
};

/** `/agentshell-roster`'s description. */
export const ROSTER_COMMAND = {
	name: "agentshell-roster",
	description:
		"Enable or disable the sub-agent roster: [enable | disable], no word flips it (persisted to agentshell.json unless PI_AGENTSHELL_ROSTER_FILE is set)",
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
	pick: (loaded: R) => Promise<ToolDefinition<P, D>>,
): ToolDefinition<P, D> {
	return {
		...info,
		execute: async (toolCallId, params, signal, onUpdate, ctx) =>
			(await pick(await runtime())).execute(toolCallId, params, signal, onUpdate, ctx),
	};
}

/** The commands `src/index.ts` registers, in that order (handlers: command-handlers.ts). */
export const COMMANDS = [
	ROSTER_COMMAND,
	SEND_COMMAND,
	AGENTS_COMMAND,
	ATTACH_COMMAND,
	FLEET_COMMAND,
	JOBS_COMMAND,
	GRAPH_COMMAND,
];
